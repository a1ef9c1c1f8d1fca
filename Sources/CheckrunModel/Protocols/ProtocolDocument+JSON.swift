/// Conversion between protocol files and the model. Decoding trusts a document that passed
/// the schema; anything else is reported by `ProtocolLinter`, never by a crash here.
extension ProtocolDocument {
    init?(json node: JSONNode) {
        guard let id = node["id"]?.stringValue, let title = node["title"]?.stringValue,
              let status = node["status"]?.stringValue.flatMap(Status.init(rawValue:)),
              let source = node["source"]?.stringValue, let checks = node["checks"]?.arrayValue
        else { return nil }
        let decoded = checks.compactMap(Check.init(json:))
        guard decoded.count == checks.count else { return nil }
        self.init(
            id: id, title: title, status: status, source: source,
            wcag: (node["wcag"]?.arrayValue ?? []).compactMap(\.stringValue), checks: decoded,
            schemaReference: node["$schema"]?.stringValue)
    }

    /// The file's JSON, keys in the order a person reads them.
    package var json: JSONValue {
        var members: [JSONMember] = []
        if let schemaReference { members.append(member("$schema", .string(schemaReference))) }
        members += [
            member("id", .string(id)),
            member("title", .string(title)),
            member("status", .string(status.rawValue)),
            member("source", .string(source)),
            member("wcag", .array(wcag.map { JSONNode(.string($0)) })),
            member("checks", .array(checks.map { JSONNode($0.json) })),
        ]
        return .object(members)
    }

    /// The text of the protocol file as checkrun writes it.
    package var fileText: String { JSONWriter.write(json) }
}

extension Check {
    init?(json node: JSONNode) {
        guard let id = node["id"]?.stringValue, let profile = node["profile"]?.stringValue,
              let task = node["task"]?.stringValue, let expected = node["expected"]?.arrayValue
        else { return nil }
        self.init(
            id: id, profile: profile, task: task,
            expected: expected.compactMap(ExpectedOutcome.init(json:)),
            counters: (node["counters"]?.arrayValue ?? []).compactMap(Counter.init(json:)),
            timeLimit: node["timeLimit"]?.intValue,
            wcag: node["wcag"]?.arrayValue?.compactMap(\.stringValue),
            notes: node["notes"]?.stringValue,
            review: node["review"]?.stringValue,
            assistiveTechnology: node["assistiveTechnology"]?.stringValue.flatMap(AssistiveTechnology.init(rawValue:)))
    }

    package var json: JSONValue {
        var members = [
            member("id", .string(id)),
            member("profile", .string(profile)),
        ]
        // Written only when the file names it, so protocols from before the field keep their hash.
        if let assistiveTechnology { members.append(member("assistiveTechnology", .string(assistiveTechnology.rawValue))) }
        members += [
            member("task", .string(task)),
            member("expected", .array(expected.map { JSONNode($0.json) })),
        ]
        if !counters.isEmpty { members.append(member("counters", .array(counters.map { JSONNode($0.json) }))) }
        if let timeLimit { members.append(member("timeLimit", .integer(timeLimit))) }
        if let wcag { members.append(member("wcag", .array(wcag.map { JSONNode(.string($0)) }))) }
        if let notes { members.append(member("notes", .string(notes))) }
        if let review { members.append(member("review", .string(review))) }
        return .object(members)
    }
}

extension ExpectedOutcome {
    init?(json node: JSONNode) {
        if let text = node.stringValue {
            self.init(text)
            return
        }
        guard let text = node["text"]?.stringValue, let counter = node["counter"]?.stringValue else { return nil }
        self.init(text, target: NumericTarget(
            counter: counter, atLeast: node["atLeast"]?.intValue, atMost: node["atMost"]?.intValue,
            outOf: node["outOf"]?.intValue))
    }

    package var json: JSONValue {
        guard let target else { return .string(text) }
        var members = [member("text", .string(text)), member("counter", .string(target.counter))]
        if let atLeast = target.atLeast { members.append(member("atLeast", .integer(atLeast))) }
        if let atMost = target.atMost { members.append(member("atMost", .integer(atMost))) }
        if let outOf = target.outOf { members.append(member("outOf", .integer(outOf))) }
        return .object(members)
    }
}

extension Counter {
    init?(json node: JSONNode) {
        guard let id = node["id"]?.stringValue, let label = node["label"]?.stringValue else { return nil }
        self.init(id: id, label: label, ceiling: node["ceiling"]?.intValue)
    }

    package var json: JSONValue {
        var members = [member("id", .string(id)), member("label", .string(label))]
        if let ceiling { members.append(member("ceiling", .integer(ceiling))) }
        return .object(members)
    }
}

private func member(_ key: String, _ value: JSONValue) -> JSONMember {
    JSONMember(key, JSONNode(value))
}

extension ProtocolDocument {
    /// SHA-256 of the protocol as checkrun writes it, so formatting does not matter but any change
    /// of content does. Results keep it, and reports show when a protocol changed after testing.
    package var contentHash: String {
        SHA256.hex(fileText)
    }
}
