import CheckrunModel

/// The filters that choose checks, declared once and shared by `list` and `run`, so the two
/// always accept the same ones: a check is chosen when it matches all of them.
struct CheckFilter {
    static let options = [
        OptionDefinition(.protocolFilter, .repeated("ID"), help: "Only the checks of this protocol (repeatable)."),
        OptionDefinition(.check, .repeated("ID"), help: "Only this check, as protocol/check (repeatable)."),
        OptionDefinition(.profile, .value("TEXT"), help: "Only checks whose profile contains TEXT, e.g. \"Switch Control\" (case ignored)."),
        OptionDefinition(.wcag, .value("SC"), help: "Only checks that give evidence for this success criterion, e.g. 2.5.8."),
    ]

    var protocols: [String]
    var checks: [String]
    var profile: String?
    var wcag: String?

    init(_ arguments: ParsedArguments) {
        protocols = arguments.all(.protocolFilter)
        checks = arguments.all(.check)
        profile = arguments.value(.profile)
        // " 2.5.8" copied with a space around it names 2.5.8.
        wcag = arguments.value(.wcag)?.trimmingCharacters(in: .whitespaces)
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
            // A check named twice, or by two names ("touch-one-hand", "tiny-target/touch-one-hand"),
            // is one check: a walk asks each check once.
            if !selected.contains(where: { $0.name == reference.name }) { selected.append(reference) }
        }
        if wcag?.isEmpty == true {
            throw CommandFailure("--wcag is empty; name a success criterion, e.g. --wcag 2.5.8", exitCode: 2)
        }
        if let wcag, !WCAGTable.wcag22.contains(wcag) {
            // A value the option cannot take: a usage error (exit 2), as any other.
            let hint = WCAGTable.wcag22.suggestions(for: wcag).first.map { " Did you mean \($0)?" }
                ?? " Success criteria are numbered 1.1.1 to 4.1.3; `checkrun list` shows those the protocols map."
            throw CommandFailure("--wcag \(DisplayText.preview(wcag, limit: 40)): not a WCAG 2.2 success criterion.\(hint)", exitCode: 2)
        }
        let pool = selected.isEmpty ? library.allChecks : selected
        return pool.filter { reference in
            (protocols.isEmpty || protocols.contains(reference.document.id))
                && (profile.map { reference.check.profile.localizedCaseInsensitiveContains($0) } ?? true)
                && (wcag.map { reference.criteria.contains($0) } ?? true)
        }
    }
}
