import CheckrunModel
import Foundation

extension ResultStore {
    /// What a report or comparison must also know of the sessions it does not cite: that none
    /// was moved out of its scope, or deleted from under its results. A session whose release,
    /// build or device was edited no longer shows among the sessions cited, and a session row
    /// deleted takes its results out of every query; either would hide a failure while the
    /// chains cited stay whole. So every other session's details are compared with the hash its
    /// first record was chained to, and that record's own hash checked (its link alone could be
    /// rewritten in one statement). Records and results left without a session are looked for
    /// beside this (`deletedSessionProblems`). A session moved with its whole chain rewritten is beyond any check without a
    /// key: a kept report's pins find it (`problems(against:)`).
    /// `inOpenSnapshot`: the caller holds a read transaction already (a merge's source).
    func outsideSessionProblems(cited: Set<UUID>, inOpenSnapshot: Bool = false) throws -> [VerificationProblem] {
        // One snapshot for the scan and every probe after it: a walk giving its first answer
        // meanwhile must not read as a session whose first record was deleted.
        if !inOpenSnapshot { try database.beginSnapshot() }
        defer { if !inOpenSnapshot { try? database.execute("COMMIT") } }
        var problems: [VerificationProblem] = []
        var digester = SessionDigester()
        var withoutFirst: [(id: UUID, finished: Bool)] = []
        try database.forEach(database.engine == .sqlite ? Self.sessionsWithFirstRecords : PostgresStatements.sessionsWithFirstRecords) { row in
            // Read here rather than by `readSession`: a plan shared by many sessions is read once.
            guard let id = row.string(0).flatMap(UUID.init(text:)), !cited.contains(id) else { return }
            guard let first = row.string(9) else {
                withoutFirst.append((id, row.date(8) != nil))
                return
            }
            let storedPlan = row.string(6) ?? ""
            let session = Session(id: id, release: row.string(1) ?? "", build: row.string(2) ?? "", device: row.string(3) ?? "",
                                  osVersion: row.string(4) ?? "", tester: row.string(5) ?? "", plan: digester.plan(stored: storedPlan),
                                  startedAt: row.date(7) ?? Date(timeIntervalSince1970: 0), finishedAt: row.date(8))
            if !first.hasSameBytes(as: digester.digest(of: session, storedPlan: storedPlan)) || !Self.firstRecordIntact(row) {
                problems.append(VerificationProblem(session: id, sequence: 1, message: Self.sessionDetailsChanged
                    + ", perhaps to move it out of what this covers (it now reads release \"\(DisplayText.preview(session.release, limit: 40))\", build \"\(DisplayText.preview(session.build, limit: 40))\")"))
            }
        }
        problems += try firstRecordProblems(withoutFirst)
        return problems
    }

    /// Every session with its first record's link, kind, reason, payload and hash. SQLite
    /// reaches each first record by a subquery, a probe of the index each: a join read them
    /// ten times slower.
    static let sessionsWithFirstRecords = """
        SELECT \(sessionColumns),
            (SELECT r.previous_hash FROM records r WHERE r.session_id = s.id AND r.sequence = 1),
            (SELECT r.kind FROM records r WHERE r.session_id = s.id AND r.sequence = 1),
            (SELECT r.reason FROM records r WHERE r.session_id = s.id AND r.sequence = 1),
            (SELECT r.payload FROM records r WHERE r.session_id = s.id AND r.sequence = 1),
            (SELECT r.hash FROM records r WHERE r.session_id = s.id AND r.sequence = 1)
        FROM sessions s
        """

    /// Whether the first record of a row of `sessionsWithFirstRecords` has the hash its content gives.
    private static func firstRecordIntact(_ row: Row) -> Bool {
        guard let kind = row.string(10).flatMap(Record.Kind.init(rawValue:)) else { return false }
        let reason = row.string(11)
        return row.withTextOrEmpty(12) { payload in
            row.withTextOrEmpty(9) { previous in
                row.withTextOrEmpty(13) { hash in
                    Record.hashMatches(sequence: 1, kind: kind, reason: reason, payload: payload, previousHash: previous, storedHash: hash)
                }
            }
        }
    }

    /// Sessions without a first record (few: walks not answered yet): one with other records
    /// lost its first, and one with results, or marked finished, lost them all.
    private func firstRecordProblems(_ sessions: [(id: UUID, finished: Bool)]) throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        for (id, finished) in sessions {
            let key: [SQLValue] = [.text(id.storageText)]
            if try database.scalarInt("SELECT 1 FROM records WHERE session_id = ? LIMIT 1", key) != nil {
                problems.append(VerificationProblem(session: id, sequence: 1, message: "record 1 was deleted"))
            } else if try finished || database.scalarInt("SELECT 1 FROM results WHERE session_id = ? LIMIT 1", key) != nil {
                problems.append(VerificationProblem(session: id, sequence: nil, message: "the session's records were deleted behind checkrun's back"))
            }
        }
        return problems
    }

    /// Said where a session's first record was chained to other details than its row holds.
    static let sessionDetailsChanged = "the session's details (release, build, device, tester or plan) were changed after recording"
}
