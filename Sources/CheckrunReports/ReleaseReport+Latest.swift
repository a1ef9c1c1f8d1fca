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

        init(_ store: ResultStore, release: String, build: String?, judge: CountFailureJudge) throws {
            var byCheck: [String: [ReportedResult]] = [:]
            var first: Date?, last: Date?
            problems = try store.forEachLatestResult(release: release, build: build, countFailures: judge.countFailures) { reported in
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

    /// The testers and devices a report names: its scope's (`ResultStore.participants`), and,
    /// in a report of one build, those of the earlier builds' failures it carries: the report
    /// says "fails on iPad Air (build 310)", and its header and OpenACR's evaluation methods
    /// must not name the build's own devices and testers alone.
    static func participants(_ store: ResultStore, release: String, build: String?, shown: [String: [ReportedResult]]) throws -> (testers: [String], devices: [String]) {
        let own = try store.participants(release: release, build: build)
        guard let build else { return own }
        let carried = shown.values.joined().filter { $0.build != build }
        func adding(_ names: [String], to list: [String]) -> [String] {
            Set(list + names).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        return (adding(carried.map(\.tester).filter { !$0.isEmpty }, to: own.testers), adding(carried.map(\.device), to: own.devices))
    }
}
