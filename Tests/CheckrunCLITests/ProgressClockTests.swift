@testable import CheckrunCLI
import Foundation
import Testing

/// `verify`'s progress line: at most once a second, and never the same count twice.
struct ProgressClockTests {
    final class Time: @unchecked Sendable {
        var seconds: TimeInterval = 0
    }

    @Test func progressIsSaidOnlyWhenItMoved() {
        let time = Time()
        let clock = ProgressClock(now: { Date(timeIntervalSince1970: time.seconds) })
        #expect(!clock.due(10), "not within the first second")
        time.seconds = 1
        #expect(clock.due(10))
        time.seconds = 2
        #expect(!clock.due(10), "the same count is not said again")
        time.seconds = 3
        #expect(!clock.due(0), "sessions without records move nothing")
        #expect(clock.due(20))
    }
}
