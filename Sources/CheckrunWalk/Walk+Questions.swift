import CheckrunModel
import Foundation

/// What the walk asks at each step, in words.
extension Walk {
    // MARK: - Questions

    func question(for step: WalkStep, _ index: Int) -> String {
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
            let now = result.verdict.flatMap { $0 == .pass || $0 == .fail ? " Now: \($0.rawValue); Enter keeps it." : nil } ?? ""
            return "No expected outcomes are written for this check yet. Did it pass? (p, f)\(now)"
        case .notes:
            if let notes = result.notes, !notes.isEmpty {
                let since = result.notesPredateAnUnexplainedFailure(check) ? "Something failed since these notes were written. " : ""
                return since + "Notes? Now: \(DisplayText.preview(notes, limit: 80)); Enter keeps them."
            }
            if result.needsNotes(check) { return "Notes (required, something failed): what happened?" }
            return "Notes (optional, Enter for none):"
        case .blockReason:
            return "Why is this check blocked? (required)"
        }
    }

    package static let helpLines = [
        "Keys at every prompt (a single letter or the whole word):",
        "  ?  help     this list",
        "  b  back     change the previous answer",
        "  s  skip     skip this check (asks first if it has answers)",
        "  x  block    mark this check blocked, with a reason",
        "  q  quit     save and stop; resume later with checkrun resume",
        "  a  attach   a FILE attaches a screenshot, recording or log (drag the file in); a alone runs",
        "              the capture command. At an expected outcome it belongs to that outcome.",
        "Stopwatch: Enter starts and stops it, p pauses and resumes, space or plus (+) tallies a stop,",
        "  minus (-) takes one back; t 80, t 1:20 or t 1m20s types the time instead.",
        "Expected outcomes: p or pass, f or fail, n or na (not applicable); add a note after it: f Delete fired.",
        "Everything is saved as soon as you answer.",
    ]
}
