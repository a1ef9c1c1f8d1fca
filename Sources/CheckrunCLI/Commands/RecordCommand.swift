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
        let verdict = try ResultOptions.verdict(verdictText, command: "record")
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
            attempt: 1, outcomeCount: check.expected.count, startedAt: now)
        if let text = arguments.value("seconds") {
            let seconds = try ResultOptions.seconds(text, command: "record")
            result.stopwatch = [StopwatchEvent(.typed, at: 0, typedSeconds: seconds, recordedAt: now)]
        }
        for (name, value) in try ResultOptions.counts(arguments.all("count"), for: reference, command: "record") {
            result.counters[name] = CounterValue(value, answeredAt: now)
        }
        for (index, outcome) in try ResultOptions.outcomes(arguments.all("expected"), for: reference, command: "record") {
            let value = check.expected[index].target.flatMap { result.counters[$0.counter]?.value }
            result.outcomes[index] = OutcomeAnswer(outcome, value: value, answeredAt: now)
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
        // The attempt is numbered, the session written and the result saved in one write
        // transaction: two records at once cannot take the same attempt, and a kill leaves
        // either all of it or none.
        try store.batch {
            result.attempt = try store.nextAttempt(check: reference.name, release: release, build: build, device: device)
            try store.insert(session)
            try store.save(result)
        }
        context.print("Recorded \(reference.name): \(verdict.rawValue), attempt \(result.attempt), in session \(session.shortID).")
        return 0
    }
}
