import CheckrunModel

/// The options that describe a result, read the same way by `record` and `amend`.
enum ResultOptions {
    static func verdict(_ text: String, command: String) throws -> Verdict {
        guard let verdict = Verdict(rawValue: text.lowercased()) else {
            throw UsageError("'\(text)' is not a verdict; use pass, fail, blocked or skipped.\(Suggestions.didYouMean(text, among: Verdict.allCases.map(\.rawValue), quote: "'"))", command: command)
        }
        return verdict
    }

    static func seconds(_ text: String, command: String) throws -> Double {
        guard let value = Durations.parse(text) else {
            throw UsageError("--seconds '\(text)' is not a time; use seconds (80), m:ss (1:20) or 1m20s", command: command)
        }
        if let problem = Durations.typedTimeProblem(value) {
            throw UsageError("--seconds '\(text)': \(problem); give the time the task took, from a tenth of a second to 24 hours (86400)", command: command)
        }
        return value
    }

    /// `--count NAME=N`, each naming one of the check's counters. With `removable` (`amend`),
    /// `NAME=none` takes a count back: the value is then nil.
    static func counts(_ items: [String], for reference: CheckReference, command: String, removable: Bool = false) throws -> [(name: String, value: Int?)] {
        let known = reference.check.counters.map(\.id)
        var given = Set<String>()
        return try items.map { item in
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2, parts[1].lowercased() == "none" {
                guard removable else {
                    throw UsageError("--count \(item): a count is a whole number; to leave \(parts[0]) uncounted, leave --count \(parts[0]) out", command: command)
                }
                guard known.contains(parts[0]) else { throw unknownCounter(parts[0], known, reference, command) }
                guard given.insert(parts[0]).inserted else {
                    throw UsageError("--count \(parts[0]) is given twice; give each counter once", command: command)
                }
                return (parts[0], nil)
            }
            if parts.count == 2, let problem = AnswerWords.numberProblem(parts[1]) {
                throw UsageError("--count \(item): \(problem), e.g. \(parts[0])=14", command: command)
            }
            guard parts.count == 2, let value = AnswerWords.count(parts[1]) else {
                throw UsageError("--count '\(item)' should be NAME=N, e.g. stops=14\(removable ? ", or NAME=none to take a count back" : "")", command: command)
            }
            guard known.contains(parts[0]) else { throw unknownCounter(parts[0], known, reference, command) }
            guard value >= 0, value <= AnswerLimits.count else {
                throw UsageError("--count \(item): a count is a whole number from 0 to \(AnswerLimits.count)", command: command)
            }
            // Two answers for one counter would leave one of them unsaid: which is meant?
            guard given.insert(parts[0]).inserted else {
                throw UsageError("--count \(parts[0]) is given twice; give each counter once", command: command)
            }
            return (parts[0], value)
        }
    }

    private static func unknownCounter(_ name: String, _ known: [String], _ reference: CheckReference, _ command: String) -> UsageError {
        UsageError("\(reference.name) has no counter \"\(name)\"; its counters: \(known.isEmpty ? "none" : known.joined(separator: ", ")).\(Suggestions.didYouMean(name, among: known))", command: command)
    }

    /// `--notes TEXT`, within the limit the walk keeps too.
    static func notes(_ arguments: ParsedArguments) throws -> String? {
        try text(.notes, arguments)
    }

    /// `--reason TEXT` (why a check is blocked, or why a result is amended), within the same limit.
    static func reason(_ arguments: ParsedArguments) throws -> String? {
        try text(.reason, arguments)
    }

    private static func text(_ option: OptionName, _ arguments: ParsedArguments) throws -> String? {
        guard let text = arguments.value(option) else { return nil }
        try requireWithinLimit(text, "--\(option.rawValue)")
        return text
    }

    /// Every text a tester gives (notes, reasons, descriptions) within the limit the walk keeps too.
    static func requireWithinLimit(_ text: String, _ what: String) throws {
        guard text.unicodeScalars.count <= AnswerLimits.notesLength else {
            throw CommandFailure("\(what) is \(text.unicodeScalars.count) characters; the most is \(AnswerLimits.notesLength). Put long logs in a ticket and give its link.")
        }
    }

    /// `--expected N=pass|fail|na`, N counted from 1 and within the check's outcomes.
    static func outcomes(_ items: [String], for reference: CheckReference, command: String) throws -> [(index: Int, verdict: OutcomeVerdict)] {
        let count = reference.check.expected.count
        var given = Set<Int>()
        return try items.map { item in
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let position = Int(parts[0]), let verdict = AnswerWords.outcome(parts[1]) else {
                throw UsageError("--expected '\(item)' should be N=VERDICT, e.g. 2=fail; a verdict is \(AnswerWords.listed)", command: command)
            }
            guard (1...max(count, 1)).contains(position), position <= count else {
                throw UsageError("\(reference.name) has \(count) expected outcome\(count == 1 ? "" : "s"); --expected \(position) is out of range", command: command)
            }
            guard given.insert(position).inserted else {
                throw UsageError("--expected \(position) is given twice; give each expected outcome once", command: command)
            }
            return (position - 1, verdict)
        }
    }

    /// A `--format` value, one of an enumeration's cases.
    static func format<Format: RawRepresentable & CaseIterable>(_ name: String?, default fallback: Format, command: String) throws -> Format where Format.RawValue == String {
        guard let name else { return fallback }
        guard let format = Format(rawValue: name.lowercased()) else {
            let names = Format.allCases.map(\.rawValue)
            throw UsageError("unknown format '\(name)'; choose \(names.joined(separator: ", ")).\(Suggestions.didYouMean(name, among: names, quote: "'"))", command: command)
        }
        return format
    }
}
