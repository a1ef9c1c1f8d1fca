import CheckrunModel
import CheckrunStore

extension Comparison {
    /// A pass after a failure is "fixed" only where no failure stands on an OS version the pass
    /// did not test, in any build of its release before it, compared or not: `compare --builds
    /// 311,312` does not read 310, yet `report --build 312` carries 310's failure on iOS 17.5
    /// into it. `changes` reads the builds compared; the store is asked, once per build, only
    /// where a change reads "fixed" and a build of its release before it is not compared, so a
    /// comparison of every build (the default, and a report's history) pays nothing for it.
    static func markFailuresStandingBefore(_ checks: inout [CheckComparison], _ scopes: [ResultStore.BuildScope], _ store: ResultStore,
                                           _ judge: CountFailureJudge, _ threshold: Double) throws {
        guard checks.contains(where: { $0.changes.contains { $0.verdictChange == .fixed } }) else { return }
        let uncompared = try scopesAfterBuildsNotCompared(scopes, store)
        guard !uncompared.isEmpty else { return }
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
            let fixes = checks[index].changes.filter { $0.verdictChange == .fixed && uncompared.contains($0.to) }.map(\.to)
            guard !fixes.isEmpty else { continue }
            let place = DevicePlace(check: checks[index].check, device: checks[index].device)
            for scope in fixes { checks[index].builds[scope]?.osVersions.failedInBuildsBefore = try osVersions(standingBefore: scope, place) }
            checks[index].changes = changes(checks[index].builds, threshold)
        }
    }

    /// The compared builds that follow, in their release, a build the comparison does not read.
    private static func scopesAfterBuildsNotCompared(_ scopes: [ResultStore.BuildScope], _ store: ResultStore) throws -> Set<Int> {
        var buildsOf: [String: [String]] = [:]
        var found: Set<Int> = []
        for (index, scope) in scopes.enumerated() where index > 0 {
            if buildsOf[scope.release] == nil { buildsOf[scope.release] = try store.builds(release: scope.release) }
            let ordered = buildsOf[scope.release] ?? []
            let before = ordered.prefix { $0 != scope.build }
            let compared = Set(scopes[..<index].filter { $0.release == scope.release }.map(\.build))
            if before.contains(where: { !compared.contains($0) }) { found.insert(index) }
        }
        return found
    }

    /// A check on a device, whatever its OS version.
    private struct DevicePlace: Hashable {
        var check: String
        var device: String
    }
}
