import CheckrunTerminal
import CheckrunModel
import Foundation

/// `checkrun lint`: every problem in the protocol files, one line each, editor-clickable.
struct LintCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "lint",
        abstract: "Validate protocol files against Schemas/protocol.schema.json and checkrun's own rules.",
        discussion: """
        Each problem is one line, file:line:column: /json/pointer: message, and says how to fix it.
        Besides the schema, lint checks that ids are unique, that each protocol's id equals its file
        name, that WCAG numbers are real WCAG 2.2 success criteria, and that every counter an
        expected outcome names exists. Exit status: 0 when clean, 1 when there are problems.
        """,
        arguments: [
            ArgumentDefinition("PATH", help: "Protocol files or folders (default: the protocol folder).", optional: true, repeating: true, completion: .file),
        ],
        examples: [
            Example("checkrun lint", "Validate every protocol in ./protocols."),
            Example("checkrun lint protocols/tiny-target.json", "Validate one file while you edit it."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let paths = context.arguments.positionals.isEmpty ? [context.protocolsDirectory] : context.arguments.positionals
        if paths.contains("") {
            throw UsageError("an empty path was given; name a protocol folder or file, e.g. checkrun lint protocols", command: "lint")
        }
        var files: [String] = []
        var unreadable: [String] = []
        // A file named twice (a folder and a file in it, or the same file again) is one file:
        // linted twice, it was "also used by" itself.
        var named = Set<String>()
        for path in paths {
            do {
                files += try ProtocolLibrary.protocolFiles(in: path).filter {
                    named.insert(URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path).inserted
                }
            } catch {
                unreadable.append(error.description)
            }
        }
        let linter = ProtocolLinter()
        var problemCount = 0
        var idsSeen: [String: String] = [:]
        for file in files {
            let result = linter.lint(fileAt: file)
            for problem in result.problems { context.print(problem.description) }
            problemCount += result.problems.count
            if let document = result.document {
                if let other = idsSeen[document.id] {
                    context.print("\(file):1:1: /id: the id \"\(document.id)\" is also used by \(other); protocol ids must be unique")
                    problemCount += 1
                }
                idsSeen[document.id] = file
            }
        }
        for message in unreadable { context.printError("checkrun: error: \(message)") }
        // Nothing could be read: the error says so, and a count of nothing would only confuse.
        if files.isEmpty && !unreadable.isEmpty { return 1 }
        let summary = "\(files.count) file\(files.count == 1 ? "" : "s") checked, "
        if problemCount == 0 && unreadable.isEmpty {
            context.printError(summary + context.err.success("no problems") + ".")
            return 0
        }
        context.printError(summary + context.err.error("\(problemCount) problem\(problemCount == 1 ? "" : "s")") + ".")
        return 1
    }
}
