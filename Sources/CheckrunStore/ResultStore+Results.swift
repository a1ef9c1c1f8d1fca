import CheckrunModel
import Foundation

/// Saving and reading check results: one transaction per save, so each answer is durable
/// the moment the tester gives it.
extension ResultStore {
    /// Saves the whole state of one result: the results table shows it, and the session's
    /// append-only record gains an entry chained to the one before.
    package func save(_ result: CheckResult) throws {
        try database.transaction(.session(result.sessionID)) {
            try writeProjection(result)
            try appendRecord(for: result, kind: .answer, reason: nil, at: result.lastChangedAt)
        }
    }

    /// Connects to the server again after the connection was lost (nothing to do for SQLite);
    /// throws with `connectionLost` while the server is still away.
    package func reconnect() throws {
        try database.reconnect()
    }

    /// Saves `result` again after the connection to a server was lost while it was being saved
    /// (call `reconnect` first). When the lost attempt did commit (its reply was what was lost),
    /// the session already holds this very answer (a payload carries the time of every answer,
    /// so no other save has the same one) and nothing is written: not a second record, and not
    /// the tables either, which a teammate's amendment may have changed since.
    /// As with `save(_:over:)`, a save another writer came before is refused; one another writer
    /// changed after it landed is said (`ResultChangedElsewhere.cameAfterThisAnswer`).
    package func saveAfterLostConnection(_ result: CheckResult, over seen: String?) throws {
        try database.transaction(.session(result.sessionID)) {
            let landed = try database.scalarInt(
                "SELECT count(*) FROM records WHERE session_id = ? AND result_id = ? AND kind = 'answer' AND payload = ?",
                [.text(result.sessionID.storageText), .text(result.id.storageText), .text(result.payload)]) ?? 0
            guard landed == 0 else {
                // Saved, with its reply lost; a teammate may have changed the result since, which
                // the walk must say rather than carry on from the answer as if it stood.
                do {
                    _ = try requireUnchanged(result, since: result.payload)
                } catch var changed as ResultChangedElsewhere {
                    changed.cameAfterThisAnswer = true
                    throw changed
                }
                return
            }
            try write(result, over: seen)
        }
    }

    /// Writes a result into the results tables (the current view), replacing its earlier state.
    /// `stored`: the caller already knows the result has rows to replace (one query fewer).
    func writeProjection(_ result: CheckResult, stored: Bool = false) throws {
        let id = SQLValue.text(result.id.storageText)
        // A result saved for the first time has no parts to clear (deletes are the costly part).
        let existed = try stored || database.scalarInt("SELECT 1 FROM results WHERE id = ?", [id]) != nil
        try writeResultRow(result, id: id)
        if existed { try clearParts(of: id) }
        for part in PartRows.all(of: result, id: id) { try insertRows(part.table, part.columns, part.rows.map(\.values)) }
    }

    /// The result's own row, inserted or brought up to date.
    func writeResultRow(_ result: CheckResult, id: SQLValue) throws {
        try database.run(
            """
            INSERT INTO results (id, session_id, check_name, protocol_hash, attempt, verdict, blocked_reason,
                active_seconds, tally, notes, notes_answered_at, started_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
            ON CONFLICT (id) DO UPDATE SET verdict = ?6, blocked_reason = ?7, active_seconds = ?8, tally = ?9,
                notes = ?10, notes_answered_at = ?11, updated_at = ?13
            """,
            [id, .text(result.sessionID.storageText), .text(result.check), .text(result.protocolHash),
             .integer(Int64(result.attempt)), SQLValue(result.verdict?.rawValue), SQLValue(result.blockedReason),
             SQLValue(result.activeSeconds), .integer(Int64(result.tally)), SQLValue(result.notes),
             SQLValue(result.notesAnsweredAt), SQLValue(result.startedAt), SQLValue(result.updatedAt)])
    }

    /// Removes a result's parts before they are written again: four statements on SQLite, one
    /// on a server (where every statement is a trip over the network).
    private func clearParts(of id: SQLValue) throws {
        let tables = ["outcome_answers", "counter_values", "result_attachments", "stopwatch_events"]
        if database.engine == .sqlite {
            for table in tables { try database.run("DELETE FROM \(table) WHERE result_id = ?", [id]) }
        } else {
            try database.run(PostgresStatements.clearParts, [id])
        }
    }

    /// Inserts `rows` a hundred to a statement (nothing when there are none): few trips to a
    /// server, and far below either engine's limit on parameters in one statement.
    /// `then`: a clause after the rows, such as ON CONFLICT.
    func insertRows(_ table: String, _ columns: [String], _ rows: [[SQLValue]], then clause: String = "") throws {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + 100, rows.count)]
            try database.run("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES " + Array(repeating: row, count: chunk.count).joined(separator: ", ") + clause,
                             chunk.flatMap { $0 })
            start += chunk.count
        }
    }

    /// The results of one session, every attempt, in the order they were started; results a
    /// walk started together, in the order they were first saved.
    package func results(inSession sessionID: UUID) throws -> [CheckResult] {
        let rows = try database.query(
            "SELECT \(Self.resultColumns) FROM results r WHERE r.session_id = ? ORDER BY r.started_at, r.attempt, r.rowid",
            [.text(sessionID.storageText)], Self.readResult)
        var results = rows.compactMap { $0 }
        try loadParts(of: &results)
        return results
    }

    /// A session's results and the payloads of their latest records (as `latestPayloads`), read
    /// in one snapshot: a walk resuming it must hold exactly what the payloads it will save over
    /// say, even while another terminal saves. Each result is read from its latest record, not
    /// from the tables: a row of them edited by hand (which `verify` names) must never become an
    /// answer the walk saves again under the tester's name. A result whose record cannot be
    /// read keeps the tables' reading; `verify` names that record.
    package func resumeState(inSession sessionID: UUID) throws -> (results: [CheckResult], seen: [UUID: String]) {
        try database.beginSnapshot()
        do {
            let (tables, seen) = (try results(inSession: sessionID), try latestPayloads(inSession: sessionID))
            try database.execute("COMMIT")
            return (tables.map { seen[$0.id].flatMap(Self.recorded(of: $0)) ?? $0 }, seen)
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// The columns `readResult` reads, in its order (`r` is the results table); a query selects
    /// them first and its own columns after them.
    static let resultColumns = """
        r.id, r.session_id, r.check_name, r.protocol_hash, r.attempt, r.verdict, r.blocked_reason, r.tally, r.notes, \
        r.notes_answered_at, r.started_at, r.updated_at
        """

    /// A result from the first columns of a row (see `resultColumns`), without its parts.
    static func readResult(_ row: Row) -> CheckResult? {
        guard let id = row.string(0).flatMap({ UUID(text: $0) }), let session = row.string(1).flatMap({ UUID(text: $0) }) else {
            return nil
        }
        var result = CheckResult(
            id: id, sessionID: session, check: row.string(2) ?? "", protocolHash: row.string(3) ?? "",
            // Whole numbers only as SQLite stores numbers: text such as '1 x' (read as 1 where a
            // number is asked for) becomes a value checkrun never writes, which `verify` names.
            attempt: row.storedInteger(4) ?? 0, outcomeCount: 0, startedAt: row.date(10) ?? Date())
        result.verdict = row.string(5).flatMap { Verdict(rawValue: $0) }
        result.blockedReason = row.string(6)
        result.tally = row.storedInteger(7) ?? -1
        result.notes = row.string(8)
        result.notesAnsweredAt = row.date(9)
        result.updatedAt = row.date(11) ?? result.startedAt
        return result
    }

    /// The attempt number a new result gets, for every check already tried in this release,
    /// build and device (a check not listed starts at 1): one query for a whole walk.
    package func nextAttempts(release: String, build: String, device: String) throws -> [String: Int] {
        var attempts: [String: Int] = [:]
        try database.forEach(
            """
            SELECT r.check_name, count(*) FROM results r JOIN sessions s ON s.id = r.session_id
            WHERE s.release = ? AND s.build = ? AND s.device = ? GROUP BY r.check_name
            """, [.text(release), .text(build), .text(device)]
        ) { row in
            if let name = row.string(0) { attempts[name] = (row.int(1) ?? 0) + 1 }
        }
        return attempts
    }

    /// The attempt number a new result for `check` gets: one more than the results recorded
    /// for the same check, release, build and device so far.
    package func nextAttempt(check: String, release: String, build: String, device: String) throws -> Int {
        let count = try database.scalarInt(
            """
            SELECT count(*) FROM results r JOIN sessions s ON s.id = r.session_id
            WHERE r.check_name = ? AND s.release = ? AND s.build = ? AND s.device = ?
            """, [.text(check), .text(release), .text(build), .text(device)]) ?? 0
        return count + 1
    }
}
