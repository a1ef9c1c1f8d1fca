import CheckrunTerminal
import CheckrunModel
import Foundation

/// `checkrun show`: one protocol or one check, in full, as a tester reads it.
struct ShowCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "show",
        abstract: "Show one protocol, or one check, in full.",
        discussion: "Without a protocol folder, the protocol versions kept in the database (--db) are shown: the text the testers walked.",
        arguments: [ArgumentDefinition("ID", help: "A protocol id (tiny-target) or a check (tiny-target/touch-one-hand).")],
        options: [OptionDefinition(.json, .flag, help: "Print the protocol's or check's JSON."), StoreOptions.database],
        examples: [
            Example("checkrun show tiny-target", "Every check of the Tiny Target protocol."),
            Example("checkrun show tiny-target/touch-one-hand --json", "One check as JSON."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let library = context.usesStoredProtocols && (ServerAddress.isServer(context.databasePath) || FileManager.default.fileExists(atPath: context.databasePath))
            ? try context.loadProtocols(orStoredIn: try context.openStore(.readOnly))
            : try context.loadProtocols()
        let id = context.arguments.positionals[0]
        let json = context.arguments.flag(.json)
        if let document = library.document(id: id) {
            if json {
                context.printData(document.fileText)
                return 0
            }
            context.print(context.out.bold(document.title))
            context.print("Id: \(document.id)")
            context.print("Status: \(document.status.rawValue)")
            context.print("Source: \(document.source)")
            context.print("WCAG: \(describe(document.wcag))")
            context.print("Checks: \(document.checks.count)")
            for (index, check) in document.checks.enumerated() {
                context.print()
                printCheck(CheckReference(document: document, check: check), number: index + 1, of: document.checks.count, context)
            }
            return 0
        }
        guard id.contains("/"), let reference = library.check(named: id) else {
            let candidates = library.documents.map(\.id) + library.allChecks.map(\.name)
            let hint = Suggestions.closest(to: id, among: candidates).first.map { " Did you mean \"\($0)\"?" } ?? ""
            throw CommandFailure("no protocol or check \"\(id)\".\(hint) Run `checkrun list` to see them all.")
        }
        if json {
            context.printData(JSONWriter.forReading(JSONWriter.write(reference.check.json)))
            return 0
        }
        context.print(context.out.bold(reference.document.title))
        printCheck(reference, number: nil, of: nil, context)
        return 0
    }

    static func printCheck(_ reference: CheckReference, number: Int?, of total: Int?, _ context: CommandContext) {
        let check = reference.check
        let heading = number.flatMap { n in total.map { "Check \(n) of \($0): " } } ?? "Check: "
        context.print(heading + reference.name)
        context.print("  Profile: \(check.profile)")
        context.print("  Task: \(check.task)")
        if let timeLimit = check.timeLimit { context.print("  Time limit: \(timeLimit) seconds") }
        if check.expected.isEmpty {
            context.print("  Expected: none written yet")
        } else {
            context.print("  Expected:")
            for (index, outcome) in check.expected.enumerated() {
                let target = outcome.target.map { " (counter \($0.counter), \($0.summary))" } ?? ""
                context.print("    \(index + 1). \(outcome.text)\(target)")
            }
        }
        for counter in check.counters {
            context.print("  Counter \(counter.id): \(counter.label)\(counter.ceiling.map { ", at most \($0)" } ?? "")")
        }
        context.print("  WCAG: \(describe(reference.criteria))")
        if let notes = check.notes { context.print("  Notes: \(notes)") }
        if let review = check.review { context.print("  Needs review: \(review)") }
    }

    static func describe(_ criteria: [String]) -> String {
        guard !criteria.isEmpty else { return "none mapped" }
        return criteria.map { WCAGTable.wcag22[$0].map { "\($0.title) (\($0.level.rawValue))" } ?? $0 }.joined(separator: "; ")
    }
}
