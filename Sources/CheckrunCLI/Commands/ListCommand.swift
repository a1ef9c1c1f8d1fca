import CheckrunTerminal
import CheckrunModel

/// `checkrun list`: the checks a walk would offer, filtered the way `run` filters them.
struct ListCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "list",
        abstract: "List protocols and their checks: id, profile and task.",
        discussion: "Filters combine: a check is listed when it matches all of them.",
        options: [
            OptionDefinition(.json, .flag, help: "Print JSON instead of text."),
        ] + CheckFilter.options,
        examples: [
            Example("checkrun list --profile voiceover", "Every check a VoiceOver tester walks."),
            Example("checkrun list --wcag 2.5.8 --json", "The checks behind Target Size (Minimum), as JSON."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let library = try context.loadProtocols()
        let checks = try CheckFilter(context.arguments).apply(to: library)
        if context.arguments.flag(.json) {
            let items = checks.map { reference -> JSONNode in
                JSONNode(.object([
                    JSONMember("check", JSONNode(.string(reference.name))),
                    JSONMember("protocol", JSONNode(.string(reference.document.id))),
                    JSONMember("title", JSONNode(.string(reference.document.title))),
                    JSONMember("profile", JSONNode(.string(reference.check.profile))),
                    JSONMember("task", JSONNode(.string(reference.check.task))),
                    JSONMember("wcag", JSONNode(.array(reference.criteria.map { JSONNode(.string($0)) }))),
                ]))
            }
            context.printData(JSONWriter.forReading(JSONWriter.write(.array(items))))
            return 0
        }
        if checks.isEmpty {
            context.print("No checks match.")
            return 0
        }
        var currentProtocol: String?
        for reference in checks {
            if reference.document.id != currentProtocol {
                if currentProtocol != nil { context.print() }
                currentProtocol = reference.document.id
                let document = reference.document
                context.print(context.out.bold("\(document.title)") + " (\(document.id), \(document.status.rawValue), \(document.checks.count) check\(document.checks.count == 1 ? "" : "s"))")
            }
            context.print("  \(reference.name)")
            context.print("    Profile: \(reference.check.profile)")
            context.print("    Task: \(reference.check.task)")
        }
        context.print()
        context.print("\(checks.count) check\(checks.count == 1 ? "" : "s").")
        return 0
    }
}
