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

/// `CountFailures.judged`, asked for only when a skip or block is there to stand in front of a
/// failure (most releases have none, and the question reads every result of a release), and
/// then once.
package final class CountFailureJudge {
    private let store: ResultStore
    private let releases: Set<String>
    private let protocols: () throws -> ProtocolLibrary
    private var judged: CountFailures?

    package init(store: ResultStore, releases: Set<String>, protocols: @escaping () throws -> ProtocolLibrary) {
        self.store = store
        self.releases = releases
        self.protocols = protocols
    }

    package func countFailures() throws -> CountFailures {
        if let judged { return judged }
        let found = try CountFailures.judged(in: store, releases: releases, protocols: protocols)
        judged = found
        return found
    }
}

/// A protocol library loaded when first asked for, then kept.
final class LibraryOnce {
    private let load: () throws -> ProtocolLibrary
    private var loaded: ProtocolLibrary?

    init(_ load: @escaping () throws -> ProtocolLibrary) { self.load = load }

    func value() throws -> ProtocolLibrary {
        if let loaded { return loaded }
        let library = try load()
        loaded = library
        return library
    }
}
