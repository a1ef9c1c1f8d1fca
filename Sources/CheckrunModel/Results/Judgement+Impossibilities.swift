/// The rules `merge` and `verify` judge stored results by: what no walk, `record` or `amend`
/// saves, so a record holding it was forged, hash and all.
extension Judgement {
    /// What no record checkrun saves can hold, judged against `check`, the check as the version
    /// the result names had it (nil when that version is not kept): the forgeries, and counts
    /// nothing saves (beyond what is possible, contradicting their outcome's verdict, a pass
    /// above a ceiling, a counter the check does not have). Not the rules on notes: a walk saves
    /// a failure before it asks why. A count forged behind a pass cannot stand.
    package static func impossibilities(of result: CheckResult, against check: Check?) -> [String] {
        guard let check else { return forgeries(of: result) }
        var found = impossibleCounts(result, check)
        // A draft check (no expected outcomes) kept the tester's pass beside a count over its
        // ceiling in walks before the walk judged it, so only a check with outcomes is held to it.
        let overCeiling = overCeilingCounters(result, check)
        if result.verdict == .pass, !overCeiling.isEmpty, !check.expected.isEmpty {
            found.append("the verdict is pass, but \(overCeiling.joined(separator: " and ")) is above its ceiling")
        }
        // Every walk, `record` and `amend` answers the outcomes of the version it names, and
        // only a counted outcome holds a number.
        for (index, answer) in result.outcomes.enumerated() where answer != nil && index >= check.expected.count {
            found.append("it answers expected outcome \(index + 1), which the check does not have")
        }
        for (index, outcome) in check.expected.enumerated() where outcome.target == nil && index < result.outcomes.count {
            if let value = result.outcomes[index]?.value { found.append("expected outcome \(index + 1) holds the count \(value), but it counts nothing") }
        }
        let known = Set(check.counters.map(\.id) + check.expected.compactMap { $0.target?.counter })
        for name in result.counters.keys.sorted() where !known.contains(name) {
            found.append("it counts \(DisplayText.preview(name, limit: 40)), which the check does not have")
        }
        return found + forgeries(of: result)
    }

    /// Each numeric outcome's own number against its target. Its counter holds the same number
    /// when no other outcome targets it; one that two outcomes target holds the one answered
    /// last, each outcome keeping its own, so it is compared only when this outcome is its one.
    private static func impossibleCounts(_ result: CheckResult, _ check: Check) -> [String] {
        var found: [String] = []
        let targeted = check.expected.compactMap { $0.target?.counter }
        for (index, outcome) in check.expected.enumerated() {
            guard let target = outcome.target else { continue }
            let answer = index < result.outcomes.count ? result.outcomes[index] : nil
            let counted = targeted.filter { $0 == target.counter }.count == 1 ? result.counters[target.counter]?.value : nil
            if let answer, answer.verdict == .notApplicable {
                if let value = answer.value { found.append("expected outcome \(index + 1) is not applicable, but holds the count \(value)") }
                continue
            }
            guard let value = answer?.value ?? counted else { continue }
            if let outOf = target.outOf, value > outOf {
                found.append("\(target.counter) \(value) is more than the \(outOf) possible in \"\(outcome.text)\"")
                continue
            }
            if let counted, counted != value {
                found.append("expected outcome \(index + 1) was answered \(value), but \(target.counter) holds \(counted)")
            }
            guard let answer else { continue }
            let judged: OutcomeVerdict = target.isMet(by: value) ? .pass : .fail
            if answer.verdict != judged {
                found.append("expected outcome \(index + 1) is \(answer.verdict.rawValue), but \(target.counter) \(value) against \(target.summary) is a \(judged.rawValue)")
            }
        }
        return found
    }
}
