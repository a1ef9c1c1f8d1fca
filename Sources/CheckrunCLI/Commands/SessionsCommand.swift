import CheckrunModel
import CheckrunStore
import Foundation

/// `checkrun sessions`: every session with how far it got.
struct SessionsCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "sessions",
        abstract: "List test sessions with their progress.",
        options: [
            OptionDefinition(.release, .value("R"), help: "Only sessions of this release."),
            OptionDefinition(.json, .flag, help: "Print JSON instead of text."),
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun sessions --release 2.4", "The sessions of release 2.4, oldest first."),
            Example("checkrun sessions --json", "Every session as JSON, for scripts."),
        ])

    static func json(_ summary: ResultStore.SessionSummary) -> JSONValue {
        let session = summary.session
        return .object([
            JSONMember("id", JSONNode(.string(session.id.lowercasedText))),
            JSONMember("release", JSONNode(.string(session.release))),
            JSONMember("build", JSONNode(.string(session.build))),
            JSONMember("device", JSONNode(.string(session.device))),
            JSONMember("osVersion", JSONNode(.string(session.osVersion))),
            JSONMember("tester", JSONNode(.string(session.tester))),
            JSONMember("startedAt", JSONNode(.string(Timestamps.iso8601(session.startedAt)))),
            JSONMember("finishedAt", JSONNode(summary.isComplete ? summary.lastAnswer.map { .string(Timestamps.iso8601($0)) } ?? .null : .null)),
            JSONMember("checks", JSONNode(.integer(session.plan.count))),
            JSONMember("completed", JSONNode(.integer(summary.completed))),
            JSONMember("passed", JSONNode(.integer(summary.passed))),
            JSONMember("notApplicable", JSONNode(.integer(summary.notApplicable))),
            JSONMember("failed", JSONNode(.integer(summary.failed))),
            JSONMember("blocked", JSONNode(.integer(summary.blocked))),
            JSONMember("skipped", JSONNode(.integer(summary.skipped))),
        ])
    }

    private static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    /// By session, the skipped or blocked results holding a count over its ceiling: each is
    /// judged by the protocol version it was answered against, kept in the database, or by the
    /// protocol folder's where that version is not kept, as reports judge it.
    static func failedSetAside(release: String?, in store: ResultStore, _ context: CommandContext) throws -> [UUID: [Verdict]] {
        var failed: [UUID: [Verdict]] = [:]
        var current: ProtocolLibrary??
        for held in try store.setAsideCounts(release: release) {
            var check = try store.keptCheck(named: held.check, version: held.protocolHash)?.check
            if check == nil {
                if current == nil { current = .some(try? ProtocolLibrary.load(directory: context.protocolsDirectory)) }
                check = current??.check(named: held.check)?.check
            }
            if check?.hasCountOverCeiling(held.counts) == true { failed[held.session, default: []].append(held.verdict) }
        }
        return failed
    }

    static func run(_ context: CommandContext) throws -> Int32 {
        let store = try context.openStore(.readOnly)
        let release = context.arguments.value(.release)
        let failed = try failedSetAside(release: release, in: store, context)
        if context.arguments.flag(.json) {
            // Streamed as a JSON array, one session per element, so memory stays flat.
            context.printData("[")
            var first = true
            try store.forEachSessionSummary(release: release, failedSetAside: failed) { summary in
                context.printData((first ? "\n" : ",\n") + indented(String(JSONWriter.forReading(JSONWriter.write(json(summary))).dropLast())))
                first = false
            }
            context.print(first ? "]" : "\n]")
            return 0
        }
        var count = 0
        try store.forEachSessionSummary(release: release, failedSetAside: failed) { summary in
            count += 1
            let session = summary.session
            let state = summary.isComplete ? "complete" : "unfinished"
            // One line per session: a label holding a line break (written before labels were
            // checked, or merged from such a file) must not begin a line of its own.
            let label = DisplayText.neutralised
            var parts = ["release \(label(session.release))", "build \(label(session.build))"]
            if !session.device.isEmpty { parts.append("device \(label(session.device))") }
            if !session.osVersion.isEmpty { parts.append("OS \(label(session.osVersion))") }
            if !session.tester.isEmpty { parts.append("tester \(label(session.tester))") }
            parts.append("started \(Timestamps.iso8601(session.startedAt))")
            let counts = [(summary.passed, "passed"), (summary.failed, "failed"), (summary.blocked, "blocked"), (summary.skipped, "skipped"), (summary.notApplicable, "not applicable")]
                .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
            parts.append("\(summary.completed) of \(session.plan.count) checks done\(counts.isEmpty ? "" : " (" + counts.joined(separator: ", ") + ")"), \(state)")
            context.print("\(session.shortID)  " + parts.joined(separator: ", "))
        }
        if count == 0 {
            context.print("No sessions\(release.map { " for release \($0)" } ?? "") in \(context.databaseName).")
        }
        return 0
    }
}
