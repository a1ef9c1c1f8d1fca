import CheckrunModel
import Foundation

/// The walk through one session's checks, as a state machine that knows nothing of terminals
/// or databases: it takes the tester's answers as text, and says what to show and what to save.
///
/// Where it stands is derived from the answers themselves (the first check without a verdict,
/// at its first unanswered step), so a session rebuilt from the database resumes exactly there.
public struct Walk: Sendable {
    public let session: Session
    public let plan: [CheckReference]
    public private(set) var results: [CheckResult]

    /// A step the tester went back to with `b`; answered, the walk returns to where it was.
    private var revisit: (check: Int, step: WalkStep)?
    /// Set after `x`, until the reason is given.
    private var blocking: Int?
    private var stopwatch = StopwatchState.idle
    private var announced: Int?

    enum StopwatchState: Sendable, Equatable {
        case idle
        case running(origin: Double)
        case paused(origin: Double)
    }

    /// Notes longer than this are refused: a paste of a whole log belongs in a ticket.
    public static let maximumNotesLength = 1_000_000
    /// Counts above this are surely a typing slip.
    public static let maximumCount = 100_000

    /// - Parameters:
    ///   - results: what the session already holds (latest attempt per check), for resuming.
    ///   - nextAttempts: the attempt number, by check name, for a check that has no result in
    ///     this session yet (1 when missing); computed before the walk, so no query runs here.
    public init(session: Session, plan: [CheckReference], results existing: [CheckResult], nextAttempts: [String: Int]) {
        self.session = session
        self.plan = plan
        // One hash per protocol, not one per check: hashing is the costly part of a long plan.
        var hashes: [String: String] = [:]
        for reference in plan where hashes[reference.document.id] == nil {
            hashes[reference.document.id] = reference.document.contentHash
        }
        // The latest attempt of each check, found in one pass: a long plan stays linear.
        var latest: [String: CheckResult] = [:]
        for result in existing where result.attempt >= latest[result.check]?.attempt ?? 0 {
            latest[result.check] = result
        }
        self.results = plan.map { reference in
            var result = latest[reference.name] ?? CheckResult(
                sessionID: session.id, check: reference.name, protocolHash: hashes[reference.document.id] ?? "",
                attempt: nextAttempts[reference.name] ?? 1, outcomeCount: reference.check.expected.count)
            while result.outcomes.count < reference.check.expected.count { result.outcomes.append(nil) }
            return result
        }
    }

    // MARK: - Where the walk stands

    /// The check being walked: the first one without a verdict.
    public var currentCheck: Int? {
        if let revisit { return revisit.check }
        if let blocking { return blocking }
        return results.indices.first { !isDone($0) }
    }

    /// A check is done when blocked or skipped, or when every step has its answer. (A draft
    /// check's overall verdict is an answer, so a verdict alone does not mean done.)
    public func isDone(_ index: Int) -> Bool {
        let result = results[index]
        if result.verdict == .blocked || result.verdict == .skipped { return true }
        let check = plan[index].check
        return result.verdict != nil && WalkStep.steps(for: check).allSatisfy { result.isAnswered($0, check) }
    }

    /// How many checks are done.
    public var doneCount: Int { results.indices.filter(isDone).count }

    public var isFinished: Bool { currentCheck == nil }

    public var currentStep: WalkStep? {
        if let revisit { return revisit.step }
        guard let index = currentCheck else { return nil }
        if blocking != nil { return .blockReason }
        let check = plan[index].check
        return WalkStep.steps(for: check).first { !results[index].isAnswered($0, check) }
    }

    public var prompt: Prompt? {
        guard let index = currentCheck, let step = currentStep else { return nil }
        return Prompt(step: step, text: question(for: step, index), mode: isStopwatchRunning && step == .timing ? .stopwatch : .line)
    }

    private var isStopwatchRunning: Bool {
        if case .idle = stopwatch { return false }
        return true
    }

    /// The lines that introduce the current check, once per check.
    public mutating func introduce() -> [WalkEvent] {
        guard let index = currentCheck, announced != index else { return [] }
        announced = index
        let reference = plan[index]
        let check = reference.check
        var lines: [WalkEvent] = [
            .say(""),
            .say("Check \(index + 1) of \(plan.count): \(reference.name)"),
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
        if let seconds = result.activeSeconds { lines.append(.say("Answered before: time \(Durations.spoken(seconds)).")) }
        for (number, answer) in result.outcomes.enumerated() {
            if let answer { lines.append(.say("Answered before: expected \(number + 1), \(Self.describe(answer)).")) }
        }
        return lines
    }

    // MARK: - Questions

    private func question(for step: WalkStep, _ index: Int) -> String {
        let check = plan[index].check
        let result = results[index]
        switch step {
        case .timing:
            switch stopwatch {
            case .running: return "Enter stops the timer, p pauses, space or plus (+) tallies a stop, minus (-) takes one back."
            case .paused: return "p resumes the timer, Enter stops it."
            case .idle:
                if let seconds = result.activeSeconds, revisit != nil {
                    return "Time: \(Durations.spoken(seconds)). Enter keeps it, \"start\" times again, or type t 1:20."
                }
                return "Press Enter to start the stopwatch, or type the time, e.g. t 80 or t 1:20."
            }
        case .outcome(let number):
            let outcome = check.expected[number]
            let position = "Expected \(number + 1) of \(check.expected.count): \(outcome.text)."
            // Gone back to, the answer given is shown, and Enter keeps it.
            let now = result.outcomes.indices.contains(number) ? result.outcomes[number].map { " Now: \(Self.describe($0)); Enter keeps it." } ?? "" : ""
            if let target = outcome.target {
                let label = check.counters.first { $0.id == target.counter }?.label ?? target.counter
                return "\(position) How many \(label)? Target: \(target.summary). Type a number, or n for not applicable.\(now)"
            }
            return "\(position) Pass, fail or not applicable? (p, f, n)\(now)"
        case .counter(let id):
            let counter = check.counters.first { $0.id == id }
            let label = counter?.label ?? id
            // With nothing counted yet there is no default: a zero pressed by habit would pull a
            // build's median down and hide a regression.
            guard let current = result.counters[id]?.value ?? (result.tally > 0 ? result.tally : nil) else {
                return "Count of \(label)? Type a number."
            }
            return "Count of \(label)? Enter keeps \(current)\(result.counters[id] == nil ? " (the tally)" : ""), or type a number."
        case .overall:
            return "No expected outcomes are written for this check yet. Did it pass? (p, f)"
        case .notes:
            if let notes = result.notes, !notes.isEmpty { return "Notes? Now: \(DisplayText.preview(notes, limit: 80)); Enter keeps them." }
            if result.needsNotes(check) { return "Notes (required, something failed): what happened?" }
            return "Notes (optional, Enter for none):"
        case .blockReason:
            return "Why is this check blocked? (required)"
        }
    }

    public static let helpLines = [
        "Keys at every prompt (a single letter or the whole word):",
        "  ?  help     this list",
        "  b  back     change the previous answer",
        "  s  skip     skip this check",
        "  x  block    mark this check blocked, with a reason",
        "  q  quit     save and stop; resume later with checkrun resume",
        "Stopwatch: Enter starts and stops it, p pauses and resumes, space or plus (+) tallies a stop,",
        "  minus (-) takes one back; t 80, t 1:20 or t 1m20s types the time instead.",
        "Expected outcomes: p or pass, f or fail, n or na (not applicable); add a note after it: f Delete fired.",
        "Everything is saved as soon as you answer.",
    ]

    // MARK: - Answers

    /// Handles one answer: a line, or a single stopwatch key (Enter is the empty string).
    /// `now` is a monotonic clock reading in seconds.
    public mutating func handle(_ input: String, now: Double, date: Date = Date()) -> [WalkEvent] {
        guard let index = currentCheck, let step = currentStep else { return [.finished] }
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        let word = trimmed.lowercased()

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
            return skip(index, date: date)
        case "x", "block":
            if step == .blockReason { return [.say("Type the reason the check is blocked, or b to go back.")] }
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

    private mutating func handleStopwatchKey(_ key: String, _ index: Int, now: Double, date: Date) -> [WalkEvent] {
        switch (key, stopwatch) {
        case ("", .running(let origin)), ("", .paused(let origin)), ("stop", .running(let origin)), ("stop", .paused(let origin)):
            results[index].stopwatch.append(StopwatchEvent(.stop, at: now - origin, recordedAt: date))
            stopwatch = .idle
            let seconds = results[index].activeSeconds ?? 0
            var lines: [WalkEvent] = [.say("Timer stopped: \(Durations.spoken(seconds)).")]
            if results[index].tally > 0 { lines.append(.say("Stops tallied in this timing: \(results[index].tally).")) }
            if let limit = plan[index].check.timeLimit, seconds > Double(limit) {
                lines.append(.say("That is over the time limit of \(Durations.spoken(Double(limit)))."))
            }
            return lines + answered(index, date: date)
        case ("p", .running(let origin)), ("pause", .running(let origin)):
            results[index].stopwatch.append(StopwatchEvent(.pause, at: now - origin, recordedAt: date))
            stopwatch = .paused(origin: origin)
            return [.say("Timer paused."), .save(touch(index, date))]
        case ("p", .paused(let origin)), ("resume", .paused(let origin)):
            results[index].stopwatch.append(StopwatchEvent(.resume, at: now - origin, recordedAt: date))
            stopwatch = .running(origin: origin)
            return [.say("Timer resumed."), .save(touch(index, date))]
        case ("+", _), ("=", _), ("tally", _):
            results[index].tally += 1
            return [.say("\(results[index].tally) stop\(results[index].tally == 1 ? "" : "s") tallied."), .save(touch(index, date))]
        case ("-", _):
            guard results[index].tally > 0 else { return [.say("No stops tallied yet.")] }
            results[index].tally -= 1
            return [.say("Took one back: \(results[index].tally) stop\(results[index].tally == 1 ? "" : "s") tallied."), .save(touch(index, date))]
        case ("?", _), ("help", _):
            return Self.helpLines.map(WalkEvent.hint)
        case ("s", _), ("skip", _):
            return skip(index, date: date)
        case ("x", _), ("block", _):
            stopwatch = .idle
            blocking = index
            return [.say("Timer stopped without a time.")]
        case ("b", _), ("back", _):
            return [.say("Stop the timer first (Enter), then b goes back.")]
        case ("q", _), ("quit", _):
            return [.say("The timing was not finished; it will be asked again when you resume."), .quit]
        default:
            return [.say("While the timer runs: Enter stops it, p pauses or resumes, space or plus (+) tallies a stop, minus (-) takes one back, q saves and quits.")]
        }
    }

    private mutating func answerTiming(_ text: String, _ index: Int, now: Double, date: Date) -> [WalkEvent] {
        let lower = text.lowercased()
        if text.isEmpty, revisit != nil, results[index].activeSeconds != nil {
            revisit = nil
            return [.say("Kept the time.")]
        }
        if text.isEmpty || lower == "start" {
            stopwatch = .running(origin: now)
            // A tally belongs to one timing: a new timing counts its stops afresh.
            results[index].tally = 0
            results[index].stopwatch.append(StopwatchEvent(.start, at: 0, recordedAt: date))
            return [.say("Timer started."), .save(touch(index, date))]
        }
        if lower.hasPrefix("t ") || lower.hasPrefix("t=") || lower == "t" || lower.hasPrefix("time ") {
            let value = lower.hasPrefix("time ") ? String(text.dropFirst(5)) : String(text.dropFirst(1)).trimmingCharacters(in: CharacterSet(charactersIn: " ="))
            guard let seconds = Durations.parse(value) else {
                return [.say("\"\(DisplayText.neutralised(value))\" is not a time. Type t 80 (seconds), t 1:20 (minutes:seconds) or t 1m20s.")]
            }
            guard seconds <= 24 * 3600 else {
                return [.say("\(Durations.spoken(seconds)) is more than a day; type the time the task took, e.g. t 1:20.")]
            }
            results[index].stopwatch.append(StopwatchEvent(.typed, at: 0, typedSeconds: seconds, recordedAt: date))
            var lines: [WalkEvent] = [.say("Time: \(Durations.spoken(seconds)).")]
            if let limit = plan[index].check.timeLimit, seconds > Double(limit) {
                lines.append(.say("That is over the time limit of \(Durations.spoken(Double(limit)))."))
            }
            return lines + answered(index, date: date)
        }
        return [.say("Press Enter to start the stopwatch, or type the time as t 80, t 1:20 or t 1m20s. Question mark (?) lists the keys.")]
    }

    private mutating func answerOutcome(_ text: String, _ number: Int, _ index: Int, date: Date) -> [WalkEvent] {
        let check = plan[index].check
        let outcome = check.expected[number]
        if text.isEmpty, results[index].outcomes.indices.contains(number), let kept = results[index].outcomes[number] {
            return [.say("Expected \(number + 1): kept, \(Self.describe(kept)).")] + answered(index, date: date)
        }
        var (head, note) = Self.splitNote(text)
        if let target = outcome.target {
            // The number, then a note, as p, f and n take one: "9 missed once near the grabber".
            let parts = text.split(maxSplits: 1, whereSeparator: \.isWhitespace)
            if Int(head) == nil, parts.count == 2, Int(parts[0]) != nil {
                head = String(parts[0])
                note = String(parts[1]).trimmingCharacters(in: .whitespaces)
            }
            if ["n", "na", "n/a", "not applicable"].contains(head.lowercased()) {
                results[index].outcomes[number] = OutcomeAnswer(.notApplicable, note: note, answeredAt: date)
                return [.say("Expected \(number + 1): not applicable.")] + answered(index, date: date)
            }
            guard let value = Int(head) else {
                return [.say("Type a whole number, e.g. \(target.outOf ?? 10), or n for not applicable.")]
            }
            if let problem = Self.countProblem(value, outOf: target.outOf) { return [.say(problem)] }
            let verdict: OutcomeVerdict = target.isMet(by: value) ? .pass : .fail
            results[index].outcomes[number] = OutcomeAnswer(verdict, value: value, note: note, answeredAt: date)
            results[index].counters[target.counter] = CounterValue(value, answeredAt: date)
            return [.say("Expected \(number + 1): \(verdict.spoken), \(value)\(target.outOf.map { " of \($0)" } ?? "") against \(target.summary).")]
                + answered(index, date: date)
        }
        guard let verdict = Self.outcomeVerdict(head) else {
            return [.say("Answer p for pass, f for fail or n for not applicable (or the whole word). Question mark (?) lists the keys.")]
        }
        results[index].outcomes[number] = OutcomeAnswer(verdict, note: note, answeredAt: date)
        let noted = note.map { ", note: \(DisplayText.preview($0))" } ?? ""
        return [.say("Expected \(number + 1): \(verdict.spoken)\(noted).")] + answered(index, date: date)
    }

    private mutating func answerCounter(_ text: String, _ id: String, _ index: Int, date: Date) -> [WalkEvent] {
        let value: Int
        let kept = results[index].counters[id]?.value ?? (results[index].tally > 0 ? results[index].tally : nil)
        if text.isEmpty, let kept {
            value = kept
        } else if let typed = Int(text) {
            value = typed
        } else {
            return [.say("Type the count as a whole number, e.g. 14\(kept.map { ", or press Enter to keep \($0)" } ?? "").")]
        }
        if let problem = Self.countProblem(value, outOf: nil) { return [.say(problem)] }
        results[index].counters[id] = CounterValue(value, answeredAt: date)
        var lines: [WalkEvent] = [.say("\(id.capitalized): \(value).")]
        if let ceiling = plan[index].check.counters.first(where: { $0.id == id })?.ceiling, value > ceiling {
            lines.append(.say("That is above the ceiling of \(ceiling): the check fails."))
        }
        return lines + answered(index, date: date)
    }

    private mutating func answerOverall(_ word: String, _ index: Int, date: Date) -> [WalkEvent] {
        guard let verdict = Self.outcomeVerdict(word), verdict != .notApplicable else {
            return [.say("Answer p for pass or f for fail.")]
        }
        results[index].verdict = verdict == .pass ? .pass : .fail
        return [.say("Overall: \(verdict.spoken).")] + answered(index, date: date)
    }

    private mutating func answerNotes(_ text: String, _ index: Int, date: Date) -> [WalkEvent] {
        let check = plan[index].check
        if text.unicodeScalars.count > Self.maximumNotesLength {
            return [.say("The notes are \(text.unicodeScalars.count) characters; the most is \(Self.maximumNotesLength). Put long logs in a ticket and paste its link.")]
        }
        if text.isEmpty, let kept = results[index].notes, !kept.isEmpty {
            return [.say("Kept the notes.")] + answered(index, date: date)
        }
        if text.trimmingCharacters(in: .whitespaces).isEmpty && results[index].needsNotes(check) {
            return [.say("Something failed, so the notes are required: say what happened, e.g. which control and what it did.")]
        }
        let stored = text.trimmingCharacters(in: .whitespaces).isEmpty ? "" : text
        results[index].notes = stored
        results[index].notesAnsweredAt = date
        let echo: WalkEvent = stored.isEmpty ? .say("No notes.") : .say("Notes saved: \(DisplayText.preview(stored))")
        return [echo] + answered(index, date: date)
    }

    private mutating func answerBlockReason(_ text: String, _ index: Int, date: Date) -> [WalkEvent] {
        let reason = text.trimmingCharacters(in: .whitespaces)
        guard !reason.isEmpty else { return [.say("Say why the check is blocked, e.g. \"build crashes on launch\", or b to go back.")] }
        blocking = nil
        results[index].verdict = .blocked
        results[index].blockedReason = text
        return conclude(index, date: date)
    }

    private mutating func skip(_ index: Int, date: Date) -> [WalkEvent] {
        stopwatch = .idle
        revisit = nil
        blocking = nil
        results[index].verdict = .skipped
        return conclude(index, date: date)
    }

    /// `b`: the step before where the walk stands, in this check or the one before.
    private mutating func goBack(date: Date) -> [WalkEvent] {
        guard let index = currentCheck, let step = currentStep else { return [] }
        if blocking != nil {
            blocking = nil
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
        if target.0 != index, previous.verdict == .skipped || previous.verdict == .blocked {
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
        if target.0 != index { announced = target.0 }
        return [.say("Back to check \(target.0 + 1): \(describe(target.1, target.0)).")]
    }

    private func describe(_ step: WalkStep, _ index: Int) -> String {
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
    private mutating func answered(_ index: Int, date: Date) -> [WalkEvent] {
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

    private mutating func conclude(_ index: Int, date: Date) -> [WalkEvent] {
        let check = plan[index].check
        results[index].verdict = results[index].derivedVerdict(against: check)
        let result = touch(index, date)
        var events: [WalkEvent] = [.save(result), .say("Result: \(result.summary(against: check))")]
        if isFinished { events.append(.finished) }
        return events
    }

    private mutating func touch(_ index: Int, _ date: Date) -> CheckResult {
        results[index].updatedAt = date
        return results[index]
    }

    // MARK: - Reading answers

    /// "f Delete fired twice" → ("f", "Delete fired twice").
    static func splitNote(_ text: String) -> (String, String?) {
        let lowered = text.lowercased()
        for word in ["not applicable", "pass", "fail", "n/a", "na", "p", "f", "n", "y", "yes", "no"] where lowered.hasPrefix(word + " ") {
            let note = String(text.dropFirst(word.count)).trimmingCharacters(in: .whitespaces)
            return (String(text.prefix(word.count)), note.isEmpty ? nil : note)
        }
        return (text, nil)
    }

    /// "fail, 9, note: missed once": an answer as the prompt shows it when gone back to.
    static func describe(_ answer: OutcomeAnswer) -> String {
        var text = answer.verdict.spoken
        if let value = answer.value { text += ", \(value)" }
        if let note = answer.note, !note.isEmpty { text += ", note: \(DisplayText.preview(note, limit: 60))" }
        return text
    }

    static func outcomeVerdict(_ word: String) -> OutcomeVerdict? {
        switch word.lowercased() {
        case "p", "pass", "passed", "y", "yes", "ok": return .pass
        case "f", "fail", "failed": return .fail
        case "n", "na", "n/a", "not applicable", "none": return .notApplicable
        default: return nil
        }
    }

    static func countProblem(_ value: Int, outOf: Int?) -> String? {
        if value < 0 { return "A count can't be negative; type 0 or more." }
        if let outOf, value > outOf { return "That is more than the \(outOf) tries; type a number from 0 to \(outOf)." }
        if value > maximumCount { return "\(value) is more than \(maximumCount); that looks like a typing slip. Type the count again." }
        return nil
    }
}
