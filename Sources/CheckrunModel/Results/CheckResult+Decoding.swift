import Foundation

/// Why a record's payload is not a result checkrun could have written.
package struct PayloadProblem: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String

    init(_ description: String) { self.description = description }
}

extension CheckResult {
    /// Reads a result back from its payload; nil when it is not a result checkrun could have
    /// written (see `decode`).
    package static func decoding(payload text: String, sessionID: UUID) -> CheckResult? {
        try? decode(payload: text, sessionID: sessionID)
    }

    /// Reads a result back from its payload. Any value checkrun never writes (a verdict it does
    /// not know, an attempt below 1, a stopwatch event of no known kind, a number where text
    /// belongs …) makes the whole payload unreadable instead of being read as "no verdict" or
    /// left out: a record forged with such a value (its hashes recomputed) must be refused by
    /// `merge` and named by `verify`, never stand quietly for another answer. A member that is
    /// absent reads as empty, as an older writer may have left it out.
    package static func decode(payload text: String, sessionID: UUID) throws(PayloadProblem) -> CheckResult {
        guard let root = try? JSONParser.parse(text) else { throw PayloadProblem("it is not JSON") }
        let fields = try PayloadFields(root, "the result")
        // Written in lower case: another spelling of the same id is not checkrun's (the chain
        // check reads the id as written, and would call the record another result's).
        let id = try fields.required("id") { node in node.stringValue.flatMap { text in UUID(uuidString: text).flatMap { $0.lowercasedText == text ? $0 : nil } } }
        let attempt = try fields.required("attempt") { node in node.intValue.flatMap { $0 >= 1 ? $0 : nil } }
        let startedAt = try fields.required("startedAt", date)
        var result = CheckResult(id: id, sessionID: sessionID, check: try fields.required("check", \.stringValue),
                                 protocolHash: try fields.required("protocolHash", \.stringValue), attempt: attempt, outcomeCount: 0,
                                 startedAt: startedAt)
        result.verdict = try fields.optional("verdict") { $0.stringValue.flatMap(Verdict.init(rawValue:)) }
        result.blockedReason = try fields.optional("blockedReason", \.stringValue)
        result.tally = try fields.optional("tally", nonNegative) ?? 0
        result.notes = try fields.optional("notes", \.stringValue)
        result.notesAnsweredAt = try fields.optional("notesAnsweredAt", date)
        result.updatedAt = try fields.optional("updatedAt", date) ?? startedAt
        result.outcomes = try fields.list("outcomes") { item throws(PayloadProblem) in
            item.value == .null ? nil : try decodeOutcome(item)
        }
        result.counters = try decodeCounters(fields)
        result.stopwatch = try fields.list("stopwatch", decodeEvent)
        result.attachments = try fields.list("attachments", decodeAttachment)
        return result
    }

    /// Stopwatch events as a payload lists them; nil when one is not an event checkrun writes.
    package static func decodeEvents(_ items: [JSONNode]) -> [StopwatchEvent]? {
        var events: [StopwatchEvent] = []
        for item in items {
            guard let event = try? decodeEvent(item) else { return nil }
            events.append(event)
        }
        return events
    }

    /// A count (a tally, a counter, an outcome's value): never below zero.
    private static func nonNegative(_ node: JSONNode) -> Int? {
        node.intValue.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Seconds of a timing: finite, from zero to a day (the most a typed time may be).
    private static func seconds(_ node: JSONNode) -> Double? {
        node.doubleValue.flatMap { $0.isFinite && $0 >= 0 && $0 <= 86_400 ? $0 : nil }
    }

    /// Where on a stopwatch an event falls: finite, never before the start. (A named function,
    /// not a closure: Swift 6.3's optimiser crashed on the closure in a release build.)
    private static func offset(_ node: JSONNode) -> Double? {
        node.doubleValue.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    private static func date(_ node: JSONNode) -> Date? {
        node.doubleValue.map(Date.init(timeIntervalSince1970:))
    }

    private static func decodeOutcome(_ item: JSONNode) throws(PayloadProblem) -> OutcomeAnswer {
        let fields = try PayloadFields(item, "an expected outcome's answer")
        return OutcomeAnswer(try fields.required("verdict") { $0.stringValue.flatMap(OutcomeVerdict.init(rawValue:)) },
                             value: try fields.optional("value", nonNegative), note: try fields.optional("note", \.stringValue),
                             answeredAt: try fields.optional("answeredAt", date) ?? Date(timeIntervalSince1970: 0))
    }

    private static func decodeCounters(_ fields: PayloadFields) throws(PayloadProblem) -> [String: CounterValue] {
        guard let node = fields.values["counters"], node.value != .null else { return [:] }
        guard let members = node.objectMembers else { throw PayloadProblem("its counters are not an object") }
        var counters: [String: CounterValue] = [:]
        for member in members {
            let counter = try PayloadFields(member.value, "the counter \(member.key)")
            counters[member.key] = CounterValue(try counter.required("value", nonNegative),
                                                answeredAt: try counter.optional("answeredAt", date) ?? Date(timeIntervalSince1970: 0))
        }
        return counters
    }

    private static func decodeEvent(_ item: JSONNode) throws(PayloadProblem) -> StopwatchEvent {
        let fields = try PayloadFields(item, "a stopwatch event")
        return StopwatchEvent(try fields.required("kind") { $0.stringValue.flatMap(StopwatchEvent.Kind.init(rawValue:)) },
                              at: try fields.optional("at", offset) ?? 0,
                              typedSeconds: try fields.optional("typedSeconds", seconds),
                              recordedAt: try fields.optional("recordedAt", date) ?? Date(timeIntervalSince1970: 0))
    }

    private static func decodeAttachment(_ item: JSONNode) throws(PayloadProblem) -> Attachment {
        let fields = try PayloadFields(item, "an attachment")
        return Attachment(hash: try fields.required("hash", \.stringValue), name: try fields.optional("name", \.stringValue) ?? "",
                          mediaType: try fields.optional("mediaType", \.stringValue) ?? "application/octet-stream",
                          size: try fields.required("size") { node in node.intValue.flatMap { $0 >= 0 ? $0 : nil } },
                          description: try fields.optional("description", \.stringValue) ?? "", outcome: try fields.optional("outcome", \.intValue),
                          attachedAt: try fields.optional("attachedAt", date) ?? Date(timeIntervalSince1970: 0))
    }
}

/// The members of one object of a payload, each read strictly: a value of a kind checkrun never
/// writes there is a problem, naming the member and what holds it.
private struct PayloadFields {
    let values: [String: JSONNode]
    let holder: String

    init(_ node: JSONNode, _ holder: String) throws(PayloadProblem) {
        guard let members = node.objectMembers else { throw PayloadProblem("\(holder) is not an object") }
        var values: [String: JSONNode] = [:]
        for member in members { values[member.key] = member.value }
        self.values = values
        self.holder = holder
    }

    /// A member that must be there and read.
    func required<T>(_ key: String, _ read: (JSONNode) -> T?) throws(PayloadProblem) -> T {
        guard let node = values[key] else { throw PayloadProblem("\(holder) has no \(key)") }
        guard let value = read(node) else { throw unwritten(key, node) }
        return value
    }

    /// A member that may be absent or null; any other value must read.
    func optional<T>(_ key: String, _ read: (JSONNode) -> T?) throws(PayloadProblem) -> T? {
        guard let node = values[key], node.value != .null else { return nil }
        guard let value = read(node) else { throw unwritten(key, node) }
        return value
    }

    /// A list that may be absent or null; each item must read.
    func list<T>(_ key: String, _ read: (JSONNode) throws(PayloadProblem) -> T) throws(PayloadProblem) -> [T] {
        guard let node = values[key], node.value != .null else { return [] }
        guard let items = node.arrayValue else { throw unwritten(key, node) }
        var decoded: [T] = []
        decoded.reserveCapacity(items.count)
        for item in items { decoded.append(try read(item)) }
        return decoded
    }

    private func unwritten(_ key: String, _ node: JSONNode) -> PayloadProblem {
        let shown: String
        switch node.value {
        case .string(let text): shown = "\"\(DisplayText.preview(text, limit: 40))\""
        case .integer(let number): shown = String(number)
        case .number(let number): shown = String(number)
        default: shown = node.value.spokenType
        }
        return PayloadProblem("\(holder)'s \(key) is \(shown), which checkrun never writes")
    }
}
