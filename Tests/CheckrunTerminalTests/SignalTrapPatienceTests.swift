@testable import CheckrunTerminal
import Foundation
import Testing

/// A save held past its patience is said once, beside it, while it still runs; one that
/// returns in time is said never.
struct SignalTrapPatienceTests {
    private final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var now: Int { lock.withLock { value } }
    }

    @Test func aSaveHeldPastItsPatienceIsSaidOnceWhileItRuns() {
        let said = Count()
        let outcome = SignalTrap.deferringSignals(patience: 0.1, stopped: nil, slow: { said.add() }) { () -> Int in
            let deadline = Date().addingTimeInterval(5)
            // Returns once the watch has spoken: said while the save still ran.
            while said.now == 0 && Date() < deadline { usleep(10_000) }
            usleep(100_000)
            return 7
        }
        #expect(outcome.value == 7 && outcome.wasSlow)
        #expect(said.now == 1)
    }

    @Test func aSaveThatReturnsInTimeIsNeverSaid() throws {
        let said = Count()
        let outcome = SignalTrap.deferringSignals(patience: 1, stopped: nil, slow: { said.add() }) { 3 }
        #expect(outcome.value == 3 && !outcome.wasSlow)
        struct Failed: Error {}
        #expect(throws: Failed.self) { _ = try SignalTrap.deferringSignals(patience: 1, stopped: nil, slow: { said.add() }) { () throws -> Int in throw Failed() } }
        usleep(1_100_000)
        #expect(said.now == 0, "the watch ended with the save, thrown or not")
    }
}
