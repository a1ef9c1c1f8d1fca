import CheckrunModel
import CheckrunStore
import Foundation

extension CountFailures {
    /// The skipped and blocked results of `releases` holding a count over its ceiling, each
    /// judged by the version of its protocol it was answered against, as the database keeps it,
    /// else by the current one: as a report judges the result it shows
    /// (`ReleaseReport.markFailuresSetAside`) and a comparison the one it compares. `protocols`
    /// is asked only when a version is not kept; a check in neither holds no ceiling to judge.
    package static func judged(in store: ResultStore, releases: Set<String>, protocols: () throws -> ProtocolLibrary) throws -> CountFailures {
        var failing = Set<UUID>()
        var checks: [String: Check?] = [:]  // by version and check name
        for release in releases.sorted() {
            for held in try store.setAsideCounts(release: release, latestInSessionOnly: false) {
                let key = held.protocolHash + "\u{0}" + held.check
                if checks[key] == nil {
                    let kept = try store.keptCheck(named: held.check, version: held.protocolHash)?.check
                    checks[key] = .some(try kept ?? protocols().check(named: held.check)?.check)
                }
                if checks[key]??.hasCountOverCeiling(held.counts) == true { failing.insert(held.result) }
            }
        }
        return CountFailures(failing)
    }
}
