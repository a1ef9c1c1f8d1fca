import CheckrunModel
import Foundation

/// A failure stands until the same check is tested again on the same device and OS version:
/// a skip or block is no evidence of a fix, and neither is a build that did not test there.
extension ResultStore {
    /// A latest-result row (`latestResultStatement`) as reports see it.
    static func readReported(_ row: Row) -> ReportedResult? {
        guard let result = readResult(row) else { return nil }
        return ReportedResult(
            result: result, release: row.string(12) ?? "", build: row.string(13) ?? "", device: row.string(14) ?? "",
            osVersion: row.string(19) ?? "", tester: row.string(15) ?? "", attempts: row.int(16) ?? 1, amendments: row.int(17) ?? 0,
            amendReason: row.string(18))
    }

    /// For a report of one build: each place (check, device and OS version) the build did not
    /// test whose latest result in the builds before it (`earlier`, a JSON list) stands for a
    /// failure, added to the build's own latest results with the build it failed in. A gate on
    /// the newest build must fail as the whole release's report does: a pass on iOS 18.2 in
    /// build 311 says nothing of the failure on 17.5 in 310. Passes of earlier builds are not
    /// added: they are no evidence for this build.
    func carryEarlierFailures(into latest: inout [ReportedResult], release: String, through earlier: SQLValue, countFailures: () throws -> CountFailures,
                              buildOrder: [String]) throws {
        let tested = Set(latest.map(\.place))
        var untested: [ReportedResult] = []
        let values: [SQLValue] = [.text(release), .null, earlier]
        try database.forEach(latestResultStatement(among: .finished), values) { row in
            if let reported = Self.readReported(row), !tested.contains(reported.place) { untested.append(reported) }
        }
        // A skip holding its own failure (a count over its ceiling) is carried as a failure too.
        if untested.contains(where: { $0.result.verdict?.isSetAside == true }) {
            try noteEarlierFailures(of: &untested, values + [try countFailures().list], buildOrder: buildOrder, shownBeside: tested)
        }
        let carried = untested.filter { $0.standing == .fail }
        guard !carried.isEmpty else { return }
        latest += carried
        // In the statement's order (check, device, OS version, byte for byte), as reports list them.
        latest.sort { [$0.result.check, $0.device, $0.osVersion].lexicographicallyPrecedes([$1.result.check, $1.device, $1.osVersion]) { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) } }
    }

    /// Each check, device and OS version whose latest result that passed or failed, in
    /// `release` up to and including `build`, failed: a skip or block there stands in front of
    /// the failure. (A failure on another OS version is counted by that OS version's own row.)
    package func placesWithStandingFailures(release: String, through build: String, countFailures: CountFailures) throws -> Set<TestedOn.Place> {
        try placesWithStandingFailures(release: release, among: try buildList(release: release, through: build), countFailures: countFailures)
    }

    /// The same places in the builds of `release` before `build`: the failures a report of
    /// `build` alone carries into it where that build did not test again. None when `build` is
    /// the release's first (or not in it).
    package func placesWithStandingFailures(release: String, before build: String, countFailures: CountFailures) throws -> Set<TestedOn.Place> {
        let ordered = try builds(release: release)
        guard let position = ordered.firstIndex(of: build), position > 0 else { return [] }
        return try placesWithStandingFailures(release: release, among: .textList(ordered[..<position]), countFailures: countFailures)
    }

    private func placesWithStandingFailures(release: String, among builds: SQLValue, countFailures: CountFailures) throws -> Set<TestedOn.Place> {
        var places: Set<TestedOn.Place> = []
        let values: [SQLValue] = [.text(release), .null, builds, countFailures.list]
        try database.forEach(latestResultStatement(among: .passedOrFailed), values) { row in
            guard let result = Self.readResult(row), result.verdict != .pass else { return }
            places.insert(TestedOn.Place(check: result.check, device: row.string(14) ?? "", osVersion: row.string(19) ?? ""))
        }
        return places
    }

    /// For each check and device whose latest result is skipped or blocked, the latest result
    /// that passed or failed, by the same choice as the report's: when it failed, it stands.
    /// A skipped or blocked result holding a failure (an outcome answered fail, or a count over
    /// its ceiling: `CountFailures`) counts as failed here, the shown one too: the tester saw
    /// the failure, and setting the check aside does not fix it.
    /// The failure is looked for on the same OS version first, then on every other OS version
    /// of the device (the newest whose latest passed-or-failed result failed): a skip given
    /// without `--os`, or on another OS version, is no evidence of a fix either, and a gate on
    /// its build alone must still see the failure, whichever OS version was answered last.
    /// A failure on another OS version that the report shows a row for (`shownBeside` adds the
    /// rows of a report's own build to those carried into it) is not counted again by a skip.
    /// Run only when such a result is shown, so a release without skips pays nothing for it.
    func noteEarlierFailures(of latest: inout [ReportedResult], _ values: [SQLValue], buildOrder: [String], shownBeside: Set<TestedOn.Place> = []) throws {
        let rank = BuildOrder.ranks(buildOrder)
        var samePlace: [TestedOn.Place: PassedOrFailed] = [:]
        var newestFailureOnDevice: [TestedOn.Place: PassedOrFailed] = [:]
        try database.forEach(latestResultStatement(among: .passedOrFailed), values) { row in
            guard let result = Self.readResult(row) else { return }
            let found = (build: row.string(13) ?? "", osVersion: row.string(19) ?? "", result: result)
            samePlace[TestedOn.Place(check: result.check, device: row.string(14) ?? "", osVersion: found.osVersion)] = found
            // Only a result holding a failure is chosen beside passes and failures.
            guard result.verdict != .pass else { return }
            let device = TestedOn.Place(check: result.check, device: row.string(14) ?? "", osVersion: "")
            if let other = newestFailureOnDevice[device], Self.isNewer(other, than: found, rank: rank) { return }
            newestFailureOnDevice[device] = found
        }
        let shownPlaces = Set(latest.map(\.place)).union(shownBeside)
        for position in latest.indices where latest[position].result.verdict?.isSetAside == true {
            let shown = latest[position]
            let device = TestedOn.Place(check: shown.result.check, device: shown.device, osVersion: "")
            let onThisOS = samePlace[shown.place].flatMap { $0.result.verdict == .pass ? nil : $0 }
            guard let failure = onThisOS ?? newestFailureOnDevice[device] else { continue }
            // A failure on another OS version that this report shows a row for: that row counts
            // it (the failure itself, or a skip in front of it there), not this one too; nor is
            // a failure answered after this skip, in a later build, read into it.
            if onThisOS == nil, shownPlaces.contains(TestedOn.Place(check: shown.result.check, device: shown.device, osVersion: failure.osVersion)) { continue }
            let elsewhere = TestedOn.name(device: shown.device, osVersion: failure.osVersion)
            latest[position].failedEarlier = ReportedResult.EarlierFailure(
                build: failure.build, attempt: failure.result.attempt, notes: failure.result.notes, isThisResult: failure.result.id == shown.result.id,
                elsewhere: failure.osVersion == shown.osVersion ? nil : elsewhere.isEmpty ? "an unnamed device" : elsewhere,
                protocolHash: failure.result.protocolHash)
        }
    }

    /// A place's latest result that passed or failed, with where it was answered.
    private typealias PassedOrFailed = (build: String, osVersion: String, result: CheckResult)

    /// Whether `one` was answered after `other`: in a newer build, or later in the same one.
    private static func isNewer(_ one: PassedOrFailed, than other: PassedOrFailed, rank: [String: Int]) -> Bool {
        let (a, b) = (rank[one.build] ?? -1, rank[other.build] ?? -1)
        if a != b { return a > b }
        return (one.result.updatedAt, one.result.attempt) > (other.result.updatedAt, other.result.attempt)
    }
}
