import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A device on two OS versions is two places a check is tested (`TestedOn`): each has its
/// latest result, so a pass answered later on one never stands in for a failure on the other.
@Suite struct TestedOnTests {
    let base = Date(timeIntervalSince1970: 1_800_000_000)

    func save(_ store: ResultStore, _ session: Session, _ verdict: Verdict, at seconds: Double, failedOutcome: Bool = false) throws {
        var result = CheckResult(sessionID: session.id, check: "a/b", protocolHash: "h", attempt: 1, outcomeCount: 1, startedAt: base)
        result.verdict = verdict
        if failedOutcome { result.outcomes = [OutcomeAnswer(.fail, answeredAt: base.addingTimeInterval(seconds))] }
        result.updatedAt = base.addingTimeInterval(seconds)
        try store.save(result)
    }

    func session(_ build: String, os: String, at seconds: Double) -> Session {
        Session(release: "2.4", build: build, device: "iPhone 15", osVersion: os, plan: ["a/b"], startedAt: base.addingTimeInterval(seconds))
    }

    @Test(arguments: TestEngine.available) func aPassOnOneOSVersionLeavesTheFailureOnAnotherStanding(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        let failing = session("311", os: "18.2", at: 0), passing = session("311", os: "17.5", at: 10)
        for each in [failing, passing] { try store.insert(each) }
        try save(store, failing, .fail, at: 100, failedOutcome: true)
        try save(store, passing, .pass, at: 200)
        var latest: [ReportedResult] = []
        try store.forEachLatestResult(release: "2.4", build: nil, countFailures: { .none }) { latest.append($0) }
        #expect(latest.map(\.osVersion) == ["17.5", "18.2"])
        #expect(latest.map(\.result.verdict) == [.pass, .fail], "the later pass on 17.5 does not hide the failure on 18.2")
        #expect(latest.map(\.testedOn) == ["iPhone 15, OS 17.5", "iPhone 15, OS 18.2"])
        #expect(latest.map(\.attempts) == [1, 1], "results are counted per device and OS version")
    }

    /// A skip stands in front of its own OS version's failure. A failure on another OS version
    /// of the device is counted by that OS version's own row (here a skip in front of it), not
    /// by this skip as well: one failure, counted once.
    @Test(arguments: TestEngine.available) func aFailureBehindASkipIsLookedForOnItsOSVersionThenOnTheOthers(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        let failed = session("310", os: "18.2", at: 0), skipped = session("311", os: "18.2", at: 10)
        let passedElsewhere = session("311", os: "17.5", at: 20), skippedElsewhere = session("311", os: "17.5", at: 30)
        for each in [failed, skipped, passedElsewhere, skippedElsewhere] { try store.insert(each) }
        try save(store, failed, .fail, at: 100, failedOutcome: true)
        try save(store, skipped, .skipped, at: 200)
        try save(store, passedElsewhere, .pass, at: 300)
        try save(store, skippedElsewhere, .skipped, at: 400)
        var latest: [String: ReportedResult] = [:]
        try store.forEachLatestResult(release: "2.4", build: nil, countFailures: { .none }) { latest[$0.osVersion] = $0 }
        #expect(latest["18.2"]?.failedEarlier?.build == "310" && latest["18.2"]?.failedEarlier?.elsewhere == nil && latest["18.2"]?.standing == .fail)
        #expect(latest["17.5"]?.failedEarlier == nil && latest["17.5"]?.standing == .skipped,
                "17.5 passed before its skip; 18.2's failure is counted on 18.2's row")
    }

    @Test func aPlaceIsNamedWithItsOSVersionOnlyWhenThereIsOne() {
        #expect(TestedOn.name(device: "iPhone 15", osVersion: "") == "iPhone 15")
        #expect(TestedOn.name(device: "iPhone 15", osVersion: "18.2") == "iPhone 15, OS 18.2")
        #expect(TestedOn.name(device: "", osVersion: "18.2") == "unnamed device, OS 18.2")
        #expect(TestedOn.name(device: "", osVersion: "").isEmpty)
    }
}
