import CheckrunModel
import Foundation

extension ResultStore {
    /// Verifies a group of sessions in one round of queries: one query per table for the whole
    /// group, not one per session. Larger groups are faster and hold more in memory: `verify` on its
    /// own takes 64 sessions at a time, a report verifying beside its own work 16. The tables
    /// are read first, so each record is compared with them as it streams past.
    func verifyGroup(_ ids: [UUID], depth: VerificationDepth = .everything, into report: inout VerificationReport) throws {
        let list: [SQLValue] = [.idList(ids)]
        var sessions: [UUID: Session] = [:]
        try database.forEach("SELECT \(Self.sessionColumns) FROM sessions WHERE id IN (SELECT value FROM json_each(?))", list) { row in
            if let session = Self.readSession(row) { sessions[session.id] = session }
        }
        let tables = try sessionTables(list, depth: depth, into: &report)
        let chains = try chainChecks(of: sessions, tables, list, into: &report)
        for id in ids {
            report.sessions += 1
            guard let session = sessions[id], let chain = chains[id] else {
                report.problems.append(VerificationProblem(session: id, sequence: nil, message: "the session is gone"))
                continue
            }
            report.problems += chain.problems
            report.namedAttachments += chain.attachments
            if chain.count == 0 && session.finishedAt != nil {
                // A walk that has had no answer yet has no records, and is unfinished; a finished
                // session without one was added, or emptied, behind checkrun's back.
                report.problems.append(VerificationProblem(session: id, sequence: nil,
                    message: "the session is marked finished but has no records: it was added or emptied behind checkrun's back"))
            } else if session.finishedAt != nil, let open = chain.tables.results.first(where: { $0.verdict == nil }) {
                // Whether a session is finished is not in its chain; a walk marks it finished only
                // when every check has its result. Marked by hand, it took an unfinished attempt's
                // failed answer out of every report.
                report.problems.append(VerificationProblem(session: id, sequence: nil,
                    message: Self.finishedWithoutResult(open.check)))
            }
            report.problems += tableProblems(of: chain)
        }
    }

    /// The group's results as the tables hold them, with the parts `depth` compares, session by session.
    private func sessionTables(_ list: [SQLValue], depth: VerificationDepth, into report: inout VerificationReport) throws -> [UUID: SessionTables] {
        // In the order of the unique index on (session, check, attempt): nothing to sort, and
        // each session's results side by side.
        var results: [CheckResult] = []
        var stored: [StoredColumns] = []
        try database.forEach(database.engine == .sqlite ? Self.groupResults : PostgresStatements.groupResults, list) { row in
            guard let result = Self.readResult(row) else {
                // Its session id was matched by its exact text, so it is the result's own id.
                let session = row.string(1).flatMap(UUID.init(text:)) ?? UUID()
                report.problems.append(Self.idProblem(session, nil, "a result's id", row.string(0)))
                return
            }
            if !row.isStorageID(0) { report.problems.append(Self.idProblem(result.sessionID, nil, "a result's id", row.string(0))) }
            results.append(result)
            stored.append(StoredColumns(activeSeconds: row.double(12), amendments: row.int(13) ?? 0, amendReason: row.string(14)))
        }
        try loadParts(of: &results, countersOnly: depth == .cited)
        if depth == .cited {
            for place in try loadOutcomesOfSetAside(&results) { stored[place].outcomesRead = true }
        }
        var tables: [UUID: SessionTables] = [:]
        var start = 0
        while start < results.count {
            var end = start + 1
            while end < results.count && results[end].sessionID == results[start].sessionID { end += 1 }
            tables[results[start].sessionID] = SessionTables(results[start..<end], stored[start..<end], depth: depth)
            start = end
        }
        return tables
    }

    /// Every session's records, in order, through its chain check. The records come session
    /// by session, so one check is filled at a time and a session's id is read only where the
    /// next session begins; each record's text is read in place.
    private func chainChecks(of sessions: [UUID: Session], _ tables: [UUID: SessionTables], _ list: [SQLValue],
                             into report: inout VerificationReport) throws -> [UUID: ChainCheck] {
        var chains: [UUID: ChainCheck] = [:]
        var current: ChainCheck?
        func check(_ session: Session) -> ChainCheck {
            ChainCheck(session: session, tables: tables[session.id] ?? SessionTables([], []))
        }
        try database.forEach(database.engine == .sqlite ? Self.groupRecords : PostgresStatements.groupRecords, list) { row in
            if current.map({ !row.hasText(0, equalTo: $0.session.id.storageText) }) ?? true {
                if let done = current { chains[done.session.id] = done }
                current = row.string(0).flatMap(UUID.init(text:)).flatMap { sessions[$0] }.map(check)
            }
            guard let session = current?.session.id else { return }
            report.records += 1
            guard let resultID = row.withText(2, { UUID(utf8: $0) }) ?? nil, let kind = row.string(3).flatMap(Record.Kind.init(rawValue:)) else {
                report.problems.append(VerificationProblem(session: session, sequence: row.int(1),
                    message: "the record names no result or no kind checkrun writes (\(DisplayText.preview(row.string(2) ?? "NULL", limit: 40)), \(DisplayText.preview(row.string(3) ?? "NULL", limit: 20))): it was changed behind checkrun's back"))
                return
            }
            if !row.isStorageID(2) { report.problems.append(Self.idProblem(session, row.int(1), "the record's result id", row.string(2))) }
            let record = (sequence: row.int(1) ?? 0, reason: row.string(4))
            // NULL where checkrun always writes text reads as empty text, which no hash matches.
            row.withTextOrEmpty(5) { payload in
                row.withTextOrEmpty(6) { previousHash in
                    row.withTextOrEmpty(7) { hash in
                        current?.add(ChainCheck.RecordInPlace(sequence: record.sequence, resultID: resultID, kind: kind, reason: record.reason,
                                                              payload: payload, previousHash: previousHash, hash: hash))
                    }
                }
            }
        }
        if let done = current { chains[done.session.id] = done }
        for session in sessions.values where chains[session.id] == nil { chains[session.id] = check(session) }
        return chains
    }

    /// A group's results (a JSON list of session ids), each session's side by side in the
    /// order of the unique index on (session, check, attempt), so nothing is sorted.
    static let groupResults = """
        SELECT \(resultColumns), r.active_seconds, r.amendments, r.amend_reason FROM results r
        WHERE r.session_id IN (SELECT value FROM json_each(?)) ORDER BY r.session_id, r.check_name, r.attempt
        """

    /// A group's records, each session's together and in sequence.
    static let groupRecords = """
        SELECT session_id, sequence, result_id, kind, reason, payload, previous_hash, hash FROM records
        WHERE session_id IN (SELECT value FROM json_each(?)) ORDER BY session_id, sequence
        """

    /// Said of a session marked finished while one of its checks has no result yet.
    static func finishedWithoutResult(_ check: String) -> String {
        "the session is marked finished but \(DisplayText.preview(check, limit: 80)) has no result yet: it was marked finished behind checkrun's back"
    }

    /// An id in the results tables or the records in a spelling checkrun never writes. The
    /// session ids are read by their exact text, and `verify` finds others with the deleted
    /// sessions' leftovers.
    static func idProblem(_ session: UUID, _ sequence: Int?, _ place: String, _ value: String?) -> VerificationProblem {
        VerificationProblem(session: session, sequence: sequence,
            message: "\(place) is \(DisplayText.preview(value ?? "", limit: 40)), an id checkrun did not write: it was added behind checkrun's back")
    }
}
