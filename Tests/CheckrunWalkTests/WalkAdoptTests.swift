import CheckrunModel
import CheckrunWalk
import Foundation
import Testing

/// A result another writer saved while the walk held it (the store refused the walk's save):
/// the walk takes the stored result and goes on from it, through the same harness as WalkTests.
@Suite struct WalkAdoptTests {
    let harness = WalkTests()

    @Test func aRevisitedAnswerGivesWayToAnAmendmentAndTheWalkGoesOnWhereItWas() {
        var walk = harness.makeWalk()
        let first = harness.feed(&walk, [("t 30", 1), ("p", 2), ("p", 3), ("", 4)])
        #expect(walk.results[0].verdict == .pass)
        // A teammate amends check 1 to a failure; the tester, on check 2, goes back to its notes.
        var amended = first.saves.last ?? walk.results[0]
        amended.outcomes[1] = OutcomeAnswer(.fail, note: "Delete fired", answeredAt: WalkTests.start)
        amended.verdict = .fail
        amended.notes = "seen on the second try"
        harness.feed(&walk, [("b", 5), ("looked again", 6)])
        #expect(walk.results[0].notes == "looked again", "the walk's own change, before its save is refused")

        let said = walk.adopt(amended)
        #expect(said == [.say("Check 1 now holds what was saved there: Result: fail, 1 of 2 expected outcomes failed.")])
        #expect(walk.results[0] == amended)
        #expect(walk.currentCheck == 1, "the walk is back where it was, at check 2")
        #expect(walk.prompt?.step == .timing)
    }

    @Test func theCheckBeingAnsweredIsAskedAgainFromWhatIsStored() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("", 1)])
        #expect(walk.prompt?.mode == .stopwatch, "the timer runs")
        // Another terminal resumed the session and gave the time and the first outcome.
        var other = CheckResult(id: UUID(), sessionID: WalkTests.session.id, check: "sample/inspect", protocolHash: walk.results[0].protocolHash,
                                attempt: 1, outcomeCount: 2, startedAt: WalkTests.start)
        other.stopwatch = [StopwatchEvent(.typed, at: 0, typedSeconds: 42, recordedAt: WalkTests.start)]
        other.outcomes = [OutcomeAnswer(.pass, answeredAt: WalkTests.start)]

        let said = walk.adopt(other)
        #expect(said == [.say("The timer was stopped; this timing was not saved."),
                         .say("Check 1 now holds what was saved there: the time (42 seconds), 1 of 2 expected outcomes (expected 1, pass).")])
        #expect(walk.results[0].id == other.id, "the other writer's result, under its own id")
        #expect(walk.results[0].outcomes.count == 2, "padded to the check's outcomes")
        #expect(walk.prompt?.step == .outcome(1), "the timer is gone; the next unanswered question is asked")
        #expect(walk.prompt?.mode == .line)
        #expect(walk.introduce().contains(.say("Answered before: expected 1, pass.")), "the check is introduced again with what it holds")
        let next = harness.feed(&walk, [("f", 2)])
        #expect(next.saves.last?.id == other.id)
        #expect(next.saves.last?.outcomes.compactMap { $0?.verdict } == [.pass, .fail])
    }
}
