import CheckrunModel
import CheckrunStore
import Foundation

/// `checkrun record`: one result without the walk, for results gathered elsewhere and for scripts.
struct RecordCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "record",
        abstract: "Record one check's result without the walk.",
        discussion: "The result is saved in a session of its own, as the next attempt at the check for that release, build and device.",
        options: [
            OptionDefinition("release", .value("R"), help: "The release under test."),
            OptionDefinition("build", .value("B"), help: "The build under test."),
            OptionDefinition("check", .value("PROTOCOL/CHECK"), help: "The check, e.g. tiny-target/touch-one-hand."),
            OptionDefinition("verdict", .value("V"), help: "pass, fail, blocked or skipped.", completion: .values(Verdict.allCases.map(\.rawValue))),
            OptionDefinition("seconds", .value("N"), help: "Active time, as seconds or m:ss."),
            OptionDefinition("count", .repeated("NAME=N"), help: "A counter's value, e.g. stops=14 (repeatable)."),
            OptionDefinition("expected", .repeated("N=VERDICT"), help: "Expected outcome N (from 1): pass, fail or na (repeatable)."),
            OptionDefinition("notes", .value("TEXT"), help: "Notes."),
            OptionDefinition("reason", .value("TEXT"), help: "Why the check is blocked (with --verdict blocked)."),
            OptionDefinition("tester", .value("NAME"), help: "Who tested (default: $USER)."),
            OptionDefinition("device", .value("TEXT"), help: "The device."),
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun record --release 2.4 --build 311 --check tiny-target/touch-one-hand --verdict fail --expected 1=pass --expected 2=fail --count hits=10 --notes \"Delete fired once\"", "Record a failed check with its outcomes."),
            Example("checkrun record --release 2.4 --build 311 --check motor-accessibility/switch-control-stops-to-pay --verdict pass --count stops=14 --seconds 1:05", "Record a count and a time."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let arguments = context.arguments
        guard let release = arguments.value("release") else { throw UsageError("missing --release R", command: "record") }
        guard let build = arguments.value("build") else { throw UsageError("missing --build B", command: "record") }
        guard let name = arguments.value("check") else { throw UsageError("missing --check PROTOCOL/CHECK", command: "record") }
        guard let verdictText = arguments.value("verdict") else { throw UsageError("missing --verdict: pass, fail, blocked or skipped", command: "record") }
        guard let verdict = Verdict(rawValue: verdictText.lowercased()) else {
            throw UsageError("'\(verdictText)' is not a verdict; use pass, fail, blocked or skipped.\(Suggestions.didYouMean(verdictText, among: Verdict.allCases.map(\.rawValue), quote: "'"))", command: "record")
        }
        let library = try context.loadProtocols()
        guard let reference = library.check(named: name) else {
            let hint = library.suggestions(forCheck: name).first.map { " Did you mean \"\($0)\"?" } ?? ""
            throw CommandFailure("no check \"\(name)\".\(hint) Run `checkrun list` to see them all.")
        }
        let check = reference.check
        let device = arguments.value("device") ?? ""
        let now = Date()
        let session = Session(
            release: release, build: build, device: device, tester: arguments.value("tester") ?? context.environment["USER"] ?? "",
            plan: [reference.name], startedAt: now, finishedAt: now)

        let store = try context.openStore()
        var result = CheckResult(
            sessionID: session.id, check: reference.name, protocolHash: reference.document.contentHash,
            attempt: try store.nextAttempt(check: reference.name, release: release, build: build, device: device),
            outcomeCount: check.expected.count, startedAt: now)
        if let seconds = arguments.value("seconds") {
            guard let value = Durations.parse(seconds), value <= 24 * 3600 else {
                throw UsageError("--seconds '\(seconds)' is not a time; use seconds (80), m:ss (1:20) or 1m20s", command: "record")
            }
            result.stopwatch = [StopwatchEvent(.typed, at: 0, typedSeconds: value, recordedAt: now)]
        }
        for item in arguments.all("count") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = Int(parts[1]) else {
                throw UsageError("--count '\(item)' should be NAME=N, e.g. stops=14", command: "record")
            }
            let known = check.counters.map(\.id)
            guard known.contains(parts[0]) else {
                throw CommandFailure("\(reference.name) has no counter \"\(parts[0])\"; its counters: \(known.isEmpty ? "none" : known.joined(separator: ", ")).\(Suggestions.didYouMean(parts[0], among: known))")
            }
            guard value >= 0, value <= 100_000 else { throw CommandFailure("--count \(item): a count is a whole number from 0 to 100000") }
            result.counters[parts[0]] = CounterValue(value, answeredAt: now)
        }
        for item in arguments.all("expected") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let position = Int(parts[0]), let outcome = OutcomeVerdict(rawValue: parts[1].lowercased() == "not applicable" ? "na" : parts[1].lowercased()) else {
                throw UsageError("--expected '\(item)' should be N=pass, N=fail or N=na, e.g. 2=fail", command: "record")
            }
            guard check.expected.indices.contains(position - 1) else {
                throw CommandFailure("\(reference.name) has \(check.expected.count) expected outcome\(check.expected.count == 1 ? "" : "s"); --expected \(position) is out of range")
            }
            let value = check.expected[position - 1].target.flatMap { result.counters[$0.counter]?.value }
            result.outcomes[position - 1] = OutcomeAnswer(outcome, value: value, answeredAt: now)
        }
        if verdict == .blocked {
            guard let reason = arguments.value("reason") ?? arguments.value("notes") else {
                throw UsageError("a blocked result needs --reason TEXT: why could the check not be done?", command: "record")
            }
            result.blockedReason = reason
        }
        result.notes = arguments.value("notes")
        result.notesAnsweredAt = result.notes == nil ? nil : now
        result.verdict = verdict
        try store.insert(session)
        try store.save(result)
        context.print("Recorded \(reference.name): \(verdict.rawValue), attempt \(result.attempt), in session \(session.shortID).")
        return 0
    }
}
