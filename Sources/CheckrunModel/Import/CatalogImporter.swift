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
}

/// Turns a catalog page (plain text or Markdown) into a protocol: a check from every
/// Profile/Task/Expected block, draft checks from one-line "Check:" sentences, and the
/// WCAG numbers of the "WCAG mapping" list.
package struct CatalogImporter: Sendable {
    package let wcag: WCAGTable

    package init(wcag: WCAGTable = .wcag22) {
        self.wcag = wcag
    }

    /// Assistive technologies a "Check:" sentence may name, for its draft profile.
    static let assistiveTechnologies = [
        "Accessibility Inspector", "Switch Control", "Voice Control", "VoiceOver", "AssistiveTouch",
        "Full Keyboard Access", "Assistive Access", "Dwell", "Zoom", "Larger Text", "Hover Text",
        "Head Tracking", "Eye Tracking", "Reduce Motion",
    ]

    static let reviewNote = "Imported from a one-line \"Check:\" sentence: confirm the profile, split the task if it holds several, write the expected outcomes, then remove this note."

    private struct PendingCheck {
        var profile: String
        var line: Int
        var task: String?
        var expected: [String] = []
        var field: CatalogLine.Label? = .profile
    }

    package func importPage(text: String, fileName: String) throws(ImportMessage) -> CatalogImport {
        let file = fileName
        func failure(_ line: Int?, _ message: String) -> ImportMessage { ImportMessage(file: file, line: line, message: message) }

        let lines = CatalogLine.lines(of: text)
        var warnings: [ImportMessage] = []
        var blocks: [(check: PendingCheck, end: Int)] = []
        var sentences: [(line: Int, text: String, heading: String?)] = []
        var criteria: [String] = []
        var status: String?
        var statusLine: Int?
        var pending: PendingCheck?
        var inMapping = false
        var lastHeading: String?

        func finish(_ check: PendingCheck?, at line: Int) throws(ImportMessage) {
            guard let check else { return }
            guard check.task != nil else {
                throw failure(check.line, "the Profile \"\(check.profile)\" has no Task; add a \"Task: …\" line under it, then an \"Expected: …\" line")
            }
            guard !check.expected.isEmpty else {
                throw failure(check.line, "the Profile \"\(check.profile)\" has no Expected outcome; add an \"Expected: …\" line, one outcome a line")
            }
            blocks.append((check, line))
        }

        for line in lines {
            if line.isBlank { continue }
            if line.isHeading || line.text.range(of: #"^Decision\s+\d+\b"#, options: .regularExpression) != nil {
                lastHeading = line.text
            }
            switch line.label {
            case .profile:
                try finish(pending, at: line.number)
                inMapping = false
                guard !line.value.isEmpty else {
                    pending = PendingCheck(profile: "", line: line.number)
                    continue
                }
                pending = PendingCheck(profile: line.value, line: line.number)
                continue
            case .task:
                guard var check = pending else {
                    throw failure(line.number, "a Task with no Profile before it; add a \"Profile: …\" line above it")
                }
                if check.task != nil {
                    throw failure(line.number, "a second Task for the Profile \"\(check.profile)\" (line \(check.line)); start a new block with its own \"Profile: …\" line")
                }
                check.task = line.value.isEmpty ? nil : line.value
                if line.value.isEmpty { check.task = "" }
                check.field = .task
                pending = check
                continue
            case .expected:
                guard var check = pending else {
                    throw failure(line.number, "an Expected with no Profile and Task before it; add \"Profile: …\" and \"Task: …\" lines above it")
                }
                if !line.value.isEmpty { check.expected.append(line.value) }
                check.field = .expected
                pending = check
                continue
            case .status where status == nil:
                status = line.value.lowercased()
                statusLine = line.number
                continue
            case .check where !line.value.isEmpty:
                try finish(pending, at: line.number)
                pending = nil
                sentences.append((line.number, line.value, lastHeading))
                continue
            default:
                break
            }

            if var check = pending, let field = check.field, (line.isIndented || line.isListItem) && !line.isHeading {
                switch field {
                case .expected: check.expected.append(line.text)
                case .task: check.task = [check.task ?? "", line.text].filter { !$0.isEmpty }.joined(separator: " ")
                default: check.profile = [check.profile, line.text].filter { !$0.isEmpty }.joined(separator: " ")
                }
                pending = check
                continue
            }
            if pending != nil {
                try finish(pending, at: line.number)
                pending = nil
            }

            if line.text.lowercased().hasPrefix("wcag mapping") {
                inMapping = true
                continue
            }
            if inMapping {
                if line.isListItem || line.isIndented {
                    if let match = line.text.range(of: #"^[1-4]\.[0-9]{1,2}\.[0-9]{1,2}\b"#, options: .regularExpression) {
                        let number = String(line.text[match])
                        if !wcag.contains(number) {
                            warnings.append(failure(line.number, "warning: \(number) is not a WCAG 2.2 success criterion; left out of the mapping"))
                        } else if !criteria.contains(number) {
                            criteria.append(number)
                        }
                    }
                } else {
                    inMapping = false
                }
            }
        }
        try finish(pending, at: lines.count)

        guard !blocks.isEmpty || !sentences.isEmpty else {
            throw failure(nil, "no check found: the page has no Profile/Task/Expected block and no \"Check:\" sentence. A check block reads \"Profile: VoiceOver\", \"Task: …\", \"Expected: …\"")
        }

        let title = pageTitle(lines)
        let id = Slug.make(title.replacingOccurrences(of: #"^\d+(\.\d+)*\.?\s+"#, with: "", options: .regularExpression))
        guard !id.isEmpty else {
            throw failure(1, "cannot make a protocol id from the title \"\(title)\"; give the page a title with letters or digits on its first line")
        }

        var ids = IDAllocator()
        var checks = blocks.map { block in
            Check(id: ids.take(Slug.make(block.check.profile), fallback: "check"),
                  profile: block.check.profile, task: block.check.task ?? "",
                  expected: block.check.expected.map { ExpectedOutcome($0) },
                  assistiveTechnology: .derived(from: block.check.profile))
        }
        for (index, sentence) in sentences.enumerated() {
            let named = namedTechnologies(in: sentence.text)
            let base = sentence.heading.map { draftID(fromHeading: $0) } ?? "check-\(index + 1)"
            let check = Check(
                id: ids.take(base, fallback: "check"), profile: named.first ?? "unspecified", task: sentence.text,
                expected: [], review: Self.reviewNote, assistiveTechnology: .derived(from: named.first ?? "unspecified"))
            checks.append(check)
            var note = "warning: \"Check:\" sentence imported as draft check \"\(check.id)\" for review (profile: \(check.profile))"
            if named.count > 1 { note += "; it names \(named.joined(separator: ", ")): consider one check for each" }
            warnings.append(failure(sentence.line, note))
        }

        var protocolStatus = ProtocolDocument.Status.draft
        switch status {
        case "ready"?:
            protocolStatus = sentences.isEmpty ? .ready : .draft
            if !sentences.isEmpty {
                warnings.append(failure(statusLine, "warning: the page says ready, but its \"Check:\" sentences need review, so the protocol is a draft"))
            }
        case "draft"?, nil:
            protocolStatus = .draft
        case let other?:
            warnings.append(failure(statusLine, "warning: unknown status \"\(other)\"; the protocol is a draft (use ready or draft)"))
        }

        let document = ProtocolDocument(
            id: id, title: title, status: protocolStatus, source: (fileName as NSString).lastPathComponent,
            wcag: criteria, checks: checks)
        return CatalogImport(document: document, warnings: warnings)
    }

    /// The first Markdown heading, else the first line with words on it.
    private func pageTitle(_ lines: [CatalogLine]) -> String {
        if let heading = lines.first(where: { $0.isHeading && !$0.plain.isEmpty }) { return heading.plain }
        let candidates = lines.filter { !$0.plain.isEmpty && $0.label == nil }
        // A leading path such as "/xcode-26" is a breadcrumb, not a title.
        return (candidates.first { !($0.plain.hasPrefix("/") && !$0.plain.contains(" ")) } ?? candidates.first)?.plain ?? ""
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
