import Foundation

/// Times as testers type them and as checkrun says them.
package enum Durations {
    /// Reads "80", "80s", "1:20", "1m20s", "1m 20s", "2m" or "1.5" as seconds; nil when it is none of these.
    package static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { return nil }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 || parts.count == 3 {
            let numbers = parts.map { Double($0) }
            guard numbers.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
            let values = numbers.compactMap { $0 }
            guard values.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
            return values.reduce(0) { $0 * 60 + $1 }
        }
        let pattern = #"^(?:(\d+(?:\.\d+)?)\s*h)?\s*(?:(\d+(?:\.\d+)?)\s*m(?:in)?)?\s*(?:(\d+(?:\.\d+)?)\s*s?(?:ec)?)?$"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: trimmed, range: NSRange(trimmed.startIndex..., in: trimmed)) else { return nil }
        var total = 0.0
        var larger: Double?
        for (group, factor) in [(1, 3600.0), (2, 60.0), (3, 1.0)] {
            if let range = Range(match.range(at: group), in: trimmed), let value = Double(trimmed[range]) {
                // "1m99s" is refused as "1:99" is: after a larger unit, a part is under 60.
                if larger != nil && value >= 60 { return nil }
                total += value * factor
                larger = factor
            }
        }
        return larger != nil ? total : nil
    }

    /// The longest a typed time may be: one check's task, not a day's work.
    package static let longestTyped = 24 * 3600.0

    /// Why a time read from what a tester typed cannot be a task's time, if it cannot: none at
    /// all (said as "0 seconds", so a report's medians would count a task that was not timed)
    /// or more than a day. The walk, `record` and `amend` ask this one question.
    package static func typedTimeProblem(_ seconds: Double) -> String? {
        if seconds < 0.05 { return "\(spoken(seconds)) is no time for a task" }
        if seconds > longestTyped {
            // Just over, the tenths say "24 hours": then the seconds as typed say why.
            let said = spoken(seconds) == spoken(longestTyped) && seconds.isFinite ? "\(seconds) seconds" : spoken(seconds)
            return "\(said) is more than a day"
        }
        return nil
    }

    /// "12.4 seconds", "1 minute 20 seconds", "1 minute 0.4 seconds": a time in words, as a
    /// screen reader should say it, to the tenth of a second at any length (whole seconds from
    /// a minute on said 60.4 seconds as "1 minute", beside a limit of "1 minute" it was over).
    package static func spoken(_ seconds: Double) -> String {
        // A time edited by hand into the database: said as it is, never a trap.
        guard seconds.isFinite, seconds.magnitude < 1e15 else { return seconds.isNaN ? "an unreadable time" : "an impossible time" }
        // Compared after rounding to the tenth: 59.96 seconds is said as "1 minute", not "60 seconds".
        if (seconds * 10).rounded() < 600 {
            let rounded = (seconds * 10).rounded() / 10
            let text = rounded == rounded.rounded() ? String(Int(rounded)) : Decimals.fixed(rounded, places: 1)
            return "\(text) second\(text == "1" ? "" : "s")"
        }
        let tenths = Int((seconds * 10).rounded())
        let whole = tenths / 10, tenth = tenths % 10
        let hours = whole / 3600, minutes = (whole % 3600) / 60, rest = whole % 60
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) hour\(hours == 1 ? "" : "s")") }
        if minutes > 0 { parts.append("\(minutes) minute\(minutes == 1 ? "" : "s")") }
        if tenth > 0 {
            parts.append("\(rest).\(tenth) seconds")
        } else if rest > 0 {
            parts.append("\(rest) second\(rest == 1 ? "" : "s")")
        }
        return parts.joined(separator: " ")
    }
}
