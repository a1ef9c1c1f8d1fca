import CheckrunModel
import Foundation

/// Another writer saved a result of this session while the walk held it (a teammate's
/// amendment, the session resumed in a second terminal): the store refused the walk's save,
/// and the walk goes on from the result as the store holds it.
extension Walk {
    /// Replaces the walk's copy of `stored`'s check with it (the walk's unsaved change to it is
    /// dropped) and says, in words, what the check now holds. A question the tester was in the
    /// middle of on that check is asked again from what is stored.
    package mutating func adopt(_ stored: CheckResult) -> [WalkEvent] {
        guard let index = results.firstIndex(where: { $0.id == stored.id }) ?? results.firstIndex(where: { $0.check == stored.check }) else {
            return []
        }
        let check = plan[index].check
        let timerStopped = currentCheck == index && isStopwatchRunning
        if currentCheck == index { stopwatch = .idle }
        var result = stored
        while result.outcomes.count < check.expected.count { result.outcomes.append(nil) }
        results[index] = result
        if revisit?.check == index { revisit = nil }
        if blocking == index { blocking = nil; timerBeforeBlocking = nil }
        if confirmingSkip == index { confirmingSkip = nil }
        if describing?.check == index { describing = nil }
        // What the check held when the tester went back into it is no longer what is stored.
        reopened[index] = nil
        savedSinceReopening.remove(index)
        // The check is introduced again, with what it already holds, if the walk is on it.
        if announced == index { announced = nil }
        let holds = result.verdict != nil ? "Result: \(result.summary(against: check))" : unfinishedHolds(index)
        var lines: [WalkEvent] = timerStopped ? [.say("The timer was stopped; this timing was not saved.")] : []
        lines.append(.say("Check \(index + 1) now holds what was saved there: \(holds)."))
        return lines
    }

    /// What an unfinished result holds, each answered outcome with its verdict: the tester may
    /// be on another check, and would not hear them until going back to this one.
    private func unfinishedHolds(_ index: Int) -> String {
        let given = answersGiven(index)
        guard !given.isEmpty else { return "nothing answered yet" }
        let answered = results[index].outcomes.enumerated().compactMap { number, answer in
            answer.map { "expected \(number + 1), \(Self.describe($0))" }
        }
        return given.joined(separator: ", ") + (answered.isEmpty ? "" : " (\(answered.joined(separator: "; ")))")
    }
}
