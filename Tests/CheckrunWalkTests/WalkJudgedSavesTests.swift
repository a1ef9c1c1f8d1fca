import CheckrunModel
import CheckrunWalk
import Foundation
import Testing

/// Every result the walk saves is one `merge` and `verify` take as checkrun's own: a draft
/// check's pass beside a count over its ceiling, or two outcomes counting one counter, were
/// saved by the walk and then named as forged.
@Suite struct WalkJudgedSavesTests {
    static let document = ProtocolDocument(
        id: "judged", title: "Judged", status: .draft, source: "judged.txt", wcag: ["2.5.8"],
        checks: [
            Check(id: "draft", profile: "Switch Control", task: "scan the toolbar", expected: [],
                  counters: [Counter(id: "stops", label: "scan stops", ceiling: 3)], review: "imported"),
            Check(id: "shared", profile: "touch, one hand", task: "close the sheet 10 times",
                  expected: [ExpectedOutcome("at least 8 hits", target: NumericTarget(counter: "hits", atLeast: 8, outOf: 10)),
                             ExpectedOutcome("at most 9 hits, no double fire", target: NumericTarget(counter: "hits", atMost: 9, outOf: 10))],
                  counters: [Counter(id: "hits", label: "hits")]),
        ])
    static var plan: [CheckReference] { document.checks.map { CheckReference(document: document, check: $0) } }

    func makeWalk() -> Walk {
        let session = Session(id: WalkTests.session.id, release: "1", build: "2", plan: Self.plan.map(\.name), startedAt: WalkTests.start)
        return Walk(session: session, plan: Self.plan, results: [], nextAttempts: [:], at: WalkTests.start, newID: WalkTests.sequentialIDs())
    }

    /// Answers fed at one-second steps; every save judged as `merge` judges it.
    @discardableResult
    func feed(_ walk: inout Walk, _ answers: [String], from start: Double = 1) -> (said: [String], saves: [CheckResult]) {
        var said: [String] = [], saves: [CheckResult] = []
        for (offset, answer) in answers.enumerated() {
            let now = start + Double(offset)
            for event in walk.handle(answer, now: now, date: WalkTests.start.addingTimeInterval(now)) {
                if case .say(let line) = event { said.append(line) }
                if case .save(let result) = event { saves.append(result) }
            }
        }
        for saved in saves {
            let check = Self.plan.first { $0.name == saved.check }?.check
            #expect(Judgement.impossibilities(of: saved, against: check).isEmpty, "\(saved.check): \(Judgement.impossibilities(of: saved, against: check))")
        }
        return (said, saves)
    }

    @Test func aDraftCheckCannotPassWithACountOverItsCeiling() {
        var walk = makeWalk()
        let refused = feed(&walk, ["t 30", "5", "p"])
        #expect(refused.said.contains("This check cannot pass: stops 5, above the ceiling of 3. Answer f for fail, or go back to the count and correct it."), "\(refused.said)")
        #expect(walk.results[0].verdict == nil)
        feed(&walk, ["f", "the scan stopped five times"], from: 10)
        #expect(walk.results[0].verdict == .fail)
    }

    @Test func aDraftPassGoneBackToAndCountedOverItsCeilingFails() {
        var walk = makeWalk()
        feed(&walk, ["t 30", "2", "p", ""])
        #expect(walk.results[0].verdict == .pass)
        // Back to the check, back to its count, and a count over the ceiling.
        feed(&walk, ["b", "b", "b", "6"], from: 10)
        let judged = feed(&walk, ["", "", "the scan stopped six times"], from: 20)
        #expect(walk.results[0].verdict != .pass, "\(judged.said)")
    }

    /// A fail given because the pass was refused for a count over the ceiling, then the count
    /// corrected below it: the fail may be only the refused pass's, so the walk says how to pass
    /// it (it was kept without a word). It asks nothing new: answers piped in for the questions
    /// as they were still answer those questions, and the fail stands unless the tester goes back.
    @Test func aFailGivenForACountOverItsCeilingSaysHowToPassOnceTheCountIsCorrected() {
        var walk = makeWalk()
        feed(&walk, ["t 30", "7", "p", "f"])
        #expect(walk.results[0].verdict == .fail && walk.prompt?.step == .notes)
        let corrected = feed(&walk, ["b", "b", "2"], from: 10)
        #expect(corrected.said.contains("The count no longer fails the check, but its fail was given, so it stands. To pass the check, type b at the next question to go back to \"Did it pass?\"."), "\(corrected.said)")
        #expect(walk.prompt?.step == .notes && walk.results[0].verdict == .fail, "\(String(describing: walk.prompt))")
        feed(&walk, ["b"], from: 20)
        #expect(walk.prompt?.step == .overall && walk.prompt?.text.hasSuffix("Now: fail; Enter keeps it.") == true, "\(String(describing: walk.prompt))")
        feed(&walk, ["p", ""], from: 30)
        #expect(walk.results[0].verdict == .pass)
    }

    @Test func twoOutcomesCountingOneCounterAreSavedAsTheyWereAnswered() {
        var walk = makeWalk()
        feed(&walk, ["s"])
        let answered = feed(&walk, ["t 30", "10", "7", ""], from: 2)
        #expect(walk.results[1].outcomes[0]?.value == 10 && walk.results[1].outcomes[1]?.value == 7, "\(answered.said)")
        #expect(walk.results[1].verdict == .pass)
    }
}
