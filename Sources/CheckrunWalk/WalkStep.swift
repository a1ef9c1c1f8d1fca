import CheckrunModel

/// One question of a check, in the order the walk asks them.
package enum WalkStep: Sendable, Equatable {
    /// The stopwatch: start, pause, tally, stop, or a typed time.
    case timing
    /// Expected outcome N (0-based): pass, fail or not applicable, or a number for a target.
    case outcome(Int)
    /// A counter not already given by a numeric outcome; the tally is its default.
    case counter(String)
    /// A draft check with no expected outcomes: did it pass?
    case overall
    /// Notes: required when anything failed, optional otherwise.
    case notes
    /// Why the check is blocked (after `x`).
    case blockReason

    /// The steps of a check, in order.
    static func steps(for check: Check) -> [WalkStep] {
        var steps: [WalkStep] = [.timing]
        steps += check.expected.indices.map { .outcome($0) }
        let targeted = Set(check.expected.compactMap { $0.target?.counter })
        steps += check.counters.filter { !targeted.contains($0.id) }.map { .counter($0.id) }
        if check.expected.isEmpty { steps.append(.overall) }
        steps.append(.notes)
        return steps
    }
}

extension CheckResult {
    func isAnswered(_ step: WalkStep, _ check: Check) -> Bool {
        switch step {
        case .timing: return activeSeconds != nil
        case .outcome(let index): return outcomes.indices.contains(index) && outcomes[index] != nil
        case .counter(let id): return counters[id] != nil
        case .overall: return verdict != nil
        case .notes:
            guard let notes else { return false }
            return !(notes.isEmpty && needsNotes(check)) && !notesPredateAnUnexplainedFailure(check)
        case .blockReason: return blockedReason != nil
        }
    }
}
