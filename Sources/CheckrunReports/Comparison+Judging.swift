import CheckrunModel

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
                    let tested = checks[index].builds[build]?.osVersions.tested ?? []
                    checks[index].builds[build]?.verdict = .fail
                    checks[index].builds[build]?.osVersions.failed = tested
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
}

extension Comparison {
    /// A failure on one OS version fixed while another that passed now fails: the device's
    /// verdict reads fail both times, and the regression would have passed the gate.
    static func noteRegressionOnAnOSVersion(_ before: BuildFigures, _ after: BuildFigures, _ change: inout BuildChange) {
        let regressed = after.osVersions.failing(after: before.osVersions)
        guard change.verdictChange != .regressed, !regressed.isEmpty else { return }
        change.verdictChange = .regressed
        change.flags.append("verdict pass → fail on " + regressed.map { $0.isEmpty ? "no OS version given" : "OS \($0)" }.joined(separator: ", "))
    }

    /// How the verdict moved from `before` to `after`, flagged where it turned to fail.
    /// `standing`: the OS versions whose failure stands up to `before`, in it or earlier.
    static func judgeVerdicts(_ before: BuildFigures, _ after: BuildFigures, standing: Set<String>, _ change: inout BuildChange) {
        change.verdictChange = verdictChange(before.verdict, after.verdict)
        // A pass made only of outcomes not applicable, or on other OS versions than a failure
        // that stands, shows no fix: "changed", as `report` still counts a failure not tested
        // again. What stands is the store's answer where it was asked (builds not compared).
        let standing = after.osVersions.failedInBuildsBefore ?? standing
        let shown = standing.isSubset(of: after.osVersions.tested) && after.osVersions.failedInEarlierRelease.isSubset(of: after.osVersions.cleared)
        if isImprovement(before.verdict, after.verdict) && (after.notApplicable || !shown) {
            change.verdictChange = .changed
        }
        if change.verdictChange == .same && before.notApplicable != after.notApplicable { change.verdictChange = .changed }
        if change.verdictChange == .regressed { change.flags.append("verdict \(before.verdict.rawValue) → \(after.verdict.rawValue)") }
        noteRegressionOnAnOSVersion(before, after, &change)
    }
}
