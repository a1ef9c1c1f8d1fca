/// `checkrun completion SHELL`: a completion script for bash, zsh or fish.
struct CompletionCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "completion",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        arguments: [ArgumentDefinition("SHELL", help: "bash, zsh or fish.", completion: .values(CompletionScript.Shell.allCases.map(\.rawValue)))],
        examples: [
            Example("checkrun completion fish > ~/.config/fish/completions/checkrun.fish", "Install completion for fish."),
            Example("source <(checkrun completion bash)", "Complete checkrun's commands and options in this bash session."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let name = context.arguments.positionals[0]
        guard let shell = CompletionScript.Shell(rawValue: name) else {
            throw UsageError("no completion for the shell '\(name)'; choose bash, zsh or fish", command: definition.name)
        }
        context.printData(CompletionScript.script(for: shell, commands: CheckrunCLI.commands.map { $0.definition }, global: CheckrunCLI.globalOptions))
        return 0
    }
}
