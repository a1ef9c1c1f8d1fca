import CheckrunModel
import CheckrunWalk
import Foundation
import Testing

/// Times typed instead of the stopwatch, and the tally that belongs to one timing.
extension WalkTests {
    @Test func typedTimesInEveryFormAndBadOnes() {
        for (typed, seconds) in [("t 80", 80.0), ("t 1:20", 80), ("t 1m20s", 80), ("t 1m 20s", 80), ("t 2m", 120), ("t 12.5", 12.5), ("t=45s", 45)] {
            var walk = makeWalk()
            feed(&walk, [(typed, 0)])
            #expect(walk.results[0].activeSeconds == seconds, "\(typed)")
        }
        var walk = makeWalk()
        let bad = feed(&walk, [("t abc", 0), ("t 1:75", 0), ("t 99999999", 0), ("t 0", 0), ("t 0:00", 0), ("t 0.01", 0), ("t 1m99s", 0)])
        #expect(bad.said[0] == "\"abc\" is not a time. Type t 80 (seconds), t 1:20 (minutes:seconds) or t 1m20s.")
        #expect(bad.said[1].contains("is not a time"))
        #expect(bad.said[2].contains("more than a day"))
        // A time of nothing would count in a report's medians as a task that took none.
        #expect(bad.said[3] == "0 seconds is no time for a task; type the time the task took, e.g. t 1:20, or press Enter to time it.")
        #expect(bad.said[4] == bad.said[3] && bad.said[5] == bad.said[3])
        #expect(bad.said[6].contains("is not a time"), "as t 1:99 is")
        #expect(walk.results[0].activeSeconds == nil)
    }

    @Test func aTallyBelongsToOneTimingAndATypedTimeOverTheLimitSaysSo() {
        var walk = walkAtTouch()
        var transcript = feed(&walk, [("", 10), ("+", 11), ("+", 12), ("q", 13)])
        #expect(transcript.said.contains("2 stops tallied."))
        // Resumed: the walk is rebuilt from what was saved, and the timing starts again.
        var resumed = makeWalk(results: walk.results)
        #expect(resumed.introduce().contains(.say("A timing was begun and not finished, with 2 stops tallied; time the task again.")),
                 "the stops tallied before are not dropped unsaid")
        transcript = feed(&resumed, [("", 20), ("+", 21), ("", 30)])
        #expect(resumed.currentCheck == 1)
        #expect(transcript.said.contains("1 stop tallied."), "a new timing counts afresh: \(transcript.said)")
        #expect(transcript.said.contains("Stops tallied in this timing: 1."))
        var typed = walkAtTouch()
        transcript = feed(&typed, [("t 1:30", 2)])
        #expect(transcript.said.contains("That is over the time limit of 1 minute, by 30 seconds."), "\(transcript.said)")
        var justOver = walkAtTouch()
        transcript = feed(&justOver, [("t 60.04", 2)])
        #expect(transcript.said.contains("That is over the time limit of 1 minute, by less than a tenth of a second."), "\(transcript.said)")
    }
}
