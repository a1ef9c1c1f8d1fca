import CheckrunModel
import Foundation

extension ResultStore {
    /// What a report or comparison must also know of the sessions it does not cite: that none
    /// was moved out of its scope, or deleted from under its results. A session whose release,
    /// build or device was edited no longer shows among the sessions cited, and a session row
    /// deleted takes its results out of every query; either would hide a failure while the
    /// chains cited stay whole. So every other session's details are compared with the hash its
    /// first record was chained to (one index probe a session), and, in a file, records and
    /// results left without a session are looked for (a server's foreign keys refuse them;
    /// the sqlite3 shell does not enforce SQLite's).
    func outsideSessionProblems(cited: Set<UUID>) throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        try database.forEach(
            """
            SELECT \(Self.sessionColumns), (SELECT r.previous_hash FROM records r WHERE r.session_id = s.id AND r.sequence = 1),
                (SELECT 1 FROM records r WHERE r.session_id = s.id LIMIT 1), (SELECT 1 FROM results x WHERE x.session_id = s.id LIMIT 1)
            FROM sessions s
            """
        ) { row in
            guard let session = Self.readSession(row), !cited.contains(session.id) else { return }
            guard let first = row.string(9) else {
                // A walk not answered yet has no records and no results; one with records has a first.
                if row.int(10) != nil {
                    problems.append(VerificationProblem(session: session.id, sequence: 1, message: "record 1 was deleted"))
                } else if row.int(11) != nil || session.finishedAt != nil {
                    problems.append(VerificationProblem(session: session.id, sequence: nil, message: "the session's records were deleted behind checkrun's back"))
                }
                return
            }
            if !first.hasSameBytes(as: session.digest) {
                problems.append(VerificationProblem(session: session.id, sequence: 1, message: Self.sessionDetailsChanged
                    + ", perhaps to move it out of what this covers (it now reads release \(DisplayText.preview(session.release, limit: 40)), build \(DisplayText.preview(session.build, limit: 40)))"))
            }
        }
        if database.engine == .sqlite { problems += try deletedSessionProblems() }
        return problems
    }

    /// Said where a session's first record was chained to other details than its row holds.
    static let sessionDetailsChanged = "the session's details (release, build, device, tester or plan) were changed after recording"
}
