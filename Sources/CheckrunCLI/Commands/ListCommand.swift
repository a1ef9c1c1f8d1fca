import CheckrunTerminal
import CheckrunModel

/// `checkrun list`: the checks a walk would offer, filtered the way `run` filters them.
struct ListCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "list",
        abstract: "List protocols and their checks: id, profile and task.",
        discussion: "Filters combine: a check is listed when it matches all of them.",
        options: [
            OptionDefinition("protocol", .repeated("ID"), help: "Only this protocol (repeatable)."),
            OptionDefinition("profile", .value("TEXT"), help: "Only checks whose profile contains TEXT, e.g. \"Switch Control\" (case ignored)."),
            OptionDefinition("wcag", .value("SC"), help: "Only checks that give evidence for this success criterion, e.g. 2.5.8."),
            OptionDefinition("json", .flag, help: "Print JSON instead of text."),
        ],
        examples: [
            Example("checkrun list --profile voiceover", "Every check a VoiceOver tester walks."),
            Example("checkrun list --wcag 2.5.8 --json", "The checks behind Target Size (Minimum), as JSON."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let library = try context.loadProtocols()
        let checks = try CheckFilter(context.arguments).apply(to: library)
        if context.arguments.flag("json") {
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
            context.printData(JSONWriter.write(.array(items)))
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

/// The `--protocol`, `--profile`, `--wcag` and `--check` filters shared by `list` and `run`.
struct CheckFilter {
    var protocols: [String]
    var checks: [String]
    var profile: String?
    var wcag: String?

    init(_ arguments: ParsedArguments) {
        protocols = arguments.all("protocol")
        checks = arguments.all("check")
        profile = arguments.value("profile")
        wcag = arguments.value("wcag")
    }

    func apply(to library: ProtocolLibrary) throws -> [CheckReference] {
        for id in protocols where library.document(id: id) == nil {
            let hint = library.suggestions(forProtocol: id).first.map { " Did you mean \"\($0)\"?" } ?? ""
            throw CommandFailure("no protocol \"\(id)\" in \(library.directory).\(hint) Run `checkrun list` to see them all.")
        }
        var selected: [CheckReference] = []
        for name in checks {
            guard let reference = library.check(named: name) else {
                let hint = library.suggestions(forCheck: name).first.map { " Did you mean \"\($0)\"?" } ?? ""
                throw CommandFailure("no check \"\(name)\"; name a check as protocol-id/check-id.\(hint) Run `checkrun list` to see them all.")
            }
            selected.append(reference)
        }
        if let wcag, !WCAGTable.wcag22.contains(wcag) {
            let hint = WCAGTable.wcag22.suggestions(for: wcag).first.map { " Did you mean \($0)?" } ?? ""
            throw CommandFailure("\"\(wcag)\" is not a WCAG 2.2 success criterion.\(hint)")
        }
        let pool = selected.isEmpty ? library.allChecks : selected
        return pool.filter { reference in
            (protocols.isEmpty || protocols.contains(reference.document.id))
                && (profile.map { reference.check.profile.localizedCaseInsensitiveContains($0) } ?? true)
                && (wcag.map { reference.criteria.contains($0) } ?? true)
        }
    }
}

import Foundation
