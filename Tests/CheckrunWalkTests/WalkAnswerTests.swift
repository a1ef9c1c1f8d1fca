import CheckrunModel
import CheckrunWalk
import Foundation
import Testing

/// Answers, going back, skipping and determinism, driven through the same harness as
/// WalkTests: answers in, events out.
@Suite struct WalkAnswerTests {
    let harness = WalkTests()

    /// A walk whose first check passed (a time, both outcomes, no notes) and that stands at the
    /// second check.
    func walkWithAPass() -> Walk {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("t 5", 1), ("p", 2), ("p", 3), ("", 4)])
        return walk
    }

    /// Those results with the first check's pass turned into a failure given with notes and no
    /// failed outcome, as `record --verdict fail` or `amend` gives one.
    func givenFailure(notes: String) -> [CheckResult] {
        var results = walkWithAPass().results
        results[0].verdict = .fail
        results[0].notes = notes
        return results
    }

    @Test func aNumericOutcomeTakesANoteAfterTheNumber() {
        var walk = harness.walkAtTouch()
        let transcript = harness.feed(&walk, [("t 30", 2), ("9 missed once near the grabber", 3)])
        #expect(walk.results[1].outcomes[0]?.value == 9)
        #expect(walk.results[1].outcomes[0]?.verdict == .fail)
        #expect(walk.results[1].outcomes[0]?.note == "missed once near the grabber", "\(transcript.said)")
        #expect(transcript.said.contains("Expected 1: fail, 9 of 10 against at least 10 of 10, note: missed once near the grabber."), "the note is said back")
    }

    @Test func notApplicableAfterANumberSetsTheNumberAside() {
        var walk = harness.walkAtTouch()
        harness.feed(&walk, [("t 30", 2), ("3", 3), ("b", 4)])
        #expect(walk.prompt?.step == .outcome(0))
        harness.feed(&walk, [("n", 5)])
        #expect(walk.results[1].outcomes[0]?.verdict == .notApplicable)
        #expect(walk.results[1].counters["hits"] == nil, "a count of 3 against at least 10 must not stand beside not applicable")
        #expect(Judgement.contradictions(of: walk.results[1], against: harness.makeWalk().plan[1].check).isEmpty)
    }

    @Test func reopeningABlockedCheckIsSaved() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("x", 1), ("no test device", 2)])
        #expect(walk.results[0].verdict == .blocked)
        let transcript = harness.feed(&walk, [("b", 3)])
        #expect(transcript.said.contains { $0.hasPrefix("Reopened check 1") })
        #expect(transcript.saves.contains { $0.check == "sample/inspect" && $0.verdict == nil && $0.blockedReason == nil }, "the reopening is saved")
    }

    @Test func goingBackShowsTheAnswerAndEnterKeepsIt() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("t 20", 1), ("f the label is wrong", 2)])
        harness.feed(&walk, [("b", 3)])
        #expect(walk.prompt?.text.hasSuffix("Now: fail, note: the label is wrong; Enter keeps it.") == true, "\(walk.prompt?.text ?? "")")
        let kept = harness.feed(&walk, [("", 4)])
        #expect(kept.said.first == "Expected 1: kept, fail, note: the label is wrong.")
        #expect(walk.results[0].outcomes[0]?.verdict == .fail)
        // Rebuilt from what was saved (resume), the check says what was answered already.
        var resumed = harness.makeWalk(results: walk.results)
        let intro = resumed.introduce()
        #expect(intro.contains(.say("Answered before: expected 1, fail, note: the label is wrong.")), "\(intro)")
    }

    /// Notes written for a pass ("all good") are asked for again once an outcome is turned to
    /// fail: kept unasked, they were filed as the failure's reason. Enter keeps them, as of then.
    @Test func notesWrittenForAPassAreAskedAgainWhenAFailureFollows() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("t 5", 1), ("p", 2), ("p", 3), ("all good", 4)])
        let turned = harness.feed(&walk, [("b", 5), ("b", 6), ("f", 7)])
        #expect(walk.prompt?.step == .notes, "\(turned.said)")
        #expect(walk.prompt?.text.hasPrefix("Something failed since these notes were written. Notes? Now: all good") == true, "\(String(describing: walk.prompt))")
        #expect(!turned.saves.contains { $0.verdict == .fail }, "no failure is saved with the pass's notes unasked")
        let kept = harness.feed(&walk, [("", 8)])
        #expect(kept.saves.last?.verdict == .fail && kept.saves.last?.notesAnsweredAt == WalkTests.start.addingTimeInterval(8), "\(kept.said)")
        // A failure answered by a clock an hour ahead (resumed on another machine): the notes
        // answered now are asked for once, not again and again until that hour has passed.
        var skewed = harness.makeWalk()
        harness.feed(&skewed, [("t 5", 1), ("p", 2), ("p", 3), ("all good", 4), ("b", 5), ("b", 6), ("f", 3_600)])
        let answered = harness.feed(&skewed, [("", 9)])
        #expect(answered.saves.last?.verdict == .fail && skewed.prompt?.step != .notes, "\(answered.said)")
    }

    /// A draft check's "Did it pass?" gone back to shows the answer given, and Enter keeps it,
    /// as every other step does (it answered "Answer p for pass or f for fail").
    @Test func goingBackToADraftChecksAnswerShowsItAndEnterKeepsIt() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("s", 1), ("s", 2), ("t 5", 3), ("p", 4), ("b", 5)])
        #expect(walk.prompt?.step == .overall && walk.prompt?.text.hasSuffix("Now: pass; Enter keeps it.") == true, "\(String(describing: walk.prompt))")
        let kept = harness.feed(&walk, [("", 6)])
        #expect(kept.said.contains("Overall: kept, pass."), "\(kept.said)")
        #expect(walk.prompt?.step == .notes && walk.results[2].verdict == .pass)
    }

    @Test func skippingACheckWithAnswersAsksFirstAndSaysWhatIsSetAside() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("t 20", 1), ("p", 2)])
        let asked = harness.feed(&walk, [("s", 3)])
        #expect(asked.saves.isEmpty, "nothing is set aside before the tester confirms")
        #expect(asked.said == ["Check 1 has answers: the time (20 seconds), 1 of 2 expected outcomes. Skipping sets them aside: they stay in the record, but the check counts as skipped, not evaluated."])
        #expect(walk.prompt?.text == "Skip check 1 and set its answers aside? Type y to skip, or n (or Enter) to go on.")
        let declined = harness.feed(&walk, [("", 4)])
        #expect(declined.said == ["Not skipped; check 1 goes on."])
        #expect(walk.results[0].verdict == nil && walk.prompt?.step == .outcome(1), "the walk stands where it stood")
        harness.feed(&walk, [("skip", 5)])
        let confirmed = harness.feed(&walk, [("y", 6)])
        #expect(confirmed.said == ["Result: skipped"])
        #expect(walk.results[0].verdict == .skipped && walk.results[0].outcomes[0]?.verdict == .pass, "the answers stay in the record")
        // A check with nothing answered yet is skipped at once.
        #expect(harness.feed(&walk, [("s", 7)]).said == ["Result: skipped"])
    }

    /// Skipping a check that already failed says the failure stands: reports count it failed.
    @Test func skippingAFailedCheckSaysTheFailureStands() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("t 20", 1), ("f the label is wrong", 2)])
        let asked = harness.feed(&walk, [("s", 3)])
        #expect(asked.said.first?.hasSuffix("Something already failed, so the check still counts as failed once skipped: a skip does not set a failure aside.") == true)
        let confirmed = harness.feed(&walk, [("y", 4)])
        #expect(confirmed.said == ["Result: skipped; it failed before it was set aside, so reports count it as failed"])
        #expect(walk.results[0].outcomes[0]?.verdict == .fail)
    }

    @Test func skippingWhileTheTimerRunsAsksFirstToo() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("", 1), ("+", 2)])
        let asked = harness.feed(&walk, [("s", 3)])
        #expect(asked.said.first?.hasPrefix("Check 1 has answers: a timing begun, 1 stop tallied.") == true, "\(asked.said)")
        #expect(walk.prompt?.mode == .line)
        harness.feed(&walk, [("n", 4)])
        #expect(walk.prompt?.mode == .stopwatch, "declined, the timer runs on")
    }

    @Test func theSameAnswersAtTheSameTimesGiveTheSameResults() {
        let answers = [("", 1.0), ("+", 2), ("", 12), ("p", 13), ("f wrong label", 14), ("", 15), ("t 30", 20), ("9 missed once", 21)]
        var first = harness.makeWalk(), second = harness.makeWalk()
        let one = harness.feed(&first, answers), two = harness.feed(&second, answers)
        #expect(one.saves == two.saves && one.said == two.said)
        #expect(first.results == second.results)
        #expect(first.results.map { $0.id.uuidString.suffix(2) } == ["01", "02", "03"], "ids come from the generator given")
        #expect(first.results[0].updatedAt == WalkTests.start.addingTimeInterval(15), "times come from the dates given")
    }

    @Test func everyAnswerWordTakesANoteAndNoAmbiguousWordIsAnAnswer() {
        for (word, verdict) in [("failed", OutcomeVerdict.fail), ("passed", .pass), ("n/a", .notApplicable), ("Not applicable", .notApplicable)] {
            var walk = harness.makeWalk()
            harness.feed(&walk, [("t 5", 1), ("\(word) seen on the 2nd try", 2)])
            #expect(walk.results[0].outcomes[0]?.verdict == verdict, "\(word)")
            #expect(walk.results[0].outcomes[0]?.note == "seen on the 2nd try", "\(word)")
        }
        for word in ["no", "yes", "y", "none", "no it fired", "ok", "OK button fired Delete"] {
            var walk = harness.makeWalk()
            let refused = harness.feed(&walk, [("t 5", 1), (word, 2)])
            #expect(walk.results[0].outcomes[0] == nil, "\(word) is no answer")
            #expect(refused.said.last?.hasPrefix("Answer p for pass, f for fail or n for not applicable") == true, "\(refused.said)")
        }
    }

    /// A finished check looked at again and left as it was is no new answer: nothing is saved,
    /// and its time stays, so it never becomes the latest attempt over a teammate's later one.
    @Test func lookingBackWithoutChangingSavesNothing() {
        var walk = walkWithAPass()
        let concluded = walk.results[0]
        #expect(concluded.verdict == .pass && walk.currentCheck == 1)
        let looked = harness.feed(&walk, [("b", 50), ("", 60)])
        #expect(looked.saves.isEmpty, "\(looked.said)")
        #expect(looked.said.contains("Nothing changed; the saved result stands: pass, 2 of 2 expected outcomes passed"), "\(looked.said)")
        #expect(walk.results[0] == concluded)
        #expect(walk.currentCheck == 1, "the walk goes on where it was")
        // Typing the same answer again is no change either; a changed one is saved with its time.
        #expect(harness.feed(&walk, [("b", 70), ("b", 71), ("p", 72)]).saves.isEmpty)
        let changed = harness.feed(&walk, [("b", 80), ("b", 81), ("f", 82), ("the label is wrong", 83)])
        #expect(changed.saves.last?.verdict == .fail && changed.saves.last?.updatedAt == WalkTests.start.addingTimeInterval(83), "\(changed.said)")
    }

    /// A failure given with notes and no failed outcome (by `record` or `amend`) is not undone
    /// by going back and changing only the notes: the outcomes decide nothing new.
    @Test func aGivenFailureStandsWhenOnlyTheNotesChange() {
        let given = givenFailure(notes: "focus order wrong after the sheet opens")
        var resumed = harness.makeWalk(results: given)
        #expect(resumed.currentCheck == 1)
        let kept = harness.feed(&resumed, [("b", 10), ("", 11)])
        #expect(kept.saves.isEmpty && resumed.results[0].verdict == .fail, "\(kept.said)")
        let noted = harness.feed(&resumed, [("b", 20), ("looked again", 21)])
        #expect(noted.saves.last?.verdict == .fail && noted.saves.last?.notes == "looked again", "\(noted.said)")
        #expect(noted.said.contains { $0.contains("The failure was given, not decided by an outcome, so it stands") })
        // Nor by answering an outcome or the time again: only `amend --verdict pass` undoes it.
        let retimed = harness.feed(&resumed, [("b", 30), ("b", 31), ("b", 32), ("b", 33), ("t 7", 34)])
        #expect(retimed.saves.last?.verdict == .fail && retimed.saves.last?.activeSeconds == 7, "\(retimed.said)")
        #expect(retimed.saves.last?.updatedAt == given[0].updatedAt, "the time it was answered stays")
    }

    /// Correcting the time of a pass keeps its verdict and the time it was answered, so it does
    /// not become the latest attempt over a teammate's later failure; a changed verdict is new.
    @Test func correctingATimeKeepsTheTimeAnswered() {
        var walk = walkWithAPass()
        let answered = walk.results[0].updatedAt
        let retimed = harness.feed(&walk, [("b", 50), ("b", 51), ("b", 52), ("b", 53), ("t 6", 54)])
        #expect(retimed.saves.last?.verdict == .pass && retimed.saves.last?.activeSeconds == 6, "\(retimed.said)")
        #expect(retimed.saves.last?.updatedAt == answered)
        #expect(retimed.saves.last?.lastChangedAt == WalkTests.start.addingTimeInterval(54), "its record is dated when it was made")
        // A file attached there is saved at once, and still leaves the time it was answered.
        let asked = harness.feed(&walk, [("b", 55), ("a /tmp/shot.png", 56)])
        if let request = asked.attachRequests.first {
            let events = walk.attached(WalkAttachmentTests.attachment("shot.png"), for: request, date: WalkTests.start.addingTimeInterval(57))
            let saved = events.compactMap { if case .save(let result) = $0 { result } else { nil } }.first
            #expect(saved?.verdict == .pass && saved?.updatedAt == answered, "\(events)")
        } else {
            Issue.record("no attachment was asked for: \(asked.said)")
        }
        harness.feed(&walk, [("the Pay button", 58), ("", 59)])
        let failed = harness.feed(&walk, [("b", 60), ("b", 61), ("f the label is wrong", 62)])
        #expect(failed.saves.last?.verdict == .fail && failed.saves.last?.updatedAt == WalkTests.start.addingTimeInterval(62), "\(failed.said)")
    }

    /// An answer that left a reopened check incomplete was saved without a verdict; answering it
    /// back as it was must save the result again, not say "Nothing changed" over that save.
    @Test func answeringBackAfterAnIncompleteSaveSavesTheResultAgain() {
        var walk = walkWithAPass()
        let answered = walk.results[0].updatedAt
        let incomplete = harness.feed(&walk, [("b", 10), ("b", 11), ("f", 12)])
        #expect(incomplete.saves.last?.verdict == nil, "a failure needs its notes first: \(incomplete.said)")
        let back = harness.feed(&walk, [("b", 13), ("p", 14)])
        #expect(back.saves.last?.verdict == .pass && back.saves.last?.updatedAt == answered, "\(back.said)")
        #expect(!back.said.contains { $0.hasPrefix("Nothing changed") })
    }

    /// A failure given with notes keeps needing them: blank notes are asked for again rather
    /// than saved as a failure with no reason, which the judge would refuse.
    @Test func aGivenFailureKeepsItsNotes() {
        let given = givenFailure(notes: "focus order wrong")
        var resumed = harness.makeWalk(results: given)
        let blank = harness.feed(&resumed, [("b", 10), (" ", 11)])
        #expect(blank.saves.isEmpty && blank.said.contains("The failure stands, so the notes are required: say why it fails."), "\(blank.said)")
        let noted = harness.feed(&resumed, [("the focus jumps to the toolbar", 12)])
        #expect(noted.saves.last?.verdict == .fail && noted.saves.last?.notes == "the focus jumps to the toolbar", "\(noted.said)")
        #expect(Judgement.contradictions(of: noted.saves.last ?? given[0], against: WalkTests.plan[0].check).isEmpty)
    }

    /// Skipping a check gone back into and taking the skip back gives it its verdict and time
    /// back; a check resumed with only its timing to answer keeps them too; a failure no
    /// outcome shows is never skipped or blocked away.
    @Test func noDoorMakesAnOldPassNewOrAGivenFailureGo() {
        var walk = walkWithAPass()
        let answered = walk.results[0].updatedAt
        let skippedBack = harness.feed(&walk, [("b", 10), ("s", 11), ("y", 12), ("b", 13), ("", 14)])
        #expect(skippedBack.saves.last?.verdict == .pass && skippedBack.saves.last?.updatedAt == answered, "\(skippedBack.said)")

        var untimed = walk.results
        untimed[0].stopwatch = []
        var resumed = harness.makeWalk(results: untimed)
        #expect(resumed.currentCheck == 0 && resumed.prompt?.step == .timing)
        let timed = harness.feed(&resumed, [("t 9", 20)])
        #expect(timed.saves.last?.verdict == .pass && timed.saves.last?.updatedAt == answered, "\(timed.said)")

        var given = givenFailure(notes: "focus order wrong")
        given[0].stopwatch = []
        var lead = harness.makeWalk(results: given)
        let retimed = harness.feed(&lead, [("t 9", 30)])
        #expect(retimed.saves.last?.verdict == .fail, "a given failure resumed with its timing to answer stays failed: \(retimed.said)")
        for key in ["s", "x"] {
            let refused = harness.feed(&lead, [("b", 31), (key, 32)])
            #expect(refused.saves.isEmpty && refused.said.last?.hasPrefix("Check 1 holds a failure that no expected outcome shows") == true, "\(key): \(refused.said)")
            harness.feed(&lead, [("", 33)])
        }
        #expect(lead.results[0].verdict == .fail)
    }

    /// An answer word or key typed at the notes or the block reason (an answer given early)
    /// would become the text a report quotes for a failure ("fails on iPhone: pass"): it is
    /// refused and the question asked again, as at an attachment's description.
    @Test func anAnswerWordIsNeverANoteOrABlockReason() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("t 5", 1), ("p", 2), ("f", 3)])
        for word in ["pass", "f", "n/a", "P", "yes"] {
            let refused = harness.feed(&walk, [(word, 4)])
            #expect(refused.saves.isEmpty && refused.said.last?.hasPrefix("\"\(word)\" is an answer or a key at the other prompts, not a note.") == true,
                    "\(word): \(refused.said)")
        }
        harness.feed(&walk, [("the close button fired Delete", 5)])
        #expect(walk.results[0].notes == "the close button fired Delete" && walk.results[0].verdict == .fail)
        harness.feed(&walk, [("x", 6)])
        let reason = harness.feed(&walk, [("f", 7)])
        #expect(reason.saves.isEmpty && reason.said.last?.contains("not a reason") == true, "\(reason.said)")
        harness.feed(&walk, [("no test device", 8)])
        #expect(walk.results[1].verdict == .blocked && walk.results[1].blockedReason == "no test device")
    }
}
