import CheckrunModel
import Foundation

/// Each step's answer: read, judged where it can be, and kept in the result.
extension Walk {
    mutating func answerOutcome(_ text: String, _ number: Int, _ index: Int, date: Date) -> [WalkEvent] {
        let check = plan[index].check
        let outcome = check.expected[number]
        if text.isEmpty, results[index].outcomes.indices.contains(number), let kept = results[index].outcomes[number] {
            return [.say("Expected \(number + 1): kept, \(Self.describe(kept)).")] + answered(index, date: date)
        }
        var (head, note) = AnswerWords.splitNote(text)
        if let target = outcome.target {
            // The number, then a note, as p, f and n take one: "9 missed once near the grabber".
            let parts = text.split(maxSplits: 1, whereSeparator: \.isWhitespace)
            if AnswerWords.count(head) == nil, parts.count == 2, AnswerWords.count(String(parts[0])) != nil || AnswerWords.numberProblem(String(parts[0])) != nil {
                head = String(parts[0])
                note = String(parts[1]).trimmingCharacters(in: .whitespaces)
            }
            if AnswerWords.outcome(head) == .notApplicable {
                results[index].outcomes[number] = OutcomeAnswer(.notApplicable, note: note, answeredAt: date)
                // A count typed before (then gone back over) is set aside with the outcome it decided.
                results[index].counters[target.counter] = nil
                return [.say("Expected \(number + 1): not applicable.")] + answered(index, date: date)
            }
            // "1 0" is a number typed with a space in it far more often than a count with a
            // note of "0": it was saved as 1.
            if let note, AnswerWords.count(head) != nil, note.allSatisfy({ $0.isNumber || $0.isWhitespace }) {
                return [.say("Type the count as one number, without spaces; a note after it begins with a word, e.g. \(head) missed once near the edge.")]
            }
            guard let value = AnswerWords.count(head) else {
                if let problem = AnswerWords.numberProblem(head) { return [.say(Self.sentence(problem))] }
                return [.say("Type a whole number, e.g. \(target.outOf ?? 10), or n for not applicable.")]
            }
            if let problem = Self.countProblem(value, outOf: target.outOf) { return [.say(problem)] }
            let verdict: OutcomeVerdict = target.isMet(by: value) ? .pass : .fail
            results[index].outcomes[number] = OutcomeAnswer(verdict, value: value, note: note, answeredAt: date)
            results[index].counters[target.counter] = CounterValue(value, answeredAt: date)
            let noted = note.map { ", note: \(DisplayText.preview($0))" } ?? ""
            return [.say("Expected \(number + 1): \(verdict.spoken), \(value)\(target.outOf.map { " of \($0)" } ?? "") against \(target.summary)\(noted).")]
                + answered(index, date: date)
        }
        guard let verdict = AnswerWords.outcome(head) else {
            return [.say("Answer p for pass, f for fail or n for not applicable (or the whole word). Question mark (?) lists the keys.")]
        }
        results[index].outcomes[number] = OutcomeAnswer(verdict, note: note, answeredAt: date)
        let noted = note.map { ", note: \(DisplayText.preview($0))" } ?? ""
        return [.say("Expected \(number + 1): \(verdict.spoken)\(noted).")] + answered(index, date: date)
    }

    mutating func answerCounter(_ text: String, _ id: String, _ index: Int, date: Date) -> [WalkEvent] {
        let value: Int
        let kept = results[index].counters[id]?.value ?? (results[index].tally > 0 ? results[index].tally : nil)
        if text.isEmpty, let kept {
            value = kept
        } else if let typed = AnswerWords.count(text) {
            value = typed
        } else if let problem = AnswerWords.numberProblem(text) {
            return [.say(Self.sentence(problem))]
        } else {
            return [.say("Type the count as a whole number, e.g. 14\(kept.map { ", or press Enter to keep \($0)" } ?? "").")]
        }
        if let problem = Self.countProblem(value, outOf: nil) { return [.say(problem)] }
        let check = plan[index].check
        let failedByCount = !results[index].failures(against: check).isEmpty
        results[index].counters[id] = CounterValue(value, answeredAt: date)
        var lines: [WalkEvent] = [.say("\(id.capitalized): \(value).")]
        if let ceiling = check.counters.first(where: { $0.id == id })?.ceiling, value > ceiling {
            lines.append(.say("That is above the ceiling of \(ceiling): the check fails."))
        }
        // A draft check's fail given while a count failed it (a pass was refused then) may be
        // that refusal's, not the tester's: with the count corrected, the walk says how to pass
        // it. It asks nothing new, so answers piped in for the questions as they were still
        // answer those questions (a new question took the next check's "p" as this verdict).
        if check.expected.isEmpty, results[index].verdict == .fail, failedByCount, results[index].failures(against: check).isEmpty {
            lines.append(.say("The count no longer fails the check, but its fail was given, so it stands. To pass the check, type b at the next question to go back to \"Did it pass?\"."))
        }
        return lines + answered(index, date: date)
    }

    mutating func answerOverall(_ word: String, _ index: Int, date: Date) -> [WalkEvent] {
        // Gone back to, the answer given is shown, and Enter keeps it, as at every other step.
        if word.isEmpty, let kept = results[index].verdict, kept == .pass || kept == .fail {
            return [.say("Overall: kept, \(kept.rawValue).")] + answered(index, date: date)
        }
        guard let verdict = AnswerWords.outcome(word), verdict != .notApplicable else {
            return [.say("Answer p for pass or f for fail.")]
        }
        let given: Verdict = verdict == .pass ? .pass : .fail
        let failures = results[index].failures(against: plan[index].check)
        if given == .pass, !failures.isEmpty {
            return [.say("This check cannot pass: \(failures.joined(separator: "; ")). Answer f for fail, or go back to the count and correct it.")]
        }
        // A draft check's verdict is this answer itself: a new or changed one is answered now.
        if results[index].verdict != given { results[index].updatedAt = date }
        results[index].verdict = given
        return [.say("Overall: \(verdict.spoken).")] + answered(index, date: date)
    }

    /// Notes answered now are never older than the failure they explain: answered on a machine
    /// whose clock ran ahead, that failure is in this clock's future, and notes timed by this
    /// clock would be asked for again and again.
    func notesTime(_ index: Int, _ date: Date) -> Date {
        max(date, results[index].latestUnexplainedFailure(plan[index].check) ?? date)
    }

    mutating func answerNotes(_ text: String, _ index: Int, date: Date) -> [WalkEvent] {
        let check = plan[index].check
        if text.unicodeScalars.count > AnswerLimits.notesLength {
            return [.say("The notes are \(text.unicodeScalars.count) characters; the most is \(AnswerLimits.notesLength). Put long logs in a ticket and paste its link.")]
        }
        if text.isEmpty, let kept = results[index].notes, !kept.isEmpty {
            // Kept for a failure answered after them: now they are its reason, as of now.
            if results[index].notesPredateAnUnexplainedFailure(check) { results[index].notesAnsweredAt = notesTime(index, date) }
            return [.say("Kept the notes.")] + answered(index, date: date)
        }
        if text.trimmingCharacters(in: .whitespaces).isEmpty && results[index].needsNotes(check) {
            return [.say("Something failed, so the notes are required: say what happened, e.g. which control and what it did.")]
        }
        if Self.isKeyOrAnswerWord(text.trimmingCharacters(in: .whitespaces)) {
            return [.say("\"\(DisplayText.neutralised(text.trimmingCharacters(in: .whitespaces)))\" is an answer or a key at the other prompts, not a note. Say what happened in a few words\(results[index].needsNotes(check) ? "" : ", or press Enter for no notes").")]
        }
        let stored = text.trimmingCharacters(in: .whitespaces).isEmpty ? "" : text
        // The same notes again (Enter where there were none) are no new answer: their time stays.
        if results[index].notes != stored || results[index].notesAnsweredAt == nil || results[index].notesPredateAnUnexplainedFailure(check) {
            results[index].notes = stored
            results[index].notesAnsweredAt = notesTime(index, date)
        }
        let echo: WalkEvent = stored.isEmpty ? .say("No notes.") : .say("Notes saved: \(DisplayText.preview(stored))")
        return [echo] + answered(index, date: date)
    }

    mutating func answerBlockReason(_ text: String, _ index: Int, date: Date) -> [WalkEvent] {
        let reason = text.trimmingCharacters(in: .whitespaces)
        guard !reason.isEmpty else { return [.say("Say why the check is blocked, e.g. \"build crashes on launch\", or b to go back.")] }
        if Self.isKeyOrAnswerWord(reason) {
            return [.say("\"\(DisplayText.neutralised(reason))\" is an answer or a key at the other prompts, not a reason. Say why the check is blocked, e.g. \"build crashes on launch\", or b to go back.")]
        }
        blocking = nil
        timerBeforeBlocking = nil
        results[index].verdict = .blocked
        results[index].blockedReason = text
        return conclude(index, date: date)
    }
}
