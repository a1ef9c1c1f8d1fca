import CheckrunModel
import CheckrunStore

extension Comparison {
    /// A pass after a failure or a block is "fixed" or "unblocked" only where no failure stands
    /// on an OS version the pass did not test, in the builds of its release before it, as
    /// `report --build` carries them: `compare --builds 311,312` does not read 310, yet a
    /// report of 312 carries 310's failure on iOS 17.5 into it; and `--builds 310,312` must
    /// not hold 310's failure on 17.5 against 312 when 311 fixed it. `changes` reads only the
    /// builds compared, which is the whole story when they are every build of one release
    /// before this one, in order (the default, and a report's history): then the store is not
    /// asked. Otherwise it is asked, once per such build, where a pass follows a failure or a
    /// block, and its answer replaces what the compared builds alone would say. A step from a
    /// build of another release needs a pass on every OS version failing in that release up to
    /// that build, as its report counts it: `--from 2.3:400 --to 2.4:310` would otherwise call
    /// 2.3's failure on 17.5 fixed by a pass on 18.2 alone, or by a block on 17.5.
    static func markFailuresStandingBefore(_ checks: inout [CheckComparison], _ scopes: [ResultStore.BuildScope], _ store: ResultStore,
                                           _ judge: CountFailureJudge, _ threshold: Double) throws {
        let passesAfterFailures = checks.indices.map { index in
            checks[index].changes.map(\.to).filter { to in
                guard to > 0, let before = checks[index].builds[to - 1], let after = checks[index].builds[to] else { return false }
                return isImprovement(before.verdict, after.verdict)
            }
        }
        guard passesAfterFailures.contains(where: { !$0.isEmpty }) else { return }
        let uncompared = try scopesNotAfterEveryBuildBefore(scopes, store)
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
            let asked = passesAfterFailures[index].filter(uncompared.contains)
            guard !asked.isEmpty else { continue }
            let place = DevicePlace(check: checks[index].check, device: checks[index].device)
            for scope in asked {
                checks[index].builds[scope]?.osVersions.failedInBuildsBefore = try osVersions(standingBefore: scope, place)
                // A step across releases would call the earlier release's failure fixed: each OS
                // version failing there, as its report of that build counts it, must pass here.
                // (A block here does not stand in front of it, as it would in one release.)
                if scopes[scope - 1].release != scopes[scope].release, let before = checks[index].builds[scope - 1]?.osVersions {
                    let standing = try osVersions(standingBefore: scope - 1, place).subtracting(before.cleared).union(before.failed)
                    checks[index].builds[scope]?.osVersions.failedInEarlierRelease = standing
                }
            }
            checks[index].changes = changes(checks[index].builds, threshold)
        }
    }

    /// The compared builds not preceded, in the comparison, by exactly the builds of their
    /// release before them, in build order: a build skipped, builds given out of order, or
    /// builds of another release before them.
    private static func scopesNotAfterEveryBuildBefore(_ scopes: [ResultStore.BuildScope], _ store: ResultStore) throws -> Set<Int> {
        var buildsOf: [String: [String]] = [:]
        var found: Set<Int> = []
        for (index, scope) in scopes.enumerated() where index > 0 {
            if buildsOf[scope.release] == nil { buildsOf[scope.release] = try store.builds(release: scope.release) }
            let before = (buildsOf[scope.release] ?? []).prefix { $0 != scope.build }
            let compared = scopes[..<index].map { $0.release == scope.release ? $0.build : nil }
            if !compared.elementsEqual(before.map(Optional.some)) { found.insert(index) }
        }
        return found
    }

    /// A check on a device, whatever its OS version.
    private struct DevicePlace: Hashable {
        var check: String
        var device: String
    }
}
