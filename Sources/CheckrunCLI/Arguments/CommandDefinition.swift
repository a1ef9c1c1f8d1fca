/// How the shell should complete a value.
package enum CompletionKind: Sendable, Equatable {
    case none
    case file
    case directory
    case values([String])
    /// The names of checkrun's commands.
    case commands
}

/// One `--option` of a command. Help text, parsing and completion scripts all come from this.
package struct OptionDefinition: Sendable {
    package enum Kind: Sendable, Equatable {
        /// `--flag`, present or absent.
        case flag
        /// `--name VALUE` or `--name=VALUE`.
        case value(String)
        /// `--name VALUE`, given any number of times.
        case repeated(String)
    }

    package var name: String
    package var kind: Kind
    package var help: String
    package var completion: CompletionKind
    /// Shown without brackets in the usage line: the command cannot run without it.
    package var isRequired: Bool

    package init(_ name: OptionName, _ kind: Kind, help: String, completion: CompletionKind = .none, required: Bool = false) {
        self.name = name.rawValue
        self.kind = kind
        self.help = help
        self.completion = completion
        self.isRequired = required
    }

    package var takesValue: Bool { kind != .flag }

    /// The name in `--name` or `--name=value`.
    static func name(in word: String) -> String {
        String(word.dropFirst(2).prefix { $0 != "=" })
    }

    /// `--release R`, as usage lines show it.
    package var synopsis: String {
        switch kind {
        case .flag: return "--\(name)"
        case .value(let value): return "--\(name) \(value)"
        case .repeated(let value): return "--\(name) \(value)…"
        }
    }
}

/// A positional argument.
package struct ArgumentDefinition: Sendable {
    package var name: String
    package var help: String
    package var isOptional: Bool
    package var isRepeating: Bool
    package var completion: CompletionKind

    package init(_ name: String, help: String, optional: Bool = false, repeating: Bool = false, completion: CompletionKind = .none) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating
        self.completion = completion
    }

    package var synopsis: String {
        let core = name + (isRepeating ? "…" : "")
        return isOptional ? "[\(core)]" : core
    }
}

/// A real invocation shown in help, with what it does.
package struct Example: Sendable {
    package var command: String
    package var explanation: String

    package init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}

/// The declaration of one command: its name, options, arguments, help and examples.
package struct CommandDefinition: Sendable {
    package var name: String
    package var abstract: String
    package var discussion: String
    package var arguments: [ArgumentDefinition]
    package var options: [OptionDefinition]
    package var examples: [Example]

    package init(
        name: String, abstract: String, discussion: String = "", arguments: [ArgumentDefinition] = [],
        options: [OptionDefinition] = [], examples: [Example] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.examples = examples
    }

    package var usage: String {
        var parts = ["checkrun", name]
        parts += options.map { $0.isRequired ? $0.synopsis : "[\($0.synopsis)]" }
        parts += arguments.map(\.synopsis)
        return parts.joined(separator: " ")
    }
}
