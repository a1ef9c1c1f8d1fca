import CheckrunModel

/// A mistake on the command line: printed with a hint, exit code 2.
package struct UsageError: Error, Sendable, CustomStringConvertible {
    package var message: String
    /// The command whose help the user should read, if any.
    package var command: String?

    package init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    package var description: String { message }
}

/// The options and arguments given to one command.
package struct ParsedArguments: Sendable {
    package var values: [String: [String]] = [:]
    package var flags: Set<String> = []
    package var positionals: [String] = []
    /// The options the command declares (with the global ones). Reading any other is a
    /// mistake in checkrun, not the user's: it would always read nothing (as `CheckFilter` once
    /// read `--wcag` for `run`, which did not declare it). Debug builds, which the tests run,
    /// stop on it.
    package var declared: Set<String>

    package init(declared: Set<String>) { self.declared = declared }

    package func value(_ option: OptionName) -> String? { checked(option); return values[option.rawValue]?.last }
    package func all(_ option: OptionName) -> [String] { checked(option); return values[option.rawValue] ?? [] }
    package func flag(_ option: OptionName) -> Bool { checked(option); return flags.contains(option.rawValue) }

    private func checked(_ option: OptionName) {
        assert(declared.contains(option.rawValue), "checkrun reads --\(option.rawValue), which this command does not declare")
    }
}

/// Parses `--flag`, `--name value`, `--name=value` and positionals against a command's
/// declaration (plus the global options), so help, parsing and completion cannot disagree.
package enum ArgumentParser {
    package static func parse(_ arguments: [String], for command: CommandDefinition, global: [OptionDefinition]) throws(UsageError) -> ParsedArguments {
        let options = command.options + global
        var parsed = ParsedArguments(declared: Set(options.map(\.name)))
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "-h" {
                parsed.flags.insert("help")
                continue
            }
            guard argument.hasPrefix("--") else {
                throw UsageError("unknown option '\(argument)'; checkrun's options are long, e.g. --help.\(hint(for: argument, options))", command: command.name)
            }
            try readOption(argument, from: arguments, at: &index, options: options, command: command, into: &parsed)
        }
        if !parsed.flag(.help) {
            // Every missing required option at once, not one per try.
            let missing = command.options.filter { $0.isRequired && parsed.values[$0.name] == nil }
            if !missing.isEmpty {
                throw UsageError("missing \(missing.map(\.synopsis).joined(separator: ", "))", command: command.name)
            }
            try checkPositionals(parsed.positionals, command)
        }
        return parsed
    }

    /// `--name`, `--name=value` or `--name value`, checked against the declared options.
    private static func readOption(_ argument: String, from arguments: [String], at index: inout Int, options: [OptionDefinition],
                                   command: CommandDefinition, into parsed: inout ParsedArguments) throws(UsageError) {
        let body = argument.dropFirst(2)
        let name = OptionDefinition.name(in: argument)
        let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        guard let option = options.first(where: { $0.name == name }) else {
            throw UsageError("unknown option '--\(name)' for 'checkrun \(command.name)'.\(hint(for: name, options))", command: command.name)
        }
        switch option.kind {
        case .flag:
            if inlineValue != nil {
                throw UsageError("'--\(name)' is a flag and takes no value; write just --\(name)", command: command.name)
            }
            parsed.flags.insert(name)
        case .value(let valueName), .repeated(let valueName):
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, !(arguments[index].hasPrefix("--") && arguments[index].count > 2) {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("'--\(name)' needs a value: --\(name) \(valueName)", command: command.name)
            }
            // Many tools read "-" as standard input or output; checkrun would make a file or
            // folder named "-" of it.
            if value == "-", option.completion == .file || option.completion == .directory {
                let stdout = name == "out" ? " (without --out, report and compare write to standard output)" : ""
                throw UsageError("'--\(name) -' would name a file or folder called \"-\"\(stdout); name one, e.g. --\(name) \(valueName)", command: command.name)
            }
            if case .value = option.kind, let previous = parsed.values[name]?.last, previous != value {
                throw UsageError("'--\(name)' is given twice ('\(previous)' and '\(value)'); give it once", command: command.name)
            }
            parsed.values[name, default: []].append(value)
        }
    }

    private static func checkPositionals(_ positionals: [String], _ command: CommandDefinition) throws(UsageError) {
        let required = command.arguments.filter { !$0.isOptional }
        if positionals.count < required.count {
            let missing = required[positionals.count]
            throw UsageError("missing \(missing.name): \(missing.help)", command: command.name)
        }
        let repeating = command.arguments.contains { $0.isRepeating }
        if !repeating && positionals.count > command.arguments.count {
            let extra = positionals[command.arguments.count]
            throw UsageError("unexpected argument '\(extra)'; usage: \(command.usage)", command: command.name)
        }
    }

    private static func hint(for name: String, _ options: [OptionDefinition]) -> String {
        let bare = name.drop { $0 == "-" }
        let best = Suggestions.closest(to: String(bare), among: options.map(\.name)).first
        return best.map { " Did you mean '--\($0)'?" } ?? ""
    }
}
