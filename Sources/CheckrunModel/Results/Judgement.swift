/// The one judge of a result against its check, for every way a result arrives: the walk,
/// `record`, `amend` and `merge`. A result that contradicts itself or its check (a pass with a
/// failed outcome, a count beyond what is possible, a failure with no reason) is never stored,
/// and what `record` and `amend` store always passes `impossibilities`, as `verify` judges it.
package enum Judgement {
    /// What in `result` contradicts `check`, in words; empty when it holds together. Without a
    /// check (a merge from a database whose protocols are not here) only the rules that need no
    /// check apply.
    package static func contradictions(of result: CheckResult, against check: Check?) -> [String] {
        var found: [String] = []
        if let check { found += countProblems(result, check) }
        let overCeiling = check.map { overCeilingCounters(result, $0) } ?? []
        if result.verdict == .pass, !overCeiling.isEmpty {
            found.append("the verdict is pass, but \(overCeiling.joined(separator: " and ")) is above its ceiling")
        }
        if result.verdict == .fail {
            let notes = result.notes?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if failedOutcomes(result).isEmpty && overCeiling.isEmpty && notes.isEmpty {
                found.append("the verdict is fail, but no expected outcome failed, no count is over its ceiling and there are no notes saying why")
            } else if let check, result.needsNotes(check), notes.isEmpty {
                found.append("something failed that no note explains; notes are required")
            }
        }
        // Nor is anything saved that `verify` would call forged (an outcome holding another
        // number than its counter, say): the rules it judges stored records by hold here too.
        return found + impossibilities(of: result, against: check).filter { !found.contains($0) }
    }

    /// The contradictions no record checkrun saves can hold, even of a walk stopped midway (a
    /// draft check's failure is saved before its notes are asked, so a failure without a
    /// reason is not among them): a pass beside a failed outcome, a block without its reason,
    /// a reason on a result that is not blocked. Such a record was forged, its hash with it;
    /// `verify` and the reports name it.
    package static func forgeries(of result: CheckResult) -> [String] {
        var found: [String] = []
        let failed = failedOutcomes(result)
        if result.verdict == .pass, !failed.isEmpty {
            found.append("the verdict is pass, but expected outcome \(failed.map(String.init).joined(separator: ", ")) failed")
        }
        if result.verdict == .blocked, (result.blockedReason ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            found.append("a blocked result needs the reason it could not be done")
        }
        if let verdict = result.verdict, verdict != .blocked, result.blockedReason != nil {
            found.append("the result is not blocked, but it still carries a blocked reason")
        }
        return found
    }

    /// The places (from 1) of the outcomes answered fail.
    private static func failedOutcomes(_ result: CheckResult) -> [Int] {
        result.outcomes.enumerated().filter { $0.element?.verdict == .fail }.map { $0.offset + 1 }
    }

    /// Counts beyond what an outcome allows, and outcome verdicts their own counts contradict.
    private static func countProblems(_ result: CheckResult, _ check: Check) -> [String] {
        var found: [String] = []
        for (index, outcome) in check.expected.enumerated() {
            guard let target = outcome.target, let value = result.counters[target.counter]?.value else { continue }
            if let outOf = target.outOf, value > outOf {
                found.append("\(target.counter) \(value) is more than the \(outOf) possible in \"\(outcome.text)\"")
                continue
            }
            guard index < result.outcomes.count, let answer = result.outcomes[index] else { continue }
            // A count against the target decides the outcome: one marked not applicable beside
            // it would set a failing count aside and let the check pass.
            if answer.verdict == .notApplicable {
                found.append("expected outcome \(index + 1) is not applicable, but \(target.counter) \(value) was counted against \(target.summary); leave the count out or answer the outcome")
                continue
            }
            let judged: OutcomeVerdict = target.isMet(by: value) ? .pass : .fail
            if answer.verdict != judged {
                found.append("expected outcome \(index + 1) is \(answer.verdict.rawValue), but \(target.counter) \(value) against \(target.summary) is a \(judged.rawValue)")
            }
        }
        return found
    }

    static func overCeilingCounters(_ result: CheckResult, _ check: Check) -> [String] {
        check.counters.compactMap { counter in
            guard let ceiling = counter.ceiling, let value = result.counters[counter.id]?.value, value > ceiling else { return nil }
            return "\(counter.id) \(value)"
        }
    }

    /// The outcome verdicts the counts decide, for outcomes with a numeric target that were
    /// given a count but no verdict (as `record --count hits=9` gives).
    package static func fillOutcomesFromCounts(_ result: inout CheckResult, against check: Check) {
        for (index, outcome) in check.expected.enumerated() {
            guard let target = outcome.target, let value = result.counters[target.counter]?.value, index < result.outcomes.count else { continue }
            if result.outcomes[index] == nil {
                let answeredAt = result.counters[target.counter]?.answeredAt ?? result.updatedAt
                result.outcomes[index] = OutcomeAnswer(target.isMet(by: value) ? .pass : .fail, value: value, answeredAt: answeredAt)
            }
        }
    }
}
