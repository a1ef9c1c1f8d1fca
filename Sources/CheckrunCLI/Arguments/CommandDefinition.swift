/// How the shell should complete a value.
public enum CompletionKind: Sendable, Equatable {
    case none
    case file
    case directory
    case values([String])
    /// The names of checkrun's commands.
    case commands
}

/// One `--option` of a command. Help text, parsing and completion scripts all come from this.
public struct OptionDefinition: Sendable {
    public enum Kind: Sendable, Equatable {
        /// `--flag`, present or absent.
        case flag
        /// `--name VALUE` or `--name=VALUE`.
        case value(String)
        /// `--name VALUE`, given any number of times.
        case repeated(String)
    }

    public var name: String
    public var kind: Kind
    public var help: String
    public var completion: CompletionKind
    /// Shown without brackets in the usage line: the command cannot run without it.
    public var isRequired: Bool

    public init(_ name: String, _ kind: Kind, help: String, completion: CompletionKind = .none, required: Bool = false) {
        self.name = name
        self.kind = kind
        self.help = help
        self.completion = completion
        self.isRequired = required
    }

    public var takesValue: Bool { kind != .flag }

    /// `--release R`, as usage lines show it.
    public var synopsis: String {
        switch kind {
        case .flag: return "--\(name)"
        case .value(let value): return "--\(name) \(value)"
        case .repeated(let value): return "--\(name) \(value)…"
        }
    }
}

/// A positional argument.
public struct ArgumentDefinition: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool
    public var isRepeating: Bool
    public var completion: CompletionKind

    public init(_ name: String, help: String, optional: Bool = false, repeating: Bool = false, completion: CompletionKind = .none) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating
        self.completion = completion
    }

    public var synopsis: String {
        let core = name + (isRepeating ? "…" : "")
        return isOptional ? "[\(core)]" : core
    }
}

/// A real invocation shown in help, with what it does.
public struct Example: Sendable {
    public var command: String
    public var explanation: String

    public init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}

/// The declaration of one command: its name, options, arguments, help and examples.
public struct CommandDefinition: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String
    public var arguments: [ArgumentDefinition]
    public var options: [OptionDefinition]
    public var examples: [Example]

    public init(
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

    public var usage: String {
        var parts = ["checkrun", name]
        parts += options.map { $0.isRequired ? $0.synopsis : "[\($0.synopsis)]" }
        parts += arguments.map(\.synopsis)
        return parts.joined(separator: " ")
    }
}
