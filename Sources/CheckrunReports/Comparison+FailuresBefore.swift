import CheckrunModel
import CheckrunStore

extension Comparison {
    /// A pass after a failure is "fixed" only where no failure stands on an OS version the pass
    /// did not test, in any build of its release before it, compared or not: `compare --builds
    /// 311,312` does not read 310, yet `report --build 312` carries 310's failure on iOS 17.5
    /// into it. Asked of the store once per build where a change reads "fixed", so a
    /// comparison without fixes pays nothing for it.
    static func markFailuresStandingBefore(_ checks: inout [CheckComparison], _ scopes: [ResultStore.BuildScope], _ store: ResultStore,
                                           _ judge: CountFailureJudge, _ threshold: Double) throws {
        var standingBefore: [Int: [DevicePlace: Set<String>]] = [:]
        func osVersions(standingBefore scope: Int, _ place: DevicePlace) throws -> Set<String> {
            if let known = standingBefore[scope] { return known[place] ?? [] }
            var found: [DevicePlace: Set<String>] = [:]
            let places = try store.placesWithStandingFailures(release: scopes[scope].release, before: scopes[scope].build, countFailures: try judge.countFailures())
            for standing in places { found[DevicePlace(check: standing.check, device: standing.device), default: []].insert(standing.osVersion) }
            standingBefore[scope] = found
            return found[place] ?? []
        }
        for index in checks.indices {
            let fixes = checks[index].changes.filter { $0.verdictChange == .fixed }.map(\.to)
            guard !fixes.isEmpty else { continue }
            let place = DevicePlace(check: checks[index].check, device: checks[index].device)
            for scope in fixes { checks[index].builds[scope]?.osVersions.failedInBuildsBefore = try osVersions(standingBefore: scope, place) }
            checks[index].changes = changes(checks[index].builds, threshold)
        }
    }

    /// A check on a device, whatever its OS version.
    private struct DevicePlace: Hashable {
        var check: String
        var device: String
    }
}
