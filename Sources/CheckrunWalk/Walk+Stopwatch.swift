import CheckrunModel
import Foundation

/// The stopwatch: its keys while it runs, and the time typed instead of it.
extension Walk {
    /// The timer's keys in words, said for a key that does nothing while it runs.
    package static let stopwatchKeysSaid = "While the timer runs: Enter stops it, p pauses or resumes, space or plus (+) tallies a stop, minus (-) takes one back, q saves and quits; question mark (?) lists every key."

    /// The keys the running timer acts on, one a keystroke (either case): several characters
    /// arriving at once, one of them not among these, were pasted, not typed.
    package static let stopwatchKeys = Set(" p+=-?sxbqa".flatMap { [$0, Character($0.uppercased())] })

    mutating func handleStopwatchKey(_ key: String, _ index: Int, now: Double, date: Date) -> [WalkEvent] {
        switch (key, stopwatch) {
        case ("", .running(let origin)), ("", .paused(let origin)), ("stop", .running(let origin)), ("stop", .paused(let origin)):
            results[index].stopwatch.append(StopwatchEvent(.stop, at: now - origin, recordedAt: date))
            stopwatch = .idle
            let seconds = results[index].activeSeconds ?? 0
            var lines: [WalkEvent] = [.say("Timer stopped: \(Durations.spoken(seconds)).")]
            if results[index].tally > 0 { lines.append(.say("Stops tallied in this timing: \(results[index].tally).")) }
            if let over = overLimit(seconds, index) { lines.append(over) }
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
            return requestSkip(index, date: date)
        case ("x", .running(let origin)), ("block", .running(let origin)), ("x", .paused(let origin)), ("block", .paused(let origin)):
            if let refusal = settingAsideRefusal(index) { return refusal }
            var events: [WalkEvent] = [.say("Timer paused without a time; b takes the block back and returns to it.")]
            if case .running = stopwatch {
                results[index].stopwatch.append(StopwatchEvent(.pause, at: now - origin, recordedAt: date))
                events.append(.save(touch(index, date)))
            }
            timerBeforeBlocking = .paused(origin: origin)
            stopwatch = .idle
            blocking = index
            return events
        case ("b", _), ("back", _):
            return [.say("Stop the timer first (Enter), then b goes back.")]
        case ("q", _), ("quit", _):
            return [.say("The timing was not finished; it will be asked again when you resume."), .quit]
        default:
            return [.say(Self.stopwatchKeysSaid)]
        }
    }

    mutating func answerTiming(_ text: String, _ index: Int, now: Double, date: Date) -> [WalkEvent] {
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
            if let problem = Durations.typedTimeProblem(seconds) {
                return [.say("\(problem); type the time the task took, e.g. t 1:20, or press Enter to time it.")]
            }
            results[index].stopwatch.append(StopwatchEvent(.typed, at: 0, typedSeconds: seconds, recordedAt: date))
            var lines: [WalkEvent] = [.say("Time: \(Durations.spoken(seconds)).")]
            if let over = overLimit(seconds, index) { lines.append(over) }
            return lines + answered(index, date: date)
        }
        return [.say("Press Enter to start the stopwatch, or type the time as t 80, t 1:20 or t 1m20s. Question mark (?) lists the keys.")]
    }

    /// Said of a time over the check's limit, with how far over: said in tenths, 60.04 seconds
    /// reads "1 minute", the very limit it went over.
    func overLimit(_ seconds: Double, _ index: Int) -> WalkEvent? {
        guard let limit = plan[index].check.timeLimit, seconds > Double(limit) else { return nil }
        let over = seconds - Double(limit)
        return .say("That is over the time limit of \(Durations.spoken(Double(limit))), by \(over < 0.05 ? "less than a tenth of a second" : Durations.spoken(over)).")
    }
}
