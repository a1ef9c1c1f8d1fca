import CheckrunModel
import CheckrunStore
import CheckrunTerminal
import Foundation

/// The entry point: finds the command, parses its arguments against its declaration, runs it,
/// and turns every error into a message and an exit code (0 success, 1 failure, 2 usage).
package enum CheckrunCLI {
    package static let version = "0.1.0"

    static let commands: [any CheckrunCommand.Type] = [
        RunCommand.self,
        ResumeCommand.self,
        SessionsCommand.self,
        RecordCommand.self,
        ReportCommand.self,
        CompareCommand.self,
        AmendCommand.self,
        VerifyCommand.self,
        ExportCommand.self,
        AttachmentsCommand.self,
        MergeCommand.self,
        LintCommand.self,
        ImportCommand.self,
        ListCommand.self,
        ShowCommand.self,
        CompletionCommand.self,
        HelpCommand.self,
    ]

    /// Options every command accepts.
    static let globalOptions: [OptionDefinition] = [
        OptionDefinition(.protocols, .value("DIR"), help: "The protocol folder (default: $CHECKRUN_PROTOCOLS, else ./protocols).", completion: .directory),
        OptionDefinition(.accessible, .flag, help: "Plain, append-only output for screen readers: no colour, nothing that ticks (also CHECKRUN_ACCESSIBLE=1)."),
        OptionDefinition(.noColor, .flag, help: "No colour (also NO_COLOR=1, TERM=dumb, or output that is not a terminal)."),
        OptionDefinition(.help, .flag, help: "Show this help."),
    ]

    /// `checkrun --accessible run …` as `checkrun run --accessible …`: the global options the
    /// overview lists are taken before the command too, as git and swift take theirs. They go
    /// right after the command, before its own arguments, so a `--` there still ends the options;
    /// `--help` among them asks for that command's help.
    static func placingGlobalOptionsAfterTheCommand(_ arguments: [String]) -> [String] {
        let index = endOfLeadingOptions(arguments, among: globalOptions, unknownEnds: true)
        let leading = Array(arguments[..<index])
        // Global options alone, one of them --help: the overview.
        if index == arguments.count, leading.contains("--help") { return ["--help"] }
        guard !leading.isEmpty, index < arguments.count, !arguments[index].hasPrefix("-") else { return arguments }
        return [arguments[index]] + leading + arguments[(index + 1)...]
    }

    /// `checkrun --db x.sqlite report …` as it should be typed (`checkrun report --db x.sqlite
    /// …`): the command is the first word that is no option and no option's value, and every
    /// option before it must be one the command takes (or a global one).
    static func movedAfterTheCommand(_ arguments: [String]) -> String? {
        let index = endOfLeadingOptions(arguments, among: commands.flatMap { $0.definition.options } + globalOptions, unknownEnds: false)
        guard index > 0, index < arguments.count, let command = definition(named: arguments[index]) else { return nil }
        let known = Set((command.options + globalOptions).map(\.name))
        for word in arguments[..<index] where word.hasPrefix("--") {
            guard known.contains(OptionDefinition.name(in: word)) else { return nil }
        }
        // A server's password is left out, as in a resume hint (libpq then reads it from
        // PGPASSWORD or ~/.pgpass): masked, the command as shown sent "…" as the password.
        let reordered = [arguments[index]] + arguments[..<index] + arguments[(index + 1)...]
        return "checkrun " + reordered.map { CommandContext.shellQuoted(ServerAddressText.withoutPassword($0)) }.joined(separator: " ")
    }

    /// Where the options at the start of `arguments` end, each with its value (`--db x`): at
    /// the first word that is no option, or, when `unknownEnds`, at the first option not among
    /// `options`.
    static func endOfLeadingOptions(_ arguments: [String], among options: [OptionDefinition], unknownEnds: Bool) -> Int {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("--") {
            let word = arguments[index]
            let name = OptionDefinition.name(in: word)
            if unknownEnds && !options.contains(where: { $0.name == name }) { break }
            index += 1
            if options.contains(where: { $0.name == name && $0.takesValue }), !word.contains("="), index < arguments.count { index += 1 }
        }
        return index
    }

    static func definition(named name: String) -> CommandDefinition? {
        commands.first { $0.definition.name == name }?.definition
    }

    package static func main() -> Never {
        SignalTrap.clearSignalMask()
        // A file size limit must surface as a write error SQLite can roll back, not kill us.
        signal(SIGXFSZ, SIG_IGN)
        // Ctrl-\ stops the program as the system does, not as a crash the runtime reports
        // (a walk and a file being written handle it as they handle Ctrl-C).
        signal(SIGQUIT, SIG_DFL)
        let arguments = Array(CommandLine.arguments.dropFirst())
        PasswordScrub.scrubArgumentVector()
        let code = run(arguments, environment: ProcessInfo.processInfo.environment)
        backgroundWorkRunning.wait()
        exit(StandardOutput.finish(code))
    }

    /// Runs a command, closing every store it opened when it ends.
    private static func run(_ command: any CheckrunCommand.Type, _ context: CommandContext) throws -> Int32 {
        defer { context.closeStores() }
        do {
            let status = try command.run(context)
            try context.requireReadingUnchanged()
            return status
        } catch where context.storeChangedWhileRead {
            // A reading without SQLite's locks that met its owner's write: the error (a page
            // found "damaged", say) is that write's, not the file's.
            throw CommandFailure(CommandContext.changedWhileRead(context.databaseName))
        }
    }

    package static func run(_ given: [String], environment: [String: String]) -> Int32 {
        let arguments = placingGlobalOptionsAfterTheCommand(given)
        let stderr = FileHandle.standardError
        // An error may echo what was typed (a mistyped address as a path): never its password.
        let hidden = ServerAddressText.hiding(given + [environment["CHECKRUN_DB"] ?? ""], bare: false)
        func fail(_ message: String) {
            stderr.write(Data((ServerAddressText.scrubbed(TerminalText(message).rendered, hiding: hidden) + "\n").utf8))
        }

        guard let first = arguments.first else {
            print(HelpRenderer.overview())
            return 0
        }
        if first == "--version" || first == "version" {
            print("checkrun \(version)")
            return 0
        }
        if first == "--help" || first == "-h" {
            print(HelpRenderer.overview())
            return 0
        }
        guard let command = commands.first(where: { $0.definition.name == first }) else {
            let names = commands.map { $0.definition.name }
            // An option before any command is compared with the options that may come first.
            let candidates = first.hasPrefix("-") ? ["--version", "--help"] + globalOptions.map { "--" + $0.name } : names
            let suggestion = Suggestions.closest(to: first, among: candidates).first.map { " Did you mean '\($0)'?" } ?? ""
            let commandList = "Commands: \(names.joined(separator: ", ")). See 'checkrun --help'."
            if let moved = movedAfterTheCommand(arguments) {
                fail("checkrun: error: a command's options go after it: \(moved)")
                return 2
            }
            if first.hasPrefix("--"), globalOptions.contains(where: { $0.name == OptionDefinition.name(in: first) }) {
                fail("checkrun: error: a command is missing after the global options, e.g. checkrun --accessible list.\n\(commandList)")
                return 2
            }
            let what = first.hasPrefix("-") ? "option '\(first)' before a command" : "command '\(first)'"
            fail("checkrun: error: unknown \(what).\(suggestion)\n\(commandList)")
            return 2
        }
        do {
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command.definition, global: globalOptions)
            if parsed.flag(.help) {
                print(HelpRenderer.help(for: command.definition))
                return 0
            }
            return try run(command, CommandContext(arguments: parsed, environment: environment))
        } catch let error as UsageError {
            let see = error.command.map { "\nSee 'checkrun \($0) --help'." } ?? ""
            fail("checkrun: error: \(error.message)\(see)")
            return 2
        } catch let error as CommandFailure {
            fail("checkrun: error: \(error.message)")
            return error.exitCode
        } catch {
            fail("checkrun: error: \(error)")
            return 1
        }
    }
}
