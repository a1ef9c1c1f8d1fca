import Foundation

/// A message about a catalog page, printed as `file:line: message`.
package struct ImportMessage: Error, Sendable, Equatable, CustomStringConvertible {
    package var file: String
    package var line: Int?
    package var message: String

    package var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}

/// What importing one page produced.
package struct CatalogImport: Sendable {
    package var document: ProtocolDocument
    package var warnings: [ImportMessage]
    /// The page's lines the title and each check (in the protocol's order) came from.
    package var titleLine: Int? = nil
    package var checkLines: [CheckLines] = []

    /// Where a check stands on its page: its Profile line, its task's and each outcome's.
    package struct CheckLines: Sendable {
        var profile: Int
        var task: Int? = nil
        var expected: [Int] = []
    }

    /// The page line a place in the protocol came from: a problem with the protocol a page
    /// made is the page's to fix, so it is said at the page's line, not in a file never written.
    package func pageLine(of pointer: JSONPointer?) -> Int? {
        guard let tokens = pointer?.tokens, let first = tokens.first else { return nil }
        if first == "title" || first == "id" { return titleLine }
        guard first == "checks", tokens.count > 1, let index = Int(tokens[1]), checkLines.indices.contains(index) else { return nil }
        let lines = checkLines[index]
        switch tokens.dropFirst(2).first {
        case "task"?: return lines.task ?? lines.profile
        case "expected"?:
            guard tokens.count > 3, let outcome = Int(tokens[3]), lines.expected.indices.contains(outcome) else { return lines.profile }
            return lines.expected[outcome]
        default: return lines.profile
        }
    }
}

/// Turns a catalog page (plain text or Markdown) into a protocol: a check from every
/// Profile/Task/Expected block, draft checks from one-line "Check:" sentences, and the
/// WCAG numbers of the "WCAG mapping" list.
package struct CatalogImporter: Sendable {
    package let wcag: WCAGTable

    package init(wcag: WCAGTable = .wcag22) {
        self.wcag = wcag
    }

    /// The page line (from 1) holding the first `character` (a NUL the page may not hold),
    /// counted as the importer counts lines, so a message about it points where the others do.
    /// Looked for by scalar: a NUL followed by a combining mark is one Character with it.
    package static func line(ofFirst character: Unicode.Scalar, in page: String) -> Int? {
        CatalogLine.rawLines(of: page).firstIndex { $0.unicodeScalars.contains(character) }.map { $0 + 1 }
    }

    /// Assistive technologies a "Check:" sentence may name, for its draft profile.
    static let assistiveTechnologies = [
        "Accessibility Inspector", "Switch Control", "Voice Control", "VoiceOver", "AssistiveTouch",
        "Full Keyboard Access", "Assistive Access", "Dwell", "Zoom", "Larger Text", "Hover Text",
        "Head Tracking", "Eye Tracking", "Reduce Motion",
    ]

    static let reviewNote = "Imported from a one-line \"Check:\" sentence: confirm the profile, split the task if it holds several, write the expected outcomes, then remove this note."

    package func importPage(text: String, fileName: String) throws(ImportMessage) -> CatalogImport {
        var scan = PageScan(file: fileName, wcag: wcag)
        let lines = scan.visibleLines(CatalogLine.rawLines(of: text))
        try scan.read(lines)
        guard !scan.blocks.isEmpty || !scan.sentences.isEmpty else {
            throw scan.failure(nil, "no check found: the page has no Profile/Task/Expected block and no \"Check:\" sentence. A check block reads \"Profile: VoiceOver\", \"Task: …\", \"Expected: …\"")
        }
        // A heading shown in code ("# install first" in a shell example) is no title.
        let titled = pageTitle(lines.filter { !scan.code.contains($0.number) })
        let title = titled?.plain ?? ""
        let id = Slug.make(title.replacingOccurrences(of: #"^\d+(\.\d+)*\.?\s+"#, with: "", options: .regularExpression))
        guard !id.isEmpty else {
            throw scan.failure(1, "cannot make a protocol id from the title \"\(title)\": an id is made of the Latin letters a to z and digits, and the title has none; begin the page with a title that has some, e.g. \"Tiny Target\"")
        }
        let checks = makeChecks(&scan)
        let status = protocolStatus(&scan)
        let document = ProtocolDocument(
            id: id, title: title, status: status, source: (fileName as NSString).lastPathComponent,
            wcag: scan.criteria, checks: checks)
        return CatalogImport(document: document, warnings: scan.warnings, titleLine: titled?.number,
                             checkLines: scan.blocks.map { CatalogImport.CheckLines(profile: $0.line, task: $0.taskLine, expected: $0.expectedLines) }
                                 + scan.sentences.map { CatalogImport.CheckLines(profile: $0.line, task: $0.line) })
    }

    /// A check per block, then a draft check per "Check:" sentence, each with an id unique in
    /// the protocol.
    private func makeChecks(_ scan: inout PageScan) -> [Check] {
        var ids = IDAllocator()
        var checks = scan.blocks.map { block in
            Check(id: ids.take(Slug.make(block.profile), fallback: "check"),
                  profile: block.profile, task: block.task ?? "",
                  expected: block.expected.map { ExpectedOutcome($0) },
                  assistiveTechnology: .derived(from: block.profile))
        }
        for (index, sentence) in scan.sentences.enumerated() {
            let named = namedTechnologies(in: sentence.text)
            let base = sentence.heading.map { draftID(fromHeading: $0) } ?? "check-\(index + 1)"
            let check = Check(
                id: ids.take(base, fallback: "check"), profile: named.first ?? "unspecified", task: sentence.text,
                expected: [], review: Self.reviewNote, assistiveTechnology: .derived(from: named.first ?? "unspecified"))
            checks.append(check)
            var note = "warning: \"Check:\" sentence imported as draft check \"\(check.id)\" for review (profile: \(check.profile))"
            if named.count > 1 { note += "; it names \(named.joined(separator: ", ")): consider one check for each" }
            scan.warn(sentence.line, note)
        }
        return checks
    }

    /// Ready only when the page says so and holds no draft check.
    private func protocolStatus(_ scan: inout PageScan) -> ProtocolDocument.Status {
        switch scan.status {
        case "ready"?:
            guard scan.sentences.isEmpty else {
                scan.warn(scan.statusLine, "warning: the page says ready, but its \"Check:\" sentences need review, so the protocol is a draft")
                return .draft
            }
            return .ready
        case "draft"?, nil:
            return .draft
        case let other?:
            scan.warn(scan.statusLine, "warning: unknown status \"\(other)\"; the protocol is a draft (use ready or draft)")
            return .draft
        }
    }

    /// The first Markdown heading, else the first line with words on it.
    private func pageTitle(_ lines: [CatalogLine]) -> CatalogLine? {
        if let heading = lines.first(where: { $0.isHeading && !$0.plain.isEmpty }) { return heading }
        let candidates = lines.filter { !$0.plain.isEmpty && $0.label == nil }
        // A leading path such as "/xcode-26" is a breadcrumb, not a title.
        return candidates.first { !($0.plain.hasPrefix("/") && !$0.plain.contains(" ")) } ?? candidates.first
    }

    private func draftID(fromHeading heading: String) -> String {
        if let match = heading.range(of: #"^Decision\s+\d+"#, options: .regularExpression) {
            return Slug.make(String(heading[match]))
        }
        let words = Slug.make(heading).split(separator: "-").prefix(5)
        return words.joined(separator: "-")
    }

    /// The assistive technologies a sentence names, in the order it names them.
    func namedTechnologies(in sentence: String) -> [String] {
        Self.assistiveTechnologies
            .compactMap { name -> (String, String.Index)? in
                guard let range = sentence.range(of: "\\b\(name)\\b", options: [.regularExpression, .caseInsensitive]) else { return nil }
                return (name, range.lowerBound)
            }
            .sorted { $0.1 < $1.1 }
            .map(\.0)
    }
}

/// Hands out ids that are unique within one protocol: `voiceover`, then `voiceover-2`.
struct IDAllocator {
    private var used: Set<String> = []

    mutating func take(_ base: String, fallback: String) -> String {
        let stem = base.isEmpty ? fallback : base
        var candidate = stem
        var counter = 2
        while used.contains(candidate) {
            candidate = "\(stem)-\(counter)"
            counter += 1
        }
        used.insert(candidate)
        return candidate
    }
}
