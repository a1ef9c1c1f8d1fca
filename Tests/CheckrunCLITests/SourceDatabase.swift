import CheckrunModel
import CheckrunStore
import Foundation

/// A checkrun database of many sessions, written through the store in one transaction: the
/// large source that merge, kill, concurrency and file-writing tests work on.
enum SourceDatabase {
    /// `sessions` sessions of release 1, build 1, one a second, each with a passed result per
    /// check of `checks`, with the notes `notes` gives for the session's number.
    @discardableResult
    static func make(at path: String, sessions: Int, checks: [String] = ["p/c"], notes: (Int) -> String? = { _ in nil }) throws -> ResultStore {
        let store = try ResultStore(path: path)
        try store.batch {
            for index in 0..<sessions {
                let session = Session(release: "1", build: "1", plan: checks, startedAt: Date(timeIntervalSince1970: Double(index)))
                try store.insert(session)
                for check in checks {
                    var result = CheckResult(sessionID: session.id, check: check, protocolHash: "h", attempt: 1, outcomeCount: 1)
                    result.verdict = .pass
                    result.notes = notes(index)
                    try store.save(result)
                }
            }
        }
        return store
    }
}
