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
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do { try body(index) } catch { failures.add("\(index): \(error)") }
        }
        if let first = failures.first { throw TestDatabaseError(first) }
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
        let address = database.address
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
        let attempts = try store.database.query("SELECT attempt FROM results ORDER BY attempt") { $0.int(0) ?? 0 }
        #expect(attempts == Array(1...20))
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
}
