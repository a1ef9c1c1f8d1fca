/// `checkrun help [COMMAND]`: the same text as `--help`.
struct HelpCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "help",
        abstract: "Show help for checkrun or for one command.",
        arguments: [ArgumentDefinition("COMMAND", help: "The command to explain.", optional: true, completion: .commands)],
        examples: [Example("checkrun help lint", "The options and examples of lint.")])

    static func run(_ context: CommandContext) throws -> Int32 {
        guard let name = context.arguments.positionals.first else {
            context.print(HelpRenderer.overview())
            return 0
        }
        guard let definition = CheckrunCLI.definition(named: name) else {
            let names = CheckrunCLI.commands.map { $0.definition.name }
            let hint = Suggestions.closest(to: name, among: names).first.map { " Did you mean '\($0)'?" } ?? ""
            throw UsageError("no command '\(name)'.\(hint) Commands: \(names.joined(separator: ", ")).")
        }
        context.print(HelpRenderer.help(for: definition))
        return 0
    }
}

import CheckrunModel
