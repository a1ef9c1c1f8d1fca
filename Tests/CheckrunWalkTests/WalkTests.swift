import CheckrunModel
import CheckrunWalk
import Foundation
import Testing

/// The walk's state machine, driven directly: answers in, events out, no terminal, no database.
@Suite struct WalkTests {
    static let document = ProtocolDocument(
        id: "sample", title: "Sample", status: .ready, source: "sample.txt", wcag: ["2.5.8"],
        checks: [
            Check(id: "inspect", profile: "Accessibility Inspector", task: "inspect every icon button",
                  expected: [ExpectedOutcome("each frame is 44 pt"), ExpectedOutcome("no hit region issues")]),
            Check(id: "touch", profile: "touch, one hand", task: "close the sheet 10 times",
                  expected: [ExpectedOutcome("10 out of 10 hits", target: NumericTarget(counter: "hits", atLeast: 10, outOf: 10)),
                             ExpectedOutcome("Delete never triggered")],
                  counters: [Counter(id: "hits", label: "hits"), Counter(id: "stops", label: "Switch Control stops", ceiling: 20)],
                  timeLimit: 60),
            Check(id: "draft", profile: "unspecified", task: "look around", expected: [], review: "draft"),
        ])

    static var plan: [CheckReference] { document.checks.map { CheckReference(document: document, check: $0) } }

    /// The walk's clock: a reading of `now` seconds is this many seconds after the start.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let session = Session(id: UUID(uuid: (0x5E, 0x55, 0x10, 0x4E, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)), release: "1", build: "2",
                                 plan: plan.map(\.name), startedAt: start)

    /// Ids 1, 2, 3… in the last byte: the walk makes none of its own.
    static func sequentialIDs() -> () -> UUID {
        var next: UInt8 = 0
        return {
            next += 1
            return UUID(uuid: (0x12, 0x34, 0, 0, 0, 0, 0x70, 0, 0x80, 0, 0, 0, 0, 0, 0, next))
        }
    }

    func makeWalk(results: [CheckResult] = []) -> Walk {
        Walk(session: Self.session, plan: Self.plan, results: results, nextAttempts: [:], at: Self.start, newID: Self.sequentialIDs())
    }

    /// Feeds answers at the given clock readings and collects what was said and saved.
    struct Transcript {
        var said: [String] = []
        var saves: [CheckResult] = []
        var quit = false
        var finished = false
        var attachRequests: [AttachmentRequest] = []
        /// Results said to stand unchanged, which the caller checks are still what is saved.
        var standing: [CheckResult] = []
    }

    @discardableResult
    func feed(_ walk: inout Walk, _ answers: [(String, Double)]) -> Transcript {
        var transcript = Transcript()
        for (answer, now) in answers {
            for event in walk.handle(answer, now: now, date: Self.start.addingTimeInterval(now)) {
                switch event {
                case .say(let line), .heading(let line): transcript.said.append(line)
                case .hint: break
                case .save(let result): transcript.saves.append(result)
                case .stands(let result): transcript.standing.append(result)
                case .quit: transcript.quit = true
                case .finished: transcript.finished = true
                case .attach(let request): transcript.attachRequests.append(request)
                }
            }
        }
        return transcript
    }

    @Test func aCheckWithPauseTallyAndAFailedOutcome() {
        var walk = makeWalk()
        #expect(walk.introduce().contains(.heading("Check 1 of 3: sample/inspect")))
        #expect(walk.prompt?.step == .timing)
        #expect(walk.prompt?.mode == .line)
        let transcript = feed(&walk, [("", 100), (" ", 101), ("p", 110), ("p", 115), ("", 120)])
        #expect(transcript.said.contains("Timer started."))
        #expect(transcript.said.contains("Timer paused."))
        #expect(transcript.said.contains("Timer stopped: 15 seconds."), "pauses are left out: \(transcript.said)")
        #expect(walk.results[0].activeSeconds == 15)
        #expect(walk.results[0].tally == 1)
        #expect(walk.results[0].stopwatch.map(\.kind) == [.start, .pause, .resume, .stop])
        #expect(transcript.saves.count == 5, "every stopwatch event is saved as it happens")

        let outcomes = feed(&walk, [("pass", 121), ("fail", 122)])
        #expect(outcomes.said == ["Expected 1: pass.", "Expected 2: fail."])
        #expect(walk.prompt?.text == "Notes (required, something failed): what happened?")
        let refused = feed(&walk, [("", 123)])
        #expect(refused.saves.isEmpty)
        #expect(walk.prompt?.step == .notes)
        let done = feed(&walk, [("the close button is 20 pt", 124)])
        #expect(done.said.contains("Result: fail, 1 of 2 expected outcomes failed"))
        #expect(walk.results[0].verdict == .fail)
        #expect(walk.results[0].notes == "the close button is 20 pt")
        #expect(walk.currentCheck == 1)
    }

    @Test func aNoteOnTheFailedOutcomeMakesTheCheckNotesOptional() {
        var walk = makeWalk()
        feed(&walk, [("t 80", 0), ("p", 0), ("f Delete is 8 pt from Close", 0)])
        #expect(walk.results[0].outcomes[1]?.note == "Delete is 8 pt from Close")
        #expect(walk.prompt?.text == "Notes (optional, Enter for none):")
        let done = feed(&walk, [("", 0)])
        #expect(done.said.last == "Result: fail, 1 of 2 expected outcomes failed")
    }

    @Test func numericTargetsAreAskedAsNumbersAndJudged() {
        var walk = makeWalk()
        feed(&walk, [("t 1", 0), ("p", 0), ("p", 0), ("", 0)])
        #expect(walk.currentCheck == 1)
        feed(&walk, [("t 1:20", 0)])
        #expect(walk.results[1].activeSeconds == 80)
        // "+9", typed to add to a count, was taken for 9.
        let bad = feed(&walk, [("nine", 0), ("-1", 0), ("11", 0), ("+9", 0), ("+9 near the grabber", 0), ("1 0", 0), ("９", 0), ("9.5 near the edge", 0)])
        #expect(bad.said == [
            "Type a whole number, e.g. 10, or n for not applicable.",
            "A count can't be negative; type 0 or more.",
            "That is more than the 10 tries; type a number from 0 to 10.",
            "A count is the number counted, not a change to it: type the whole count, without the plus (+).",
            "A count is the number counted, not a change to it: type the whole count, without the plus (+).",
            "Type the count as one number, without spaces; a note after it begins with a word, e.g. 1 missed once near the edge.",
            "Type the count in the digits 0 to 9.",
            "A count is a whole number, typed without a point or comma.",
        ])
        #expect(bad.saves.isEmpty, "nothing is saved for a refused answer")
        let judged = feed(&walk, [("9", 0)])
        #expect(judged.said.first == "Expected 1: fail, 9 of 10 against at least 10 of 10.")
        #expect(walk.results[1].counters["hits"]?.value == 9)
        #expect(walk.prompt?.step == .outcome(1))
    }

    @Test func theTallyIsTheCounterDefaultAndACeilingFails() {
        var walk = makeWalk()
        feed(&walk, [("t 1", 0), ("p", 0), ("p", 0), ("", 0)])
        feed(&walk, [("", 0), ("+", 1), ("+", 2), ("=", 3), ("-", 4), ("", 70)])
        #expect(walk.results[1].tally == 2)
        feed(&walk, [("10", 0), ("p", 0)])
        #expect(walk.prompt?.text == "Count of Switch Control stops? Enter keeps 2 (the tally), or type a number.")
        feed(&walk, [("", 0)])
        #expect(walk.results[1].counters["stops"]?.value == 2)
        #expect(walk.prompt?.text == "Notes (optional, Enter for none):")
        let done = feed(&walk, [("", 0)])
        #expect(done.said.last == "Result: pass, 2 of 2 expected outcomes passed, time over the 60-second limit")

        var over = makeWalk()
        feed(&over, [("t 1", 0), ("p", 0), ("p", 0), ("", 0), ("t 30", 0), ("10", 0), ("p", 0), ("25", 0)])
        #expect(over.prompt?.text == "Notes (required, something failed): what happened?")
        let failed = feed(&over, [("25 stops to reach Pay", 0)])
        #expect(failed.said.last == "Result: fail, stops 25, above the ceiling of 20")
    }

    @Test func backChangesThePreviousAnswerAndReturns() {
        var walk = makeWalk()
        feed(&walk, [("t 5", 0), ("p", 0)])
        let back = feed(&walk, [("b", 0)])
        #expect(back.said == ["Back to check 1: expected outcome 1."])
        #expect(walk.prompt?.step == .outcome(0))
        feed(&walk, [("f", 0)])
        #expect(walk.results[0].outcomes[0]?.verdict == .fail)
        #expect(walk.prompt?.step == .outcome(1), "after the change the walk returns to where it was")
        feed(&walk, [("p", 0), ("it is 30 pt", 0)])
        #expect(walk.results[0].verdict == .fail)
        #expect(walk.currentCheck == 1)

        // Back from the next check's first question reaches the last answer of this one.
        feed(&walk, [("b", 0)])
        #expect(walk.prompt?.step == .notes)
        #expect(walk.currentCheck == 0)
    }

    @Test func changingAnAnswerCanReopenAFinishedCheck() {
        var walk = makeWalk()
        feed(&walk, [("t 5", 0), ("p", 0), ("p", 0), ("", 0)])
        #expect(walk.results[0].verdict == .pass)
        feed(&walk, [("b", 0)])
        #expect(walk.prompt?.step == .notes)
        feed(&walk, [("b", 0)])
        #expect(walk.prompt?.step == .outcome(1))
        feed(&walk, [("f", 0)])
        #expect(walk.results[0].verdict == nil, "a failure now needs notes before the check is done again")
        #expect(walk.prompt?.text == "Notes (required, something failed): what happened?")
        feed(&walk, [("audit flags the info button", 0)])
        #expect(walk.results[0].verdict == .fail)
    }

    @Test func skipAndBlockWithAReason() {
        var walk = makeWalk()
        let skipped = feed(&walk, [("s", 0)])
        #expect(skipped.said == ["Result: skipped"])
        #expect(walk.results[0].verdict == .skipped)
        feed(&walk, [("x", 0)])
        #expect(walk.prompt?.text == "Why is this check blocked? (required)")
        let empty = feed(&walk, [("  ", 0)])
        #expect(empty.said.first?.hasPrefix("Say why the check is blocked") == true)
        let blocked = feed(&walk, [("build crashes on launch", 0)])
        #expect(blocked.said == ["Result: blocked: build crashes on launch"])
        #expect(walk.results[1].blockedReason == "build crashes on launch")
        // Back into a blocked or skipped check reopens it.
        let reopened = feed(&walk, [("b", 0)])
        #expect(reopened.said == ["Reopened check 2, which was blocked."])
        #expect(walk.currentCheck == 1)
        #expect(walk.results[1].verdict == nil && walk.results[1].blockedReason == nil)
        feed(&walk, [("b", 0)])
        #expect(walk.currentCheck == 0)
        #expect(walk.prompt?.step == .timing)
    }

    @Test func aDraftCheckWithoutOutcomesAsksForAnOverallVerdict() {
        var walk = makeWalk()
        feed(&walk, [("s", 0), ("s", 0), ("t 3", 0)])
        #expect(walk.prompt?.step == .overall)
        feed(&walk, [("n", 0)])
        #expect(walk.prompt?.step == .overall, "not applicable is no overall verdict")
        let done = feed(&walk, [("f", 40), ("nothing to review yet", 41)])
        #expect(done.said.last == "Result: fail")
        #expect(done.finished)
        #expect(walk.isFinished)
        #expect(done.saves.last?.updatedAt == Self.start.addingTimeInterval(40), "the overall verdict is answered when it is given")
    }

    @Test func helpQuitAndStopwatchKeysAreAvailableEverywhere() {
        var walk = makeWalk()
        let help = walk.handle("?", now: 0, date: Self.start)
        #expect(help.contains(.hint("  b  back     change the previous answer")))
        feed(&walk, [("", 0)])
        #expect(walk.prompt?.mode == .stopwatch)
        let quit = feed(&walk, [("q", 5)])
        #expect(quit.quit)
        #expect(walk.results[0].activeSeconds == nil, "an unfinished timing is asked again on resume")
    }

    @Test func aWalkRebuiltFromSavedAnswersResumesAtTheFirstUnansweredStep() {
        var first = makeWalk()
        let transcript = feed(&first, [("t 5", 0), ("p", 0), ("p", 0), ("", 0), ("t 9", 0), ("10", 0)])
        var saved: [String: CheckResult] = [:]
        for result in transcript.saves { saved[result.check] = result }
        var resumed = makeWalk(results: Array(saved.values))
        #expect(resumed.currentCheck == 1)
        #expect(resumed.prompt?.step == .outcome(1))
        #expect(resumed.results[1].counters["hits"]?.value == 10)
        #expect(resumed.introduce().contains(.heading("Check 2 of 3: sample/touch")))
    }

    @Test func notesAreStoredAsTypedAndShownNeutralised() {
        var walk = makeWalk()
        feed(&walk, [("t 5", 0), ("p", 0), ("p", 0)])
        let hostile = "close \u{1B}]0;pwned\u{07} button \u{1B}[2J"
        let done = feed(&walk, [(hostile, 0)])
        #expect(walk.results[0].notes == hostile)
        #expect(done.said.first == "Notes saved: close \\u{1B}]0;pwned\\u{7} button \\u{1B}[2J")
        #expect(!done.said.joined().contains("\u{1B}"))

        var long = makeWalk()
        feed(&long, [("t 5", 0), ("p", 0), ("p", 0)])
        let paste = String(repeating: "x", count: 100_000)
        let saved = feed(&long, [(paste, 0)])
        #expect(long.results[0].notes?.count == 100_000)
        #expect(saved.said.first?.hasSuffix("… (100000 characters in all)") == true)
    }

    /// The second check, reached by skipping the first.
    func walkAtTouch() -> Walk {
        var walk = makeWalk()
        feed(&walk, [("s", 1)])
        return walk
    }

    @Test func aCounterWithNothingTalliedAsksForTheNumber() {
        var walk = walkAtTouch()
        let transcript = feed(&walk, [("t 30", 2), ("10", 3), ("p", 4), ("", 5)])
        #expect(walk.prompt?.text == "Count of Switch Control stops? Type a number.", "\(transcript.said)")
        let empty = feed(&walk, [("", 6)])
        #expect(empty.said == ["Type the count as a whole number, e.g. 14."], "Enter keeps no zero: \(empty.said)")
        feed(&walk, [("8", 7)])
        #expect(walk.results[1].counters["stops"]?.value == 8)
    }
}
