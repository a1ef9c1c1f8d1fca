import CheckrunModel
import CheckrunStore
import Foundation

/// `checkrun amend`: correct a recorded result with a new record that says why.
struct AmendCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "amend",
        abstract: "Correct a recorded result: a new record that supersedes it, with a reason.",
        discussion: "Nothing is overwritten: the earlier records stay in the session's chain, and reports show the latest result marked as amended, with the reason.",
        options: [
            OptionDefinition("release", .value("R"), help: "The release of the result."),
            OptionDefinition("build", .value("B"), help: "The build of the result."),
            OptionDefinition("check", .value("PROTOCOL/CHECK"), help: "The check of the result."),
            OptionDefinition("device", .value("TEXT"), help: "The device, when the check was tested on several."),
            OptionDefinition("reason", .value("TEXT"), help: "Why the result is corrected (required)."),
            OptionDefinition("verdict", .value("V"), help: "The corrected verdict: pass, fail, blocked or skipped.", completion: .values(Verdict.allCases.map(\.rawValue))),
            OptionDefinition("expected", .repeated("N=VERDICT"), help: "A corrected outcome (from 1): pass, fail or na."),
            OptionDefinition("count", .repeated("NAME=N"), help: "A corrected counter value."),
            OptionDefinition("seconds", .value("N"), help: "A corrected active time."),
            OptionDefinition("notes", .value("TEXT"), help: "Corrected notes."),
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun amend --release 2.4 --build 311 --check tiny-target/touch-one-hand --verdict pass --expected 2=pass --reason \"Delete fired from a test build's debug overlay\"", "Correct a verdict, saying why."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let arguments = context.arguments
        guard let release = arguments.value("release"), let build = arguments.value("build"), let name = arguments.value("check") else {
            throw UsageError("name the result with --release R --build B --check PROTOCOL/CHECK", command: "amend")
        }
        guard let reason = arguments.value("reason"), !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError("missing --reason TEXT: a correction must say why", command: "amend")
        }
        let store = try context.openStore()
        let matches = try store.latestResults(check: name, release: release, build: build, device: arguments.value("device"))
        guard var result = matches.first else {
            throw CommandFailure("no finished result of \(name) in release \(release), build \(build)\(arguments.value("device").map { " on \($0)" } ?? ""); `checkrun report --release \(release)` lists the results")
        }
        let devices = Set(try matches.map { try store.session(id: $0.sessionID)?.device ?? "" })
        if devices.count > 1 && arguments.value("device") == nil {
            throw UsageError("\(name) has results on several devices (\(devices.sorted().joined(separator: ", "))); choose one with --device", command: "amend")
        }
        let library = try? context.loadProtocols()
        let check = library?.check(named: name)?.check
        var changed = false
        if let text = arguments.value("verdict") {
            guard let verdict = Verdict(rawValue: text.lowercased()) else {
                throw UsageError("'\(text)' is not a verdict; use pass, fail, blocked or skipped", command: "amend")
            }
            result.verdict = verdict
            if verdict == .blocked { result.blockedReason = reason }
            changed = true
        }
        for item in arguments.all("expected") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let position = Int(parts[0]), position >= 1, let verdict = OutcomeVerdict(rawValue: parts[1].lowercased()) else {
                throw UsageError("--expected '\(item)' should be N=pass, N=fail or N=na", command: "amend")
            }
            let limit = check?.expected.count ?? result.outcomes.count
            guard position <= limit else { throw CommandFailure("\(name) has \(limit) expected outcomes; --expected \(position) is out of range") }
            while result.outcomes.count < position { result.outcomes.append(nil) }
            result.outcomes[position - 1] = OutcomeAnswer(verdict, value: result.outcomes[position - 1]?.value, note: result.outcomes[position - 1]?.note)
            changed = true
        }
        for item in arguments.all("count") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = Int(parts[1]), value >= 0 else {
                throw UsageError("--count '\(item)' should be NAME=N, e.g. stops=14", command: "amend")
            }
            result.counters[parts[0]] = CounterValue(value)
            changed = true
        }
        if let text = arguments.value("seconds") {
            guard let seconds = Durations.parse(text) else { throw UsageError("--seconds '\(text)' is not a time", command: "amend") }
            result.stopwatch.append(StopwatchEvent(.typed, at: 0, typedSeconds: seconds))
            changed = true
        }
        if let notes = arguments.value("notes") {
            result.notes = notes
            changed = true
        }
        guard changed else {
            throw UsageError("nothing to correct: give --verdict, --expected, --count, --seconds or --notes", command: "amend")
        }
        result.updatedAt = Date()
        try store.amend(result, reason: reason)
        context.print("Amended \(name) (release \(release), build \(build)): now \(result.verdict?.rawValue ?? "in progress"). Reason: \(DisplayText.neutralised(reason)). The earlier record is kept.")
        return 0
    }
}
