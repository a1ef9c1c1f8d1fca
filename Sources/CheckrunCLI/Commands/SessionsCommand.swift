import CheckrunModel
import CheckrunStore
import Foundation

/// `checkrun sessions`: every session with how far it got.
struct SessionsCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "sessions",
        abstract: "List test sessions with their progress.",
        options: [
            OptionDefinition("release", .value("R"), help: "Only sessions of this release."),
            OptionDefinition("json", .flag, help: "Print JSON instead of text."),
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun sessions --release 2.4", "The sessions of release 2.4, oldest first."),
            Example("checkrun sessions --json", "Every session as JSON, for scripts."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let store = try context.openStore()
        let summaries = try store.sessionSummaries(release: context.arguments.value("release"))
        if context.arguments.flag("json") {
            let items = summaries.map { summary -> JSONNode in
                let session = summary.session
                return JSONNode(.object([
                    JSONMember("id", JSONNode(.string(session.id.uuidString.lowercased()))),
                    JSONMember("release", JSONNode(.string(session.release))),
                    JSONMember("build", JSONNode(.string(session.build))),
                    JSONMember("device", JSONNode(.string(session.device))),
                    JSONMember("tester", JSONNode(.string(session.tester))),
                    JSONMember("startedAt", JSONNode(.string(Timestamps.iso8601(session.startedAt)))),
                    JSONMember("finishedAt", JSONNode(session.finishedAt.map { .string(Timestamps.iso8601($0)) } ?? .null)),
                    JSONMember("checks", JSONNode(.integer(session.plan.count))),
                    JSONMember("completed", JSONNode(.integer(summary.completed))),
                    JSONMember("failed", JSONNode(.integer(summary.failed))),
                ]))
            }
            context.print(JSONWriter.write(.array(items)), terminator: "")
            return 0
        }
        if summaries.isEmpty {
            context.print("No sessions\(context.arguments.value("release").map { " for release \($0)" } ?? "") in \(context.databasePath).")
            return 0
        }
        for summary in summaries {
            let session = summary.session
            let state = session.finishedAt == nil ? "unfinished" : "complete"
            var parts = ["release \(session.release)", "build \(session.build)"]
            if !session.device.isEmpty { parts.append("device \(session.device)") }
            if !session.tester.isEmpty { parts.append("tester \(session.tester)") }
            parts.append("started \(Timestamps.iso8601(session.startedAt))")
            parts.append("\(summary.completed) of \(session.plan.count) checks done, \(summary.failed) failed, \(state)")
            context.print("\(session.shortID)  " + parts.joined(separator: ", "))
        }
        return 0
    }
}
