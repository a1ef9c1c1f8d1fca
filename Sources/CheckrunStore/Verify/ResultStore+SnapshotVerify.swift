import CheckrunModel
import Foundation

extension ResultStore {
    /// What `verify` finds in a store read through one read transaction the caller holds open:
    /// a merge verifies its source in the snapshot it merges from, so what it checked is what
    /// it carries. Every session of `release` (or of the store), its chain and its tables; the
    /// ids' spellings; and, beside them, sessions deleted from under their records or moved
    /// out of `release` by an edit of their details. Either of those, left out, merged clean:
    /// the failure it hid was missing from the team's report, which then verified. Serial, on
    /// this connection, since another connection would read another moment of the file.
    package func verifyInOpenSnapshot(release: String?) throws -> [String] {
        // The sessions `export` verifies too, read on this connection: in the merge's snapshot.
        let ids = try sessionIDs(release: release)
        var report = VerificationReport()
        for start in stride(from: 0, to: ids.count, by: 64) {
            try verifyGroup(Array(ids[start..<min(start + 64, ids.count)]), into: &report)
        }
        report.problems += try deletedSessionProblems()
        report.problems += try outsideSessionProblems(cited: Set(ids), inOpenSnapshot: true)
        report.problems.sort(by: VerificationProblem.listed)
        return try idFormProblems(release: release) + report.problems.map(\.description)
    }
}
