import Foundation

/// Help text generated from the command declarations, so it cannot drift from the parser.
enum HelpRenderer {
    static func overview() -> String {
        var lines = [
            "checkrun \(CheckrunCLI.version): walk manual accessibility QA protocols and record the results.",
            "",
            "Usage: checkrun COMMAND [OPTIONS]",
            "",
            "Commands:",
        ]
        let width = CheckrunCLI.commands.map { $0.definition.name.count }.max() ?? 0
        for command in CheckrunCLI.commands {
            let definition = command.definition
            lines.append("  " + definition.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + definition.abstract)
        }
        lines += ["", "Global options:"] + optionLines(CheckrunCLI.globalOptions)
        lines += ["  --version".padding(toLength: 22, withPad: " ", startingAt: 0) + "Print the version."]
        lines += [
            "",
            "Examples:",
            "  checkrun run --release 2.4 --build 311 --device \"iPhone 15\"",
            "      Walk every check in ./protocols; every answer is saved to ./checkrun.sqlite at once.",
            "  checkrun report --release 2.4 --format html --out report.html",
            "      The release's compliance report as one accessible HTML page.",
            "  checkrun list --profile \"Switch Control\"",
            "      The checks a Switch Control tester walks.",
            "",
            "Run 'checkrun help COMMAND' or 'checkrun COMMAND --help' for a command's options and examples.",
        ]
        return lines.joined(separator: "\n")
    }

    static func help(for command: CommandDefinition) -> String {
        var lines = ["checkrun \(command.name): \(command.abstract)", "", "Usage: \(command.usage)"]
        if !command.discussion.isEmpty {
            lines += [""] + command.discussion.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        if !command.arguments.isEmpty {
            lines += ["", "Arguments:"]
            for argument in command.arguments {
                lines.append(row(argument.synopsis, argument.help))
            }
        }
        if !command.options.isEmpty {
            lines += ["", "Options:"] + optionLines(command.options)
        }
        lines += ["", "Global options:"] + optionLines(CheckrunCLI.globalOptions)
        if !command.examples.isEmpty {
            lines += ["", "Examples:"]
            for example in command.examples {
                lines += ["  " + example.command, "      " + example.explanation]
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func optionLines(_ options: [OptionDefinition]) -> [String] {
        options.map { row($0.synopsis, $0.help) }
    }

    private static func row(_ name: String, _ help: String) -> String {
        let padded = "  " + name
        if padded.count >= 22 { return padded + "\n" + String(repeating: " ", count: 22) + help }
        return padded.padding(toLength: 22, withPad: " ", startingAt: 0) + help
    }
}
