import CheckrunModel
import CheckrunWalk
import Foundation
import Testing

extension WalkTests {
    /// `x` while the timer ran threw the timing and its tally away: `b` went back to an idle
    /// timer, and the next timing saved a tally of 0 over the stops tallied.
    @Test func blockingWhileTheTimerRunsPausesItAndBackGivesItBack() {
        var walk = makeWalk()
        feed(&walk, [("", 100), (" ", 101), (" ", 102), (" ", 103), (" ", 104)])
        let blocked = feed(&walk, [("x", 110)])
        #expect(blocked.said == ["Timer paused without a time; b takes the block back and returns to it."])
        #expect(blocked.saves.last?.stopwatch.map(\.kind) == [.start, .pause], "the pause is saved at once")
        #expect(walk.prompt?.text == "Why is this check blocked? (required)")
        let back = feed(&walk, [("b", 200)])
        #expect(back.said == ["Not blocked. The timer is paused where it was, 4 stops tallied: p resumes it, Enter stops it."])
        feed(&walk, [("p", 300), ("", 305)])
        #expect(walk.results[0].activeSeconds == 15, "10 s before the block and 5 after, none of the time at the block's question")
        #expect(walk.results[0].tally == 4)
        // Blocked for good: the timer is not given back later.
        var other = makeWalk()
        feed(&other, [("", 0), (" ", 1), ("x", 2), ("no network", 3)])
        #expect(other.results[0].verdict == .blocked && other.results[0].tally == 1)
    }
}
