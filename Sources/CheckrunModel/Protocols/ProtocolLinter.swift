import Foundation

/// Validates protocol files: the schema first, then what a schema cannot say (unique ids,
/// known WCAG numbers, counters that exist, ids that match file names). Every problem is
/// reported, not just the first.
package struct ProtocolLinter: Sendable {
    /// A protocol file is a page of text; anything larger is almost certainly the wrong file.
    package static let maximumFileSize = 1 << 20

    package let schema: JSONSchema
    package let wcag: WCAGTable

    package init(schema: JSONSchema = ProtocolSchema.schema, wcag: WCAGTable = .wcag22) {
        self.schema = schema
        self.wcag = wcag
    }

    package struct Result: Sendable {
        package var document: ProtocolDocument?
        package var problems: [LintProblem]
    }

    /// Lints file content; `fileName` names it in messages and its stem must equal the protocol id.
    package func lint(bytes: [UInt8], fileName: String) -> Result {
        func problem(_ location: SourceLocation, _ pointer: JSONPointer?, _ message: String) -> LintProblem {
            LintProblem(file: fileName, location: location, pointer: pointer, message: message)
        }
        if bytes.count > Self.maximumFileSize {
            return Result(problems: [problem(SourceLocation(line: 1, column: 1), nil, "the file is larger than 1 MB; a protocol file is a page of JSON — is this the right file?")])
        }
        if let issue = TextCheck.firstNonTextByte(in: bytes) {
            return Result(problems: [problem(issue.location, nil, "this is not UTF-8 text (\(issue.reason)); a protocol file is JSON text — is this the right file?")])
        }
        if bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            return Result(problems: [problem(SourceLocation(line: 1, column: 1), nil, "the file is empty; a protocol file is a JSON object with id, title, status, source, wcag and checks (see Schemas/protocol.schema.json, or run `checkrun import`)")])
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes: bytes)
        } catch {
            return Result(problems: [problem(error.location, nil, "invalid JSON: \(error.message)")])
        }
        var problems = schema.validate(root).map { problem($0.location, $0.pointer, $0.message) }
        problems += semanticProblems(in: root, fileName: fileName).map { problem($0.location, $0.pointer, $0.message) }
        problems += controlCharacterProblems(in: root).map { problem($0.location, $0.pointer, $0.message) }
        problems.sort { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
        let document = problems.isEmpty ? ProtocolDocument(json: root) : nil
        if problems.isEmpty && document == nil {
            problems.append(problem(root.location, .root, "the protocol passed the schema but could not be read; please report this"))
        }
        return Result(document: document, problems: problems)
    }

    // MARK: - Rules a schema cannot express

    private func semanticProblems(in root: JSONNode, fileName: String) -> [SchemaViolation] {
        var found: [SchemaViolation] = []
        func add(_ node: JSONNode, _ pointer: JSONPointer, _ message: String) {
            found.append(SchemaViolation(pointer: pointer, location: node.location, message: message))
        }

        let stem = ((fileName as NSString).lastPathComponent as NSString).deletingPathExtension
        if let idNode = root["id"], let id = idNode.stringValue, id != stem, Slug.isValid(id) {
            add(idNode, JSONPointer(["id"]), "the id \"\(id)\" differs from the file name \"\(stem).json\"; rename the file to \(id).json or set the id to \"\(stem)\"")
        }
        checkCriteria(root["wcag"], at: JSONPointer(["wcag"]), add)

        let checks = root["checks"]?.arrayValue ?? []
        var firstCheck: [String: Int] = [:]
        var reviewed = true
        for (index, check) in checks.enumerated() {
            let pointer = JSONPointer(["checks", String(index)])
            if let idNode = check["id"], let id = idNode.stringValue {
                if let first = firstCheck[id] {
                    add(idNode, pointer.appending("id"), "duplicate check id \"\(id)\" (also /checks/\(first)/id); give each check its own id, e.g. \"\(id)-2\"")
                } else {
                    firstCheck[id] = index
                }
            }
            checkCriteria(check["wcag"], at: pointer.appending("wcag"), add)
            if check["review"] != nil { reviewed = false }
            checkCounters(check, at: pointer, add)
        }
        if let statusNode = root["status"], statusNode.stringValue == "ready", !reviewed {
            add(statusNode, JSONPointer(["status"]), "the status is \"ready\" but a check is still marked for review; review it and remove its \"review\", or set the status to \"draft\"")
        }
        return found
    }

    private func checkCriteria(_ list: JSONNode?, at pointer: JSONPointer, _ add: (JSONNode, JSONPointer, String) -> Void) {
        for (index, item) in (list?.arrayValue ?? []).enumerated() {
            // Numbers of the wrong form are the schema's to report; real numbers need no word.
            guard let number = item.stringValue, Self.looksLikeCriterion(number), !wcag.contains(number) else { continue }
            let hint = wcag.suggestions(for: number).compactMap { wcag[$0]?.title }
            add(item, pointer.appending(index), "\"\(number)\" is not a WCAG 2.2 success criterion\(hint.isEmpty ? "" : "; did you mean \(hint.map { "\"\($0)\"" }.joined(separator: " or "))?")")
        }
    }

    /// "2.5.8": three dot-separated numbers, as the schema's pattern has it.
    static func looksLikeCriterion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let first = Int(parts[0]), (1...4).contains(first) else { return false }
        return parts.dropFirst().allSatisfy { (1...2).contains($0.count) && $0.allSatisfy { ("0"..."9").contains($0) } }
    }

    private func checkCounters(_ check: JSONNode, at pointer: JSONPointer, _ add: (JSONNode, JSONPointer, String) -> Void) {
        var counterIDs: [String] = []
        for (index, counter) in (check["counters"]?.arrayValue ?? []).enumerated() {
            guard let idNode = counter["id"], let id = idNode.stringValue else { continue }
            if counterIDs.contains(id) {
                add(idNode, pointer.appending("counters").appending(index).appending("id"), "duplicate counter id \"\(id)\"; give each counter of a check its own id")
            }
            counterIDs.append(id)
        }
        let expected = check["expected"]?.arrayValue
        if let expected, expected.isEmpty, check["review"] == nil, let node = check["expected"] {
            add(node, pointer.appending("expected"), "a check needs at least one expected outcome; write what must happen, or mark the check with \"review\" while it is a draft")
        }
        for (index, outcome) in (expected ?? []).enumerated() where outcome.objectMembers != nil {
            let outcomePointer = pointer.appending("expected").appending(index)
            if let counterNode = outcome["counter"], let name = counterNode.stringValue, !counterIDs.contains(name) {
                let suggestion = Suggestions.didYouMean(name, among: counterIDs)
                add(counterNode, outcomePointer.appending("counter"), "no counter \"\(name)\" in this check.\(suggestion) Add {\"id\": \"\(name)\", \"label\": \"…\"} to the check's \"counters\"")
            }
            let atLeast = outcome["atLeast"]?.intValue, atMost = outcome["atMost"]?.intValue, outOf = outcome["outOf"]?.intValue
            if atLeast == nil && atMost == nil {
                add(outcome, outcomePointer, "a numeric outcome needs a target: add \"atLeast\" or \"atMost\"")
            }
            if let atLeast, let outOf, atLeast > outOf, let node = outcome["atLeast"] {
                add(node, outcomePointer.appending("atLeast"), "atLeast \(atLeast) is more than outOf \(outOf), so the outcome can never pass; lower atLeast or raise outOf")
            }
            if let atLeast, let atMost, atLeast > atMost, let node = outcome["atMost"] {
                add(node, outcomePointer.appending("atMost"), "atMost \(atMost) is less than atLeast \(atLeast), so the outcome can never pass")
            }
        }
    }
}

/// Finds bytes that make a file something other than UTF-8 text.
enum TextCheck {
    struct Issue {
        var location: SourceLocation
        var reason: String
    }

    static func firstNonTextByte(in bytes: [UInt8]) -> Issue? {
        var line = 1, column = 1, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0 { return Issue(location: SourceLocation(line: line, column: column), reason: "a NUL byte at line \(line), column \(column)") }
            let length: Int
            switch byte {
            case 0x00..<0x80: length = 1
            case 0xC2..<0xE0: length = 2
            case 0xE0..<0xF0: length = 3
            case 0xF0..<0xF5: length = 4
            default: return Issue(location: SourceLocation(line: line, column: column), reason: "byte 0x\(String(byte, radix: 16, uppercase: true)) at line \(line), column \(column)")
            }
            if length > 1 {
                let end = index + length
                guard end <= bytes.count, bytes[(index + 1)..<end].allSatisfy({ $0 & 0xC0 == 0x80 }),
                      String(validating: bytes[index..<end], as: UTF8.self) != nil else {
                    return Issue(location: SourceLocation(line: line, column: column), reason: "a broken UTF-8 sequence at line \(line), column \(column)")
                }
            }
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
            index += length
        }
        return nil
    }
}
