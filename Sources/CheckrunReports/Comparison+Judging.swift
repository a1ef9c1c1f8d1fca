import CheckrunModel
import CheckrunStore

/// Judging a comparison by the protocols, once they are read: which way each counter of a
/// check should move between builds, and which set-aside results hold a count over its ceiling.
extension Comparison {
    /// Judges every change again with each check's counter directions, once the protocols are
    /// read (a report builds its history while they load). A skipped or blocked latest result
    /// holding a count over its ceiling is a failure, as the report counts it: the ceiling is
    /// the protocol's, so it is judged here (by the current protocols where the version answered
    /// is not kept; `make` judged the rest by their own version).
    package mutating func judge(by library: ProtocolLibrary) {
        let directions = Self.directions(library)
        for index in checks.indices {
            if let check = library.check(named: checks[index].check)?.check {
                for build in checks[index].builds.indices where check.hasCountOverCeiling(checks[index].builds[build]?.setAsideCounts ?? [:]) {
                    checks[index].builds[build]?.verdict = .fail
                }
            }
            checks[index].changes = Self.changes(checks[index].builds, threshold, directions[checks[index].check] ?? [:])
        }
    }

    /// Which way a counter should move, from its check: more is better for an outcome that
    /// needs at least a number, fewer for one that allows at most a number or a counter with a
    /// ceiling; for any other counter (stops, say) growth is what gets flagged.
    package enum CounterDirection: Sendable {
        case moreIsBetter, fewerIsBetter
    }

    /// Each check's counter directions, by check name.
    package static func directions(_ library: ProtocolLibrary) -> [String: [String: CounterDirection]] {
        var all: [String: [String: CounterDirection]] = [:]
        for reference in library.allChecks { all[reference.name] = directions(for: reference.check) }
        return all
    }

    /// Each counter's direction for a check.
    package static func directions(for check: Check) -> [String: CounterDirection] {
        var directions: [String: CounterDirection] = [:]
        for counter in check.counters { directions[counter.id] = .fewerIsBetter }
        for outcome in check.expected {
            guard let target = outcome.target else { continue }
            directions[target.counter] = target.atLeast != nil ? .moreIsBetter : .fewerIsBetter
        }
        return directions
    }

    /// A skip or block is no evidence of a fix, in a comparison as in a report: where a build's
    /// verdict on a device is skipped or blocked and a failure stands behind it (an OS version
    /// of the device whose latest result that passed or failed, in that build or one before
    /// it, failed), the build's verdict is fail. Before, pass, then fail and a skip, read
    /// "changed" and passed `--fail-on-regression` while the report counted the failure.
    /// One query per build holding such a verdict; builds without skips or blocks pay nothing.
    static func markFailuresBehindSetAside(_ checks: inout [CheckComparison], _ store: ResultStore,
                                           _ scopes: [ResultStore.BuildScope], _ threshold: Double) throws {
        var standing: [Int: Set<TestedOn.Place>] = [:]
        for index in checks.indices {
            var marked = false
            for build in checks[index].builds.indices {
                guard let verdict = checks[index].builds[build]?.verdict, verdict == .skipped || verdict == .blocked else { continue }
                if standing[build] == nil {
                    standing[build] = try store.devicesWithStandingFailures(release: scopes[build].release, through: scopes[build].build)
                }
                guard standing[build]?.contains(TestedOn.Place(check: checks[index].check, device: checks[index].device, osVersion: "")) == true else { continue }
                checks[index].builds[build]?.verdict = .fail
                marked = true
            }
            if marked { checks[index].changes = changes(checks[index].builds, threshold) }
        }
    }
}
