import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Twenty writers on connections of their own, on either engine: every answer lands, every
/// chain stays whole, and attempt numbers taken at the same moment are never given twice.
@Suite struct ConcurrentEngineTests {
    /// Runs `body(index)` on `count` threads at once and rethrows the first failure.
    static func together(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
        let failures = Failures()
        AllAtOnce.run(count) { index in
            do { try body(index) } catch { failures.add("\(index): \(error)") }
        }
        if let first = failures.first { throw TestDatabaseError(first) }
    }

    /// The writers below are only a race if they run at once, whatever the number of cores.
    @Test func theWritersReallyRunAtOnce() {
        let running = RunningCount()
        AllAtOnce.run(20) { _ in
            running.enter()
            Thread.sleep(forTimeInterval: 0.2)
            running.leave()
        }
        #expect(running.most == 20)
    }

    @Test(arguments: TestEngine.available) func twentyWritersTimesAHundredAnswersLoseNothing(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        _ = try ResultStore(path: database.address)
        let address = database.address
        try Self.together(20) { writer in
            let store = try ResultStore(path: address)
            defer { store.close() }
            let session = Session(release: "2.4", build: "311", device: "device \(writer)", tester: "tester \(writer)", plan: ["p/c"])
            try store.insert(session)
            var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1)
            for answer in 0..<100 {
                result.tally = answer
                result.updatedAt = Date(timeIntervalSince1970: 1_800_000_000 + Double(answer))
                try store.save(result)
            }
        }
        let store = try ResultStore(path: address, access: .existingOnly)
        #expect(try store.database.scalarInt("SELECT count(*) FROM records") == 2_000)
        #expect(try store.database.scalarInt("SELECT count(*) FROM sessions") == 20)
        #expect(try store.database.scalarInt("SELECT count(*) FROM results WHERE tally = 99") == 20)
        let report = try store.verify()
        #expect(report.isClean && report.records == 2_000, "\(report.problems.prefix(3))")
    }

    @Test(arguments: TestEngine.available) func twentyRecordsOfOneCheckAtOnceGetTwentyAttempts(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        _ = try ResultStore(path: database.address)
        #expect(try Self.twentyRecordsAtOnce(database.address) == Array(1...20))
    }

    /// Twenty `record`s of one check at once, each on a connection of its own; the attempt
    /// numbers the store then holds, in order.
    static func twentyRecordsAtOnce(_ address: String) throws -> [Int] {
        try Self.together(20) { writer in
            let store = try ResultStore(path: address)
            defer { store.close() }
            // As `record` does: the attempt is numbered and the result saved in one write.
            try store.batch {
                let session = Session(release: "2.4", build: "311", device: "iPhone", plan: ["p/c"])
                var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1)
                result.attempt = try store.nextAttempt(check: "p/c", release: "2.4", build: "311", device: "iPhone")
                result.verdict = .pass
                try store.insert(session)
                try store.save(result)
            }
        }
        let store = try ResultStore(path: address, access: .existingOnly)
        return try store.database.query("SELECT attempt FROM results ORDER BY attempt") { $0.int(0) ?? 0 }
    }

    @Test(arguments: TestEngine.available) func twoAmendsOfOneResultAtOnceBothCount(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let first = try ResultStore(path: database.address)
        let session = Session(release: "2.4", build: "311", plan: ["p/c"])
        try first.insert(session)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1)
        result.verdict = .pass
        try first.save(result)
        let address = database.address
        let original = result
        try Self.together(10) { writer in
            let store = try ResultStore(path: address)
            defer { store.close() }
            var corrected = original
            corrected.notes = "amendment \(writer)"
            try store.amend(corrected, reason: "writer \(writer)", at: Date())
        }
        #expect(try first.database.scalarInt("SELECT amendments FROM results") == 10)
        #expect(try first.database.scalarInt("SELECT count(*) FROM records WHERE kind = 'amend'") == 10)
        #expect(try first.verify().isClean)
    }
}

/// How many threads are inside at once, and the most there ever were.
private final class RunningCount: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private var highest = 0
    func enter() { lock.withLock { now += 1; highest = max(highest, now) } }
    func leave() { lock.withLock { now -= 1 } }
    var most: Int { lock.withLock { highest } }
}

private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func add(_ message: String) { lock.withLock { messages.append(message) } }
    var first: String? { lock.withLock { messages.first } }
}

/// The server store's schema: set up once, refused when a newer checkrun set it up.
@Suite(.enabled(if: TestEngine.server != nil, "needs CHECKRUN_TEST_POSTGRES (see .ci/run)"))
struct ServerSchemaTests {
    @Test func aStoreSetUpByANewerCheckrunIsRefusedAndAnEmptyOneIsNotSetUpByAReader() throws {
        let database = try TestDatabase(.postgresql)
        defer { database.remove() }
        #expect { try ResultStore(path: database.address, access: .existingOnly) } throws: { "\($0)".contains("holds no checkrun results yet") }
        let store = try ResultStore(path: database.address)
        #expect(try store.database.scalarInt("SELECT version FROM checkrun_schema") == Schema.latestVersion)
        try store.database.execute("UPDATE checkrun_schema SET version = 99")
        store.close()
        #expect { try ResultStore(path: database.address) } throws: { "\($0)".contains("set up by a newer checkrun (schema version 99") }
    }

    /// An administrator's defaults (fewer float digits, bytes shown escaped) change nothing a
    /// store reads back: every time keeps its last digit, and verify stays clean.
    @Test func aServerWithOtherDefaultsReadsBackEveryValueExactly() throws {
        let database = try Self.store(defaulting: ["extra_float_digits = 0", "bytea_output = 'escape'"])
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        let started = Date(timeIntervalSince1970: 1_800_000_000.123_456_7)
        let session = Session(release: "2.4", build: "311", plan: ["p/c"], startedAt: started)
        try store.insert(session)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1, startedAt: started)
        result.stopwatch = [StopwatchEvent(.typed, at: 0, typedSeconds: 0.1 + 0.2)]
        result.outcomes[0] = OutcomeAnswer(.pass, answeredAt: started.addingTimeInterval(1.000_000_3))
        result.verdict = .pass
        try store.save(result)
        #expect(try store.results(inSession: session.id).map(\.payload) == [result.payload], "every digit of every time")
        #expect(try store.verify().isClean)
    }

    /// A database (or role) whose transactions default to repeatable read or serializable:
    /// checkrun's writes still see what the writer before them committed. Under the default,
    /// concurrent `record`s took one attempt number several times, without a word.
    @Test(arguments: ["repeatable read", "serializable"]) func aServerDefaultingToAnotherIsolationNumbersEveryAttemptOnce(isolation: String) throws {
        let database = try Self.store(defaulting: ["default_transaction_isolation = '\(isolation)'"])
        defer { database.remove() }
        #expect(try ConcurrentEngineTests.twentyRecordsAtOnce(database.address) == Array(1...20))
    }

    /// A new store on the test server whose database sets `settings` (`name = value`) as its
    /// defaults, as an administrator may, for every connection made after.
    static func store(defaulting settings: [String]) throws -> TestDatabase {
        let database = try TestDatabase(.postgresql)
        let name = try #require(URLComponents(string: database.address)?.path.dropFirst())
        let setup = try ResultStore(path: database.address)
        defer { setup.close() }
        try setup.database.execute(settings.map { "ALTER DATABASE \"\(name)\" SET \($0)" }.joined(separator: "; "))
        return database
    }
}

/// Saving again after a lost connection, when the lost commit had in fact landed.
@Suite struct LostReplyTests {
    func fixture(_ engine: TestEngine) throws -> (TestDatabase, ResultStore, CheckResult) {
        let database = try TestDatabase(engine)
        let store = try ResultStore(path: database.address)
        let session = Session(release: "2.4", build: "311", plan: ["p/c"])
        try store.insert(session)
        let start = Date(timeIntervalSince1970: 1_800_000_000.25)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1, startedAt: start)
        result.outcomes[0] = OutcomeAnswer(.fail, note: "Delete fired", answeredAt: start.addingTimeInterval(10))
        result.verdict = .fail
        result.notes = "Delete fired"
        result.notesAnsweredAt = start.addingTimeInterval(20)
        result.updatedAt = start.addingTimeInterval(20)
        return (database, store, result)
    }

    func records(_ store: ResultStore, _ result: CheckResult) throws -> [Record] {
        var all: [Record] = []
        try store.forEachRecord(inSession: result.sessionID) { all.append($0) }
        return all
    }

    @Test(arguments: TestEngine.available) func anAnswerWhoseCommitLandedIsNotRecordedTwice(engine: TestEngine) throws {
        let (database, store, result) = try fixture(engine)
        defer { database.remove() }
        try store.save(result)
        try store.saveAfterLostConnection(result, over: nil)
        #expect(try records(store, result).count == 1)
        #expect(try store.verify().isClean)
    }

    @Test(arguments: TestEngine.available) func aTeammatesAmendmentMadeMeanwhileIsKept(engine: TestEngine) throws {
        let (database, store, result) = try fixture(engine)
        defer { database.remove() }
        try store.save(result)
        var corrected = result
        corrected.verdict = .pass
        corrected.outcomes[0] = OutcomeAnswer(.pass)
        corrected.notes = nil
        try store.amend(corrected, reason: "the debug overlay fired it", at: Date())
        // Nothing is written, and the walk is told its answer was changed after it landed.
        let changed = #expect(throws: ResultChangedElsewhere.self) { try store.saveAfterLostConnection(result, over: nil) }
        #expect(changed?.cameAfterThisAnswer == true)
        #expect(try records(store, result).map(\.kind) == [.answer, .amend])
        #expect(try store.results(inSession: result.sessionID).first?.verdict == .pass, "the amendment stands")
        #expect(try store.verify().isClean)
    }

    @Test(arguments: TestEngine.available) func anAnswerThatDidNotLandIsSaved(engine: TestEngine) throws {
        let (database, store, result) = try fixture(engine)
        defer { database.remove() }
        try store.saveAfterLostConnection(result, over: nil)
        #expect(try records(store, result).count == 1)
        #expect(try store.results(inSession: result.sessionID).map(\.payload) == [result.payload])
    }

    @Test(arguments: TestEngine.available) func aResultWithHundredsOfPartsIsSavedWhole(engine: TestEngine) throws {
        let (database, store, base) = try fixture(engine)
        defer { database.remove() }
        var result = base
        result.stopwatch = (0..<250).map { StopwatchEvent($0 % 2 == 0 ? .pause : .resume, at: Double($0), recordedAt: Date(timeIntervalSince1970: 1_800_000_000 + Double($0))) }
        result.stopwatch.insert(StopwatchEvent(.start, at: 0, recordedAt: Date(timeIntervalSince1970: 1_800_000_000)), at: 0)
        result.counters = Dictionary(uniqueKeysWithValues: (0..<150).map { ("counter \($0)", CounterValue($0, answeredAt: Date(timeIntervalSince1970: 1_800_000_000))) })
        try store.save(result)
        try store.save(result)
        #expect(try store.results(inSession: result.sessionID).map(\.payload) == [result.payload])
    }
}
