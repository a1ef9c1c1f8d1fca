import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation

/// A database of results built through the store, over the repository's protocols.
struct ReportFixture {
    let folder: TemporaryFolder
    let store: ResultStore
    let library: ProtocolLibrary
    private var clock = 1_800_000_000.0

    static let hostileNote = "<script>alert('x')</script> ]]> \"quoted\" \u{0}nul \u{1B}[31m =CMD() & more"

    init() throws {
        folder = try TemporaryFolder()
        store = try ResultStore(path: folder.path("db.sqlite"))
        library = try ProtocolLibrary.load(directory: Repository.path("protocols"))
    }

    /// Records one finished result in its own session.
    @discardableResult
    mutating func add(
        _ name: String, release: String = "2.4", build: String, device: String = "iPhone 15", tester: String = "Ana",
        verdict: Verdict, outcomes: [OutcomeVerdict?]? = nil, seconds: Double? = nil, counters: [String: Int] = [:],
        notes: String? = nil, protocolHash: String? = nil
    ) throws -> CheckResult {
        clock += 60
        let date = Date(timeIntervalSince1970: clock)
        let reference = library.check(named: name)
        let session = Session(release: release, build: build, device: device, tester: tester, plan: [name], startedAt: date, finishedAt: date)
        try store.insert(session)
        let count = reference?.check.expected.count ?? 1
        var result = CheckResult(
            sessionID: session.id, check: name, protocolHash: protocolHash ?? reference?.document.contentHash ?? "gone",
            attempt: try store.nextAttempt(check: name, release: release, build: build, device: device), outcomeCount: count, startedAt: date)
        let answers = outcomes ?? Array(repeating: verdict == .fail ? .fail : .pass, count: count)
        result.outcomes = answers.map { $0.map { OutcomeAnswer($0, answeredAt: date) } }
        if let seconds { result.stopwatch = [StopwatchEvent(.typed, at: 0, typedSeconds: seconds, recordedAt: date)] }
        result.counters = counters.mapValues { CounterValue($0, answeredAt: date) }
        result.notes = notes
        result.verdict = verdict
        if verdict == .blocked { result.blockedReason = "no switch hardware" }
        result.updatedAt = date
        try store.save(result)
        return result
    }
}
