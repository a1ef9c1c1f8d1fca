import CheckrunModel
import Foundation

/// Migration 2's backfill: every result saved before the record existed gets one record of its
/// state, chained per session. It reads the tables as schema version 2 has them, with SQL of its
/// own, and writes the canonical forms (Schemas/canonical-forms.md, locked by golden hashes):
/// it calls none of the store's reading or writing code, so later changes to that code, or to
/// the tables after version 2, cannot change what this step does to an old database.
enum Migration2Records {
    static func backfill(_ database: Database) throws {
        let sessions = try database.query(
            "SELECT id, release, build, device, os_version, tester, plan, started_at FROM sessions ORDER BY started_at"
        ) { row -> Session? in
            guard let id = row.string(0).flatMap(UUID.init(text:)) else { return nil }
            let plan = ((try? JSONParser.parse(row.string(6) ?? "[]"))?.arrayValue ?? []).compactMap(\.stringValue)
            return Session(id: id, release: row.string(1) ?? "", build: row.string(2) ?? "", device: row.string(3) ?? "",
                           osVersion: row.string(4) ?? "", tester: row.string(5) ?? "", plan: plan,
                           startedAt: row.date(7) ?? Date(timeIntervalSince1970: 0))
        }
        for case let session? in sessions {
            var previous = session.digest
            var sequence = 0
            for result in try results(of: session.id, database) {
                sequence += 1
                let record = Record(sessionID: session.id, sequence: sequence, resultID: result.id, kind: .answer, reason: nil,
                                    payload: result.payload, recordedAt: result.updatedAt, previousHash: previous)
                try database.run(
                    """
                    INSERT INTO records (session_id, sequence, result_id, kind, reason, payload, recorded_at, previous_hash, hash)
                    VALUES (?, ?, ?, 'answer', NULL, ?, ?, ?, ?)
                    """,
                    [.text(session.id.storageText), .integer(Int64(sequence)), .text(result.id.storageText), .text(record.payload),
                     SQLValue(record.recordedAt), .text(record.previousHash), .text(record.hash)])
                previous = record.hash
            }
        }
    }

    /// A session's results with their parts, in the order they were last answered (ties in
    /// the order they were started, as version 2 first wrote them).
    private static func results(of sessionID: UUID, _ database: Database) throws -> [CheckResult] {
        let epoch = Date(timeIntervalSince1970: 0)
        var results = try database.query(
            """
            SELECT id, check_name, protocol_hash, attempt, verdict, blocked_reason, tally, notes, notes_answered_at, started_at, updated_at
            FROM results WHERE session_id = ? ORDER BY updated_at, started_at, attempt
            """, [.text(sessionID.storageText)]
        ) { row -> CheckResult? in
            guard let id = row.string(0).flatMap(UUID.init(text:)) else { return nil }
            var result = CheckResult(id: id, sessionID: sessionID, check: row.string(1) ?? "", protocolHash: row.string(2) ?? "",
                                     attempt: row.int(3) ?? 1, outcomeCount: 0, startedAt: row.date(9) ?? epoch)
            result.verdict = row.string(4).flatMap(Verdict.init(rawValue:))
            result.blockedReason = row.string(5)
            result.tally = row.int(6) ?? 0
            result.notes = row.string(7)
            result.notesAnsweredAt = row.date(8)
            result.updatedAt = row.date(10) ?? result.startedAt
            return result
        }.compactMap { $0 }
        for index in results.indices {
            let id: [SQLValue] = [.text(results[index].id.storageText)]
            try database.forEach("SELECT position, verdict, value, note, answered_at FROM outcome_answers WHERE result_id = ? ORDER BY position", id) { row in
                guard let position = row.int(0), position >= 0, let verdict = row.string(1).flatMap(OutcomeVerdict.init(rawValue:)) else { return }
                while results[index].outcomes.count <= position { results[index].outcomes.append(nil) }
                results[index].outcomes[position] = OutcomeAnswer(verdict, value: row.int(2), note: row.string(3), answeredAt: row.date(4) ?? epoch)
            }
            try database.forEach("SELECT counter, value, answered_at FROM counter_values WHERE result_id = ?", id) { row in
                guard let name = row.string(0), let value = row.int(1) else { return }
                results[index].counters[name] = CounterValue(value, answeredAt: row.date(2) ?? epoch)
            }
            try database.forEach("SELECT kind, at, typed_seconds, recorded_at FROM stopwatch_events WHERE result_id = ? ORDER BY sequence", id) { row in
                guard let kind = row.string(0).flatMap(StopwatchEvent.Kind.init(rawValue:)) else { return }
                results[index].stopwatch.append(StopwatchEvent(kind, at: row.double(1) ?? 0, typedSeconds: row.double(2), recordedAt: row.date(3) ?? epoch))
            }
        }
        return results
    }
}
