import Foundation

/// How a result is judged against its check: the outcomes decide, a counter over its ceiling
/// fails, and a time over the limit is flagged for the tester (the outcomes say whether it matters).
extension CheckResult {
    /// What went wrong, in words, for the result line and the reports.
    package func failures(against check: Check) -> [String] {
        var reasons: [String] = []
        let failed = outcomes.compactMap { $0 }.filter { $0.verdict == .fail }.count
        if failed > 0 {
            reasons.append("\(failed) of \(check.expected.count) expected outcome\(check.expected.count == 1 ? "" : "s") failed")
        }
        for counter in check.counters {
            if let ceiling = counter.ceiling, let value = counters[counter.id]?.value, value > ceiling {
                reasons.append("\(counter.id) \(value), above the ceiling of \(ceiling)")
            }
        }
        return reasons
    }

    /// The verdict the answers add up to; blocked and skipped are the tester's own word.
    /// A draft check with no expected outcomes keeps the verdict the tester gave it, but for a
    /// pass beside a count over its ceiling, which fails as it does in every other check.
    package func derivedVerdict(against check: Check) -> Verdict {
        if let verdict, verdict.isSetAside { return verdict }
        if let verdict, check.expected.isEmpty, verdict == .fail || failures(against: check).isEmpty { return verdict }
        return failures(against: check).isEmpty ? .pass : .fail
    }

    /// A pass in which no expected outcome passed and every answered one is not applicable: the
    /// check does not apply to what was tested, which is no evidence that it supports what the
    /// check tests (a report's term is then Not Applicable, never Supports).
    package var passedOnlyAsNotApplicable: Bool {
        let answered = outcomes.compactMap { $0 }
        return verdict == .pass && !answered.isEmpty && answered.allSatisfy { $0.verdict == .notApplicable }
    }

    /// Said after a pass made only of outcomes answered not applicable, wherever its verdict is
    /// shown: the record says "pass", and a lead who pastes that beside a report counting the
    /// check as not applicable would claim support the answers never showed.
    package static let nothingApplied = "every expected outcome answered was not applicable"

    /// Whether a skipped or blocked result holds a failure (an outcome answered fail, a count
    /// over its ceiling) the tester saw before setting the check aside: it counts as failed.
    package func failedBeforeSetAside(_ check: Check) -> Bool {
        verdict?.isSetAside == true && !failures(against: check).isEmpty
    }

    /// What `record` and `amend` say after the verdict they saved, where reports count the
    /// result otherwise than the verdict reads; nothing where they count it as it reads.
    package func countingSentences(against check: Check) -> [String] {
        if passedOnlyAsNotApplicable { return ["The verdict is pass, but \(Self.nothingApplied), so reports count it as not applicable."] }
        if failedBeforeSetAside(check) {
            return ["It holds a failure (\(failures(against: check).joined(separator: "; "))), so reports count it as failed: setting a check aside does not fix it."]
        }
        return []
    }

    /// How reports count this result, in the words a summary uses: a failure the tester saw
    /// before setting the check aside counts as failed, a pass made only of outcomes answered
    /// not applicable as not applicable (nil while unfinished). The walk's closing line,
    /// `record`, `amend` and `sessions` count each result so (`sessions` judges a count inside a
    /// skip with `Check.hasCountOverCeiling`); a failure in an earlier build behind a skip is
    /// the report's alone to find.
    package func countedAs(against check: Check) -> String? {
        guard let verdict else { return nil }
        if passedOnlyAsNotApplicable { return "not applicable" }
        if failedBeforeSetAside(check) { return Verdict.fail.pastTense }
        return verdict.pastTense
    }

    /// Whether something failed that no note explains yet, which makes notes required.
    /// A failed outcome answered with its own note ("f Delete fired twice") is explained.
    package func needsNotes(_ check: Check) -> Bool {
        if check.expected.isEmpty { return verdict == .fail }
        return !unexplainedFailureTimes(check).isEmpty
    }

    /// When each failure no note explains was answered: an outcome answered fail without a note
    /// of its own, a count over its ceiling (a ceiling is never below 0, so a count not given is
    /// none over it).
    private func unexplainedFailureTimes(_ check: Check) -> [Date] {
        var failedAt = outcomes.compactMap { answer in
            answer.flatMap { $0.verdict == .fail && ($0.note ?? "").isEmpty ? $0.answeredAt : nil }
        }
        for counter in check.counters {
            guard let ceiling = counter.ceiling, let counted = counters[counter.id], counted.value > ceiling else { continue }
            failedAt.append(counted.answeredAt)
        }
        return failedAt
    }

    /// Whether the notes were written before the newest failure they now have to explain (an
    /// outcome answered fail without a note of its own, a count over its ceiling): written for
    /// a pass ("all good"), they would be filed as the failure's reason, so the walk asks for
    /// them again, and Enter keeps them.
    package func notesPredateAnUnexplainedFailure(_ check: Check) -> Bool {
        guard let notes, !notes.isEmpty, let written = notesAnsweredAt, let failed = latestUnexplainedFailure(check) else { return false }
        return failed > written
    }

    /// When the newest failure that needs the notes was answered, if one does.
    package func latestUnexplainedFailure(_ check: Check) -> Date? {
        guard needsNotes(check) else { return nil }
        return unexplainedFailureTimes(check).max()
    }

    /// Whether this result holds the same answers as `other`, whenever each was given: the same
    /// outcomes, counts, notes, times, stops and attachments. A check looked at again and left as
    /// it was is no new observation, so the walk saves nothing for it (see `Walk.conclude`).
    package func hasSameAnswers(as other: CheckResult) -> Bool {
        guard outcomes.count == other.outcomes.count else { return false }
        var aligned = self
        aligned.verdict = other.verdict
        aligned.updatedAt = other.updatedAt
        aligned.notesAnsweredAt = other.notesAnsweredAt
        for index in aligned.outcomes.indices {
            if let theirs = other.outcomes[index] { aligned.outcomes[index]?.answeredAt = theirs.answeredAt }
        }
        for (name, theirs) in other.counters { aligned.counters[name]?.answeredAt = theirs.answeredAt }
        return aligned.payloadBytes == other.payloadBytes
    }

    /// When anything in the result was last given: its time last answered, or a later note or
    /// attachment that decided nothing (which keeps that time). A record saving it is made then.
    package var lastChangedAt: Date {
        var times = [updatedAt]
        if let notesAnsweredAt { times.append(notesAnsweredAt) }
        times += outcomes.compactMap { $0?.answeredAt } + counters.values.map(\.answeredAt)
        times += stopwatch.map(\.recordedAt) + attachments.map(\.attachedAt)
        return times.max() ?? updatedAt
    }

    /// Whether the timing went over the check's time limit.
    package func isOverTimeLimit(_ check: Check) -> Bool {
        guard let limit = check.timeLimit, let seconds = activeSeconds else { return false }
        return seconds > Double(limit)
    }

    /// "fail, 1 of 3 expected outcomes failed" or "pass, 3 of 3 expected outcomes passed".
    package func summary(against check: Check) -> String {
        guard let verdict else { return "in progress" }
        switch verdict {
        case .blocked: return "blocked" + (blockedReason.map { ": \($0)" } ?? "")
        case .skipped: return "skipped"
        case .fail, .pass:
            var parts = verdict == .fail ? failures(against: check) : []
            if verdict == .pass {
                let answered = outcomes.compactMap { $0 }
                let passed = answered.filter { $0.verdict == .pass }.count
                let notApplicable = answered.filter { $0.verdict == .notApplicable }.count
                if !check.expected.isEmpty {
                    var text = "\(passed) of \(check.expected.count) expected outcome\(check.expected.count == 1 ? "" : "s") passed"
                    if notApplicable > 0 { text += ", \(notApplicable) not applicable" }
                    parts.append(text)
                }
            }
            if isOverTimeLimit(check), let limit = check.timeLimit {
                parts.append("time over the \(limit)-second limit")
            }
            let said = ([verdict.rawValue] + parts).joined(separator: ", ")
            return passedOnlyAsNotApplicable ? "\(said); \(Self.nothingApplied), so reports count it as not applicable" : said
        }
    }
}

extension Check {
    /// Whether any of these counts (by counter id) is over its counter's ceiling: such a count
    /// fails the check, in a skipped or blocked result too.
    package func hasCountOverCeiling(_ counts: [String: Int]) -> Bool {
        counters.contains { counter in counter.ceiling.map { (counts[counter.id] ?? 0) > $0 } ?? false }
    }
}
