import CheckrunModel
import Foundation

/// The walk through one session's checks, as a state machine that knows nothing of terminals
/// or databases: it takes the tester's answers as text, and says what to show and what to save.
///
/// Where it stands is derived from the answers themselves (the first check without a verdict,
/// at its first unanswered step), so a session rebuilt from the database resumes exactly there.
package struct Walk: Sendable {
    package let session: Session
    package let plan: [CheckReference]
    package internal(set) var results: [CheckResult]

    /// A step the tester went back to with `b`; answered, the walk returns to where it was.
    var revisit: (check: Int, step: WalkStep)?
    /// Set after `x`, until the reason is given.
    var blocking: Int?
    /// The timer as `x` found it running or paused (paused now), for `b` to give back with its
    /// tally: a block taken back must not cost the timing.
    var timerBeforeBlocking: StopwatchState?
    /// Set after `s` on a check with answers, until the tester confirms or declines.
    var confirmingSkip: Int?
    /// Set after a file is attached, until the tester says what it shows: (check, attachment).
    var describing: (check: Int, position: Int)?
    var stopwatch = StopwatchState.idle
    var announced: Int?
    /// A finished check the tester went back into with `b`, as it stood: concluded again with
    /// nothing changed, it keeps its saved result and time (see `conclude`).
    var reopened: [Int: CheckResult] = [:]
    /// Reopened checks saved since (an answer that left the check incomplete, a timer, a file):
    /// the store no longer holds what `reopened` does, so concluding them always saves.
    var savedSinceReopening: Set<Int> = []

    enum StopwatchState: Sendable, Equatable {
        case idle
        case running(origin: Double)
        case paused(origin: Double)
    }


    /// - Parameters:
    ///   - results: what the session already holds (latest attempt per check), for resuming.
    ///   - nextAttempts: the attempt number, by check name, for a check that has no result in
    ///     this session yet (1 when missing); computed before the walk, so no query runs here.
    ///   - date: when the walk starts: the start of the results it makes.
    ///   - newID: makes each new result's id. The walk reads no clock and makes no id of its own,
    ///     so the same answers at the same times give the same results.
    package init(session: Session, plan: [CheckReference], results existing: [CheckResult], nextAttempts: [String: Int],
                at date: Date, newID: () -> UUID) {
        self.session = session
        self.plan = plan
        // One hash per version of a protocol, not one per check: hashing is the costly part of
        // a long plan. A resumed walk can hold two versions of one protocol (the kept text of a
        // check answered before the file changed, the folder's for a check not begun), and each
        // new result names the version its check is asked from.
        var versions: [String: [(document: ProtocolDocument, hash: String)]] = [:]
        func hash(of document: ProtocolDocument) -> String {
            if let known = versions[document.id]?.first(where: { $0.document == document }) { return known.hash }
            let hash = document.contentHash
            versions[document.id, default: []].append((document, hash))
            return hash
        }
        // The latest attempt of each check, found in one pass: a long plan stays linear.
        var latest: [String: CheckResult] = [:]
        for result in existing where result.attempt >= latest[result.check]?.attempt ?? 0 {
            latest[result.check] = result
        }
        self.results = plan.map { reference in
            var result = latest[reference.name] ?? CheckResult(
                id: newID(), sessionID: session.id, check: reference.name, protocolHash: hash(of: reference.document),
                attempt: nextAttempts[reference.name] ?? 1, outcomeCount: reference.check.expected.count, startedAt: date)
            while result.outcomes.count < reference.check.expected.count { result.outcomes.append(nil) }
            return result
        }
    }

    // MARK: - Where the walk stands

    /// The check being walked: the first one without a verdict.
    package var currentCheck: Int? {
        if let revisit { return revisit.check }
        if let blocking { return blocking }
        return results.indices.first { !isDone($0) }
    }

    /// A check is done when blocked or skipped, or when every step has its answer. (A draft
    /// check's overall verdict is an answer, so a verdict alone does not mean done.)
    package func isDone(_ index: Int) -> Bool {
        let result = results[index]
        if result.verdict?.isSetAside == true { return true }
        let check = plan[index].check
        return result.verdict != nil && WalkStep.steps(for: check).allSatisfy { result.isAnswered($0, check) }
    }

    /// How many checks are done.
    package var doneCount: Int { results.indices.filter(isDone).count }

    package var isFinished: Bool { currentCheck == nil }

    /// Checks of the session's plan this walk does not hold (left out of a resume: their
    /// protocol is not in the folder, or their version is not kept). While any are, the
    /// session is not complete, however far this walk gets.
    package var leftOutCount: Int { session.plan.count - plan.count }

    package var currentStep: WalkStep? {
        if let revisit { return revisit.step }
        guard let index = currentCheck else { return nil }
        if blocking != nil { return .blockReason }
        let check = plan[index].check
        let steps = WalkStep.steps(for: check)
        // Every step answered but no verdict (a skip or block taken back): the last step is asked
        // again, and its answer (Enter keeps it) concludes the check. Without it the walk had
        // nothing to ask and ended, calling the session complete over an open check.
        return steps.first { !results[index].isAnswered($0, check) } ?? steps.last
    }

    package var prompt: Prompt? {
        guard let index = currentCheck, let step = currentStep else { return nil }
        if describing != nil { return Prompt(step: step, text: describingPrompt, mode: .line) }
        if confirmingSkip == index {
            return Prompt(step: step, text: "Skip check \(index + 1) and set its answers aside? Type y to skip, or n (or Enter) to go on.", mode: .line)
        }
        return Prompt(step: step, text: question(for: step, index), mode: isStopwatchRunning && step == .timing ? .stopwatch : .line)
    }

    /// Whether the stopwatch is running or paused: a timing under way.
    package var isStopwatchRunning: Bool {
        if case .idle = stopwatch { return false }
        return true
    }

    /// The lines that introduce the current check, once per check.
    package mutating func introduce() -> [WalkEvent] {
        guard let index = currentCheck, announced != index else { return [] }
        announced = index
        let reference = plan[index]
        let check = reference.check
        var lines: [WalkEvent] = [
            .say(""),
            .heading("Check \(index + 1) of \(plan.count): \(reference.name)"),
            .say("Protocol: \(reference.document.title)"),
            .say("Profile: \(check.profile)"),
            .say("Task: \(check.task)"),
        ]
        if let limit = check.timeLimit { lines.append(.say("Time limit: \(Durations.spoken(Double(limit)))")) }
        for (number, outcome) in check.expected.enumerated() {
            lines.append(.say("Expected \(number + 1) of \(check.expected.count): \(outcome.text)"))
        }
        for counter in check.counters {
            lines.append(.say("Count: \(counter.label)\(counter.ceiling.map { ", at most \($0)" } ?? "")"))
        }
        if let notes = check.notes { lines.append(.say("Tester notes: \(notes)")) }
        if check.review != nil { lines.append(.say("This check is a draft that still needs review.")) }
        if results[index].attempt > 1 { lines.append(.say("Attempt \(results[index].attempt).")) }
        // A check resumed part way says what was already answered.
        let result = results[index]
        if let seconds = result.activeSeconds {
            lines.append(.say("Answered before: time \(Durations.spoken(seconds))."))
        } else if !result.stopwatch.isEmpty {
            // A walk stopped while the timer ran: its timing is asked again, counting stops afresh.
            let tallied = result.tally > 0 ? ", with \(result.tally) stop\(result.tally == 1 ? "" : "s") tallied" : ""
            lines.append(.say("A timing was begun and not finished\(tallied); time the task again."))
        }
        for (number, answer) in result.outcomes.enumerated() {
            if let answer { lines.append(.say("Answered before: expected \(number + 1), \(Self.describe(answer)).")) }
        }
        if !result.attachments.isEmpty {
            let names = result.attachments.map { DisplayText.neutralised($0.name) }.joined(separator: ", ")
            lines.append(.say("Attached before: \(result.attachments.count) file\(result.attachments.count == 1 ? "" : "s") (\(names))."))
        }
        return lines
    }

    // MARK: - Answers

    /// Handles one answer: a line, or a single stopwatch key (Enter is the empty string).
    /// `now` is a monotonic clock reading in seconds.
    package mutating func handle(_ input: String, now: Double, date: Date) -> [WalkEvent] {
        guard let index = currentCheck, let step = currentStep else { return [.finished] }
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        let word = trimmed.lowercased()

        if describing != nil { return answerDescription(input, date: date) }
        if confirmingSkip == index { return answerSkipConfirmation(input, word, index, now: now, date: date) }
        if let request = attachRequest(trimmed, step: step, index: index) { return [.attach(request)] }
        if step == .timing, isStopwatchRunning {
            // Space tallies; it must not be trimmed into an Enter, which stops the timer.
            return handleStopwatchKey(input == " " ? "+" : word, index, now: now, date: date)
        }
        switch word {
        case "?", "help", "h":
            return Self.helpLines.map(WalkEvent.hint)
        case "q", "quit", "exit":
            return [.quit]
        case "b", "back":
            return goBack(date: date)
        case "s", "skip":
            return requestSkip(index, date: date)
        case "x", "block":
            if step == .blockReason { return [.say("Type the reason the check is blocked, or b to go back.")] }
            if let refusal = settingAsideRefusal(index) { return refusal }
            blocking = index
            revisit = nil
            return []
        default:
            break
        }

        switch step {
        case .timing: return answerTiming(trimmed, index, now: now, date: date)
        case .outcome(let number): return answerOutcome(trimmed, number, index, date: date)
        case .counter(let id): return answerCounter(trimmed, id, index, date: date)
        case .overall: return answerOverall(word, index, date: date)
        case .notes: return answerNotes(input, index, date: date)
        case .blockReason: return answerBlockReason(input, index, date: date)
        }
    }
}
