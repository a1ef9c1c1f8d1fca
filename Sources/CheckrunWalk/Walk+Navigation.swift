import CheckrunModel
import Foundation

/// Skipping, going back, and moving on once a check is answered.
extension Walk {
    /// `s`: a check with nothing answered is skipped at once; one with answers asks first,
    /// since skipping sets those answers aside under a skipped verdict.
    mutating func requestSkip(_ index: Int, date: Date) -> [WalkEvent] {
        if let refusal = settingAsideRefusal(index) { return refusal }
        let given = answersGiven(index)
        if given.isEmpty { return skip(index, date: date) }
        confirmingSkip = index
        if !results[index].failures(against: plan[index].check).isEmpty {
            return [.say("Check \(index + 1) has answers: \(given.joined(separator: ", ")). Something already failed, so the check still counts as failed once skipped: a skip does not set a failure aside.")]
        }
        return [.say("Check \(index + 1) has answers: \(given.joined(separator: ", ")). Skipping sets them aside: they stay in the record, but the check counts as skipped, not evaluated.")]
    }

    /// A failure no outcome holds (given by `amend` or `record` with notes, or a draft check's
    /// overall fail) lives only in the verdict: a skip or block would overwrite it, and nothing
    /// would show the check failed. The walk refuses to set it aside; `amend` corrects it.
    func settingAsideRefusal(_ index: Int) -> [WalkEvent]? {
        guard results[index].verdict == .fail, results[index].failures(against: plan[index].check).isEmpty else { return nil }
        return [.say("Check \(index + 1) holds a failure that no expected outcome shows, so a skip or block would hide it. It stays failed; checkrun amend corrects it.")]
    }

    /// The answer to "skip it?": y skips; n, no or Enter goes on where the walk was; anything
    /// else is not a yes, and is taken as what it would be at the prompt before (q quits,
    /// "f it fired" answers the outcome), so no line the tester typed is lost.
    mutating func answerSkipConfirmation(_ input: String, _ word: String, _ index: Int, now: Double, date: Date) -> [WalkEvent] {
        switch word {
        case "?", "help", "h":
            return [.hint("y or yes skips the check and sets its answers aside; n, no or Enter keeps them and goes on.")]
        case "y", "yes":
            confirmingSkip = nil
            return skip(index, date: date)
        case "n", "no", "":
            confirmingSkip = nil
            return [.say("Not skipped; check \(index + 1) goes on.")]
        default:
            confirmingSkip = nil
            return [.say("Not skipped.")] + handle(input, now: now, date: date)
        }
    }

    /// What the check already holds, in words, for the skip confirmation.
    func answersGiven(_ index: Int) -> [String] {
        let result = results[index]
        var given: [String] = []
        if let seconds = result.activeSeconds {
            given.append("the time (\(Durations.spoken(seconds)))")
        } else if !result.stopwatch.isEmpty {
            given.append("a timing begun")
        }
        if result.tally > 0 { given.append("\(result.tally) stop\(result.tally == 1 ? "" : "s") tallied") }
        let outcomes = result.outcomes.compactMap { $0 }.count
        if outcomes > 0 { given.append("\(outcomes) of \(result.outcomes.count) expected outcome\(result.outcomes.count == 1 ? "" : "s")") }
        if !result.counters.isEmpty { given.append("\(result.counters.count) count\(result.counters.count == 1 ? "" : "s")") }
        if let notes = result.notes, !notes.isEmpty { given.append("notes") }
        return given
    }

    mutating func skip(_ index: Int, date: Date) -> [WalkEvent] {
        stopwatch = .idle
        revisit = nil
        blocking = nil
        timerBeforeBlocking = nil
        results[index].verdict = .skipped
        return conclude(index, date: date)
    }

    /// `b`: the step before where the walk stands, in this check or the one before.
    mutating func goBack(date: Date) -> [WalkEvent] {
        guard let index = currentCheck, let step = currentStep else { return [] }
        if blocking != nil {
            blocking = nil
            if let timer = timerBeforeBlocking {
                stopwatch = timer
                timerBeforeBlocking = nil
                return [.say("Not blocked. The timer is paused where it was, \(results[index].tally) stop\(results[index].tally == 1 ? "" : "s") tallied: p resumes it, Enter stops it.")]
            }
            return [.say("Not blocked.")]
        }
        var position: [(Int, WalkStep)] = []
        for checkIndex in 0...index {
            let steps = WalkStep.steps(for: plan[checkIndex].check)
            position += steps.map { (checkIndex, $0) }
        }
        guard let here = position.lastIndex(where: { $0.0 == index && $0.1 == step }), here > 0 else {
            return [.say("This is the first question; there is nothing before it.")]
        }
        var target = position[here - 1]
        let previous = results[target.0]
        if target.0 != index, previous.verdict?.isSetAside == true {
            results[target.0].verdict = nil
            results[target.0].blockedReason = nil
            revisit = nil
            announced = nil
            // Saved at once, so `sessions` and `resume` see the check open again.
            return [.save(touch(target.0, date)), .say("Reopened check \(target.0 + 1), which was \(previous.verdict?.rawValue ?? "done").")]
        }
        // Skip back over steps that were never asked (e.g. notes not yet given in this check).
        while !results[target.0].isAnswered(target.1, plan[target.0].check), let earlier = position.lastIndex(where: { $0 == target }), earlier > 0 {
            target = position[earlier - 1]
        }
        revisit = (target.0, target.1)
        if isDone(target.0), reopened[target.0] == nil { reopened[target.0] = results[target.0] }
        if target.0 != index { announced = target.0 }
        return [.say("Back to check \(target.0 + 1): \(describe(target.1, target.0)).")]
    }

    func describe(_ step: WalkStep, _ index: Int) -> String {
        switch step {
        case .timing: return "the time"
        case .outcome(let number): return "expected outcome \(number + 1)"
        case .counter(let id): return "the count of \(id)"
        case .overall: return "the overall result"
        case .notes: return "the notes"
        case .blockReason: return "the reason it is blocked"
        }
    }

    /// After an answer: save, and when the check has every answer, give its result.
    mutating func answered(_ index: Int, date: Date) -> [WalkEvent] {
        revisit = nil
        let check = plan[index].check
        let complete = WalkStep.steps(for: check).allSatisfy { results[index].isAnswered($0, check) }
        if complete {
            return conclude(index, date: date)
        }
        // A changed answer can leave a finished check incomplete (notes now required): its
        // verdict waits until every step is answered again.
        if !check.expected.isEmpty { results[index].verdict = nil }
        return [.save(touch(index, date))]
    }

    mutating func conclude(_ index: Int, date: Date) -> [WalkEvent] {
        let check = plan[index].check
        let derived = results[index].derivedVerdict(against: check)
        let settingAside = derived.isSetAside
        // What the check held before: as it was when the tester went back into it, or as saved
        // (a check resumed with its timing unfinished still holds its verdict).
        let before = reopened[index] ?? results[index]
        if !settingAside, let kept = before.verdict, kept == .pass || kept == .fail {
            // A failure no outcome or count gave (by `record` or `amend`, with notes saying why)
            // is the tester's or the lead's judgement: no answer in the walk turns it into a
            // pass; `amend --verdict pass` does. It keeps needing the notes that say why.
            let given = kept == .fail && before.derivedVerdict(against: check) == .pass
            if given, (results[index].notes ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                results[index].notes = nil
                return [.say("The failure stands, so the notes are required: say why it fails.")]
            }
            if given || derived == kept {
                // Without a copy from going back, what changed cannot be told: it is saved.
                let savedMeanwhile = reopened.removeValue(forKey: index) == nil || savedSinceReopening.contains(index)
                savedSinceReopening.remove(index)
                return concludeAsBefore(index, before, kept: kept, derived: derived, savedMeanwhile: savedMeanwhile)
            }
        }
        // A skip or block of a check gone back into keeps what it held before, so taking the
        // skip back and leaving the check as it was gives it back its time and verdict.
        if !settingAside {
            reopened[index] = nil
            savedSinceReopening.remove(index)
        }
        results[index].verdict = derived
        stamp(index, date)
        let result = results[index]
        var said = "Result: \(result.summary(against: check))"
        if result.failedBeforeSetAside(check) { said += "; it failed before it was set aside, so reports count it as failed" }
        var events: [WalkEvent] = [.save(result), .say(said)]
        if isFinished { events.append(.finished) }
        return events
    }

    /// A finished check gone back into whose verdict the answers leave as it was: it keeps that
    /// verdict (an amended one too) and the time it was answered, which decides the latest
    /// attempt. Looking back, correcting a time or adding a note is no new verdict, and must
    /// not make an old pass outdo a teammate's later failure. With nothing changed at all,
    /// nothing is saved.
    private mutating func concludeAsBefore(_ index: Int, _ before: CheckResult, kept: Verdict, derived: Verdict, savedMeanwhile: Bool) -> [WalkEvent] {
        let check = plan[index].check
        let finished: [WalkEvent] = isFinished ? [.finished] : []
        if !savedMeanwhile, results[index].hasSameAnswers(as: before) {
            results[index] = before
            return [.stands(before), .say("Nothing changed; the saved result stands: \(before.summary(against: check))")] + finished
        }
        results[index].verdict = kept
        results[index].updatedAt = before.updatedAt
        var said = "Result: \(results[index].summary(against: check))"
        if kept != derived {
            said += ". The failure was given, not decided by an outcome, so it stands; checkrun amend --verdict pass changes it."
        }
        return [.save(results[index]), .say(said)] + finished
    }

    /// The result to save after an answer, stamped as answered now. A check that holds a pass
    /// or fail already (gone back into, or resumed with its timing unfinished) keeps the time it
    /// was answered: a timer started, a stop tallied or a file attached there is no new
    /// verdict, and `conclude` decides whether one is given.
    mutating func touch(_ index: Int, _ date: Date) -> CheckResult {
        let decided = results[index].verdict == .pass || results[index].verdict == .fail
        if reopened[index] != nil || !decided { stamp(index, date) }
        return results[index]
    }

    /// Marks a save: in a check gone back into, that it was saved meanwhile (`conclude` then
    /// tells the time it was answered from what it held before); elsewhere, answered now.
    private mutating func stamp(_ index: Int, _ date: Date) {
        if reopened[index] != nil { savedSinceReopening.insert(index) } else { results[index].updatedAt = date }
    }
}
