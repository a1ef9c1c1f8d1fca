import CheckrunModel
import CheckrunStore
import Foundation

extension ReleaseReport {
    /// The results a report shows: for each check, its latest on each device and OS version
    /// (`ResultStore.forEachLatestResult`), with when the first of them was begun and the last
    /// answered, and what differs between them and their records.
    struct Latest {
        var byCheck: [String: [ReportedResult]] = [:]
        var first: Date?
        var last: Date?
        var problems: [VerificationProblem] = []

        init(_ store: ResultStore, release: String, build: String?, countFailures: CountFailures) throws {
            var byCheck: [String: [ReportedResult]] = [:]
            var first: Date?, last: Date?
            problems = try store.forEachLatestResult(release: release, build: build, countFailures: countFailures) { reported in
                byCheck[reported.result.check, default: []].append(reported)
                first = min(first ?? reported.result.startedAt, reported.result.startedAt)
                last = max(last ?? reported.result.updatedAt, reported.result.updatedAt)
            }
            guard !byCheck.isEmpty else {
                throw ScopeError(description: "release \(release)\(build.map { ", build \($0)," } ?? "") has no finished results yet; walk some checks with `checkrun run --release \(release) --build B`")
            }
            (self.byCheck, self.first, self.last) = (byCheck, first, last)
        }
    }
}
