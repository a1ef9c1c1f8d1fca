import CheckrunModel
import CheckrunStore
import Foundation

/// Timings, counts and verdicts of each check across builds, with regressions flagged.
package struct Comparison: Sendable {
    package let scopes: [ResultStore.BuildScope]
    /// "311", or "2.4:311" when the builds span releases; made once with the scopes, since
    /// renderers read a label for every figure they write.
    package let labels: [String]
    /// Percent by which a median time may grow before it is flagged.
    package var threshold: Double
    package var checks: [CheckComparison]
    /// Problems `verify` found in the sessions compared, when written anyway (`--unverified`).
    package var unverifiedProblems: [String]?
    /// What differs between the few results whose outcomes it read and their records.
    package var shownResultProblems: [VerificationProblem] = []

    /// The line every format puts at its top when the comparison was written despite problems.
    package var unverifiedBanner: String? {
        unverifiedProblems.map { "UNVERIFIED: \($0.count) problem\($0.count == 1 ? "" : "s") in the records compared; run checkrun verify" }
    }

    package init(scopes: [ResultStore.BuildScope], threshold: Double, checks: [CheckComparison]) {
        self.scopes = scopes
        let releases = Set(scopes.map(\.release))
        labels = scopes.map { releases.count > 1 ? "\($0.release):\($0.build)" : $0.build }
        self.threshold = threshold
        self.checks = checks
    }

    /// The comparison of the last two builds only.
    package func lastStep() -> Comparison {
        let last = scopes.count - 1
        let checks = self.checks.compactMap { check -> CheckComparison? in
            let changes = check.changes.filter { $0.to == last }.map { change -> BuildChange in
                var moved = change
                moved.from = 0
                moved.to = 1
                return moved
            }
            guard !changes.isEmpty else { return nil }
            return CheckComparison(check: check.check, device: check.device, builds: Array(check.builds.suffix(2)), changes: changes, removed: check.removed)
        }
        return Comparison(scopes: Array(scopes.suffix(2)), threshold: threshold, checks: checks)
    }

    /// Marks the checks no longer in the protocol folder, once the folder has been read.
    package mutating func markRemoved(keeping known: Set<String>) {
        for index in checks.indices { checks[index].removed = !known.contains(checks[index].check) }
    }

    package var regressions: [(check: String, change: BuildChange)] {
        checks.flatMap { check in check.changes.filter { !$0.flags.isEmpty }.map { (check.check, $0) } }
    }
}

/// One build's figures for one check: medians across attempts and testers.
package struct BuildFigures: Sendable, Equatable {
    package var results: Int
    package var medianSeconds: Double?
    package var medianCounters: [String: Double]
    /// The build's verdict: the worst of each device's latest result (a failure on one device fails).
    package var verdict: Verdict
    package var protocolHash: String
    /// Which text of the check the latest result was answered against, as the database keeps
    /// the versions: equal numbers are the same text (nil where the version is not kept). Two
    /// builds are compared by it, so a change to another check of the same protocol does not
    /// stop their times and counts being compared. A number, not the text: a report's history
    /// holds a figure per check, device and build.
    package var checkText: Int? = nil
    /// The latest result passed with every answered outcome not applicable: no evidence of a
    /// fix, so a failure before it is "changed", never "fixed". Asked only where it would be.
    package var notApplicable = false
    /// The latest result's row in the store.
    package var resultRow: Int64 = 0
    /// The latest result's counts, when it was skipped or blocked: a count over its ceiling
    /// makes it a failure (see `judge`).
    package var setAsideCounts: [String: Int] = [:]
    /// The OS versions the device was tested on in the build, and those it failed on: a pass
    /// is "fixed" only where the build before failed on none it did not test again.
    package var osVersions = OSVersions()

    package struct OSVersions: Sendable, Equatable {
        package var tested: Set<String> = []
        package var failed: Set<String> = []
        /// Those whose latest result passed: a failure on one of them in a later build is a
        /// regression, whatever another OS version fixed meanwhile.
        package var passed: Set<String> = []
        /// Those whose latest result failed, or stands in front of a failure on that OS version:
        /// not those failed only by a count judged over its ceiling (see `Comparison+Judging`).
        package var answeredFail: Set<String> = []
        /// Those whose latest result passed, then was skipped or blocked: the pass clears a
        /// failure that stood there, as a report of the build counts it; no regression is read
        /// into them.
        package var passedThenSetAside: Set<String> = []
        /// Those whose failure stands in the builds of the release before this one, compared or
        /// not, as the store says (nil where not asked: see `markFailuresStandingBefore`).
        package var failedInBuildsBefore: Set<String>?
        /// Across releases, those failing in the earlier release up to the build compared before
        /// this one: each must pass here for a fix (see `markFailuresStandingBefore`).
        package var failedInEarlierRelease: Set<String> = []
        /// Where the device was tested on more than one OS version, the row of each one's latest
        /// result that passed (kept, or set aside afterwards): a pass made only of outcomes not
        /// applicable shows no fix there (see `markNotApplicable`).
        package var passedRows: [String: Int64] = [:]

        /// Those whose latest result passed, kept or set aside afterwards.
        var cleared: Set<String> { passed.union(passedThenSetAside) }

        /// The OS versions that passed in `before` and fail here.
        func failing(after before: OSVersions) -> [String] {
            answeredFail.intersection(before.passed).sorted()
        }
    }
}

/// How a verdict moved from one build to the next.
package enum VerdictChange: String, Sendable {
    case fixed, unblocked, regressed, new
    case noLongerRun = "no longer run"
    case changed, same
}

/// What changed for one check between two builds.
package struct BuildChange: Sendable {
    package var from: Int
    package var to: Int
    package var secondsDelta: Double?
    package var percentDelta: Double?
    package var counterDeltas: [String: Double]
    package var verdictChange: VerdictChange
    package var protocolChanged: Bool
    /// Why this change is a regression, in words; empty when it is not one.
    package var flags: [String]
}

extension Comparison {
    /// Builds the comparison from the store's streamed rows; `known` are the checks that exist
    /// now (nil when not known yet: see `markRemoved`), `judge` finds the skips holding a count
    /// over its ceiling in the scopes' releases.
    package static func make(store: ResultStore, scopes: [ResultStore.BuildScope], threshold: Double, known: Set<String>?, judge: CountFailureJudge) throws -> Comparison {
        var (checks, currentCheck, devices): ([CheckComparison], String?, [String: DeviceFigures]) = ([], nil, [:])
        let standing = StandingFailures(store: store, scopes: scopes, judge: judge)

        func flush() throws {
            guard let name = currentCheck else { return }
            // The check's distinct texts among the versions its results were answered against.
            var texts: [Check] = []
            var textOf: [String: Int?] = [:]
            var last: (hash: String, number: Int?)?
            func keptText(_ hash: String) throws -> Int? {
                // Nearly every build of a check has the version the one before had.
                if let last, last.hash == hash { return last.number }
                if let known = textOf[hash] {
                    last = (hash, known)
                    return known
                }
                let number = try store.keptCheck(named: name, version: hash).map { kept in
                    texts.firstIndex { measuresAlike($0, kept.check) } ?? { texts.append(kept.check); return texts.count - 1 }()
                }
                textOf[hash] = .some(number)
                last = (hash, number)
                return number
            }
            for device in devices.keys { try devices[device]?.countFailuresBehindSetAside(check: name, device: device, standing) }
            for (device, gathered) in devices.sorted(by: { $0.key < $1.key }) {
                let figures: [BuildFigures?] = try scopes.indices.map { index in
                    guard let newest = gathered.standing(in: index) else { return nil }
                    var verdict = newest.verdict, setAside = newest.setAsideCounts
                    // A count set aside is judged by the version it was answered against, as the
                    // report judges it; with that version not kept, by the current one (`judge`).
                    if !setAside.isEmpty, let kept = try store.keptCheck(named: name, version: newest.hash) {
                        if kept.check.hasCountOverCeiling(setAside) { verdict = .fail }
                        setAside = [:]
                    }
                    return BuildFigures(
                        results: gathered.counts[index], medianSeconds: Statistics.median(gathered.times[index]),
                        medianCounters: gathered.counters[index].compactMapValues(Statistics.median),
                        verdict: verdict, protocolHash: newest.hash, checkText: try keptText(newest.hash), resultRow: newest.row,
                        setAsideCounts: setAside, osVersions: gathered.osVersions(in: index, verdict: verdict))
                }
                checks.append(CheckComparison(check: name, device: device, builds: figures, changes: changes(figures, threshold),
                                              removed: known.map { !$0.contains(name) } ?? false))
            }
        }
        try store.forEachTimingRow(scopes: scopes) { row in
            if row.check != currentCheck {
                try flush()
                currentCheck = row.check
                devices = [:]
            }
            devices[row.device, default: DeviceFigures(scopes: scopes.count)].add(row)
        }
        try flush()
        try markFailuresStandingBefore(&checks, scopes, store, judge, threshold)
        let problems = try markNotApplicable(&checks, store, threshold)
        var comparison = Comparison(scopes: scopes, threshold: threshold, checks: checks)
        comparison.shownResultProblems = problems
        return comparison
    }

    /// Changes between each build and the previous one.
    static func changes(_ figures: [BuildFigures?], _ threshold: Double, _ directions: [String: CounterDirection] = [:]) -> [BuildChange] {
        var result: [BuildChange] = []
        // The OS versions whose latest result that passed or failed, up to the build before,
        // failed: a failure not tested again stands, as `report` carries it.
        var standing = figures.first.flatMap { $0?.osVersions.failed } ?? []
        for index in figures.indices.dropFirst() {
            let before = figures[index - 1], after = figures[index]
            defer {
                if let after { standing = standing.subtracting(after.osVersions.cleared).union(after.osVersions.failed) }
            }
            if before == nil && after == nil { continue }
            var change = BuildChange(from: index - 1, to: index, secondsDelta: nil, percentDelta: nil, counterDeltas: [:],
                                     verdictChange: .same, protocolChanged: false, flags: [])
            guard let before else {
                change.verdictChange = .new
                if after?.verdict == .fail { change.flags.append("new check fails") }
                result.append(change)
                continue
            }
            guard let after else {
                change.verdictChange = .noLongerRun
                result.append(change)
                continue
            }
            judgeVerdicts(before, after, standing: standing, &change)
            // By the check's own text where both versions are kept, else by the protocol's hash.
            if let old = before.checkText, let new = after.checkText {
                change.protocolChanged = old != new
            } else {
                change.protocolChanged = before.protocolHash != after.protocolHash
            }
            if let old = before.medianSeconds, let new = after.medianSeconds {
                change.secondsDelta = new - old
                change.percentDelta = old > 0 ? (new - old) / old * 100 : nil
            }
            for (name, value) in after.medianCounters {
                if let old = before.medianCounters[name] { change.counterDeltas[name] = value - old }
            }
            // A check that got better (fixed, unblocked) is never flagged for its time or counts:
            // no line may say both "regression" and "fixed". Nor is one whose pass reads
            // "changed" only for a failure standing elsewhere: its time is no more comparable.
            if !change.protocolChanged && !isImprovement(before.verdict, after.verdict) {
                if let percent = change.percentDelta, percent > threshold {
                    change.flags.append("time +" + Decimals.fixed(percent, places: 0) + "%")
                }
                for (name, delta) in change.counterDeltas.sorted(by: { $0.key < $1.key }) where delta != 0 {
                    let worse = directions[name] == .moreIsBetter ? delta < 0 : delta > 0
                    if worse { change.flags.append("\(name) \(delta > 0 ? "+" : "")\(Self.format(delta))") }
                }
            }
            result.append(change)
        }
        return result
    }

    /// Whether two texts of a check measure the same thing: the same way of using the phone,
    /// task, outcomes, counters and time limit. Its WCAG mapping, notes for the tester and review
    /// mark say nothing of what a time or count means, so a change to them sets nothing aside.
    static func measuresAlike(_ a: Check, _ b: Check) -> Bool {
        a.profile == b.profile && a.technology == b.technology && a.task == b.task && a.expected == b.expected
            && a.counters == b.counters && a.timeLimit == b.timeLimit
    }

    /// A pass after a failure or a block, whatever words the step ends with ("fixed",
    /// "unblocked", or "changed" for a failure standing elsewhere).
    static func isImprovement(_ before: Verdict, _ after: Verdict) -> Bool {
        [.fixed, .unblocked].contains(verdictChange(before, after))
    }

    static func verdictChange(_ before: Verdict, _ after: Verdict) -> VerdictChange {
        if before == after { return .same }
        if after == .fail { return .regressed }
        if before == .fail && after == .pass { return .fixed }
        if before == .blocked && after == .pass { return .unblocked }
        return .changed
    }

    static func format(_ value: Double) -> String {
        value.isFinite && value.magnitude < 1e15 && value.rounded() == value ? String(Int(value)) : Decimals.fixed(value, places: 1)
    }
}
