import Foundation

/// One entry of a session's append-only record: the full state of a result at the moment an
/// answer was given (or a correction made), chained to the entry before it by SHA-256, so
/// that any change or deletion made behind checkrun's back breaks the chain.
package struct Record: Sendable, Equatable {
    package enum Kind: String, Sendable {
        /// An answer given in a walk or by `record`.
        case answer
        /// A correction made later with `checkrun amend`, with its reason.
        case amend
    }

    package var sessionID: UUID
    /// 1, 2, 3… within the session.
    package var sequence: Int
    package var resultID: UUID
    package var kind: Kind
    package var reason: String?
    /// The result's canonical JSON text.
    package var payload: String
    package var recordedAt: Date
    package var previousHash: String
    package var hash: String

    /// A new record, hashed now.
    package init(sessionID: UUID, sequence: Int, resultID: UUID, kind: Kind, reason: String?, payload: String, recordedAt: Date, previousHash: String) {
        self.init(sessionID: sessionID, sequence: sequence, resultID: resultID, kind: kind, reason: reason, payload: payload,
                  recordedAt: recordedAt, previousHash: previousHash,
                  storedHash: Record.hash(sequence: sequence, kind: kind, reason: reason, payload: payload, previousHash: previousHash))
    }

    /// A record read back from a database or an export, with the hash it was stored with: not
    /// recomputed here, since `isIntact` is what compares the two (and hashing twice per record
    /// was half the cost of verifying and exporting).
    package init(sessionID: UUID, sequence: Int, resultID: UUID, kind: Kind, reason: String?, payload: String, recordedAt: Date,
                previousHash: String, storedHash: String) {
        self.sessionID = sessionID
        self.sequence = sequence
        self.resultID = resultID
        self.kind = kind
        self.reason = reason
        self.payload = payload
        self.recordedAt = recordedAt
        self.previousHash = previousHash
        self.hash = storedHash
    }

    /// SHA-256 over the previous hash and everything this record says.
    package static func hash(sequence: Int, kind: Kind, reason: String?, payload: String, previousHash: String) -> String {
        var hasher = hasher(sequence: sequence, kind: kind, reason: reason, payload: payload, previousHash: previousHash)
        return hasher.finalHex()
    }

    /// The fields joined by line ends, fed in pieces so the payload is not copied first.
    private static func hasher(sequence: Int, kind: Kind, reason: String?, payload: String, previousHash: String) -> SHA256.Hasher {
        var payload = payload
        var previousHash = previousHash
        return payload.withUTF8 { payloadBytes in
            previousHash.withUTF8 { previousBytes in
                hasher(sequence: sequence, kind: kind, reason: reason, payload: UnsafeRawBufferPointer(payloadBytes), previousHash: UnsafeRawBufferPointer(previousBytes))
            }
        }
    }

    private static func hasher(sequence: Int, kind: Kind, reason: String?, payload: UnsafeRawBufferPointer, previousHash: UnsafeRawBufferPointer) -> SHA256.Hasher {
        var hasher = SHA256.Hasher()
        hasher.update(previousHash)
        hasher.update("\n\(sequence)\n\(kind.rawValue)\n")
        hasher.update(reason.map(JSONWriter.quoted) ?? "\"\"")
        hasher.update("\n")
        hasher.update(payload)
        return hasher
    }

    /// Whether `storedHash` is the hash of these fields, all read in place from a database
    /// row: verification checks every record without making a string of its payload.
    package static func hashMatches(sequence: Int, kind: Kind, reason: String?, payload: UnsafeRawBufferPointer,
                                    previousHash: UnsafeRawBufferPointer, storedHash: UnsafeRawBufferPointer) -> Bool {
        var hasher = hasher(sequence: sequence, kind: kind, reason: reason, payload: payload, previousHash: previousHash)
        return hasher.finalMatches(hexBytes: storedHash)
    }

    /// Whether the stored hash is the one this record's content gives.
    package var isIntact: Bool {
        var hasher = Record.hasher(sequence: sequence, kind: kind, reason: reason, payload: payload, previousHash: previousHash)
        return hasher.finalMatches(hex: hash)
    }
}

extension Session {
    /// The session's canonical JSON: what the first record of its chain is chained to.
    package var canonicalText: String {
        JSONWriter.write(.object([
            member("id", .string(id.lowercasedText)),
            member("release", .string(release)),
            member("build", .string(build)),
            member("device", .string(device)),
            member("osVersion", .string(osVersion)),
            member("tester", .string(tester)),
            member("plan", .array(plan.map { JSONNode(.string($0)) })),
            member("startedAt", .number(startedAt.timeIntervalSince1970)),
        ]))
    }

    /// The root of the session's chain.
    package var digest: String { SHA256.hex(canonicalText) }
}

extension CheckResult {
    /// Reads a result back from its payload; nil when the text is not a result payload.
    package static func decoding(payload text: String, sessionID: UUID) -> CheckResult? {
        guard let root = try? JSONParser.parse(text), let members = root.objectMembers else { return nil }
        var fields: [String: JSONNode] = [:]
        for member in members { fields[member.key] = member.value }
        guard let idText = fields["id"]?.stringValue, let id = UUID(uuidString: idText),
              let check = fields["check"]?.stringValue, let hash = fields["protocolHash"]?.stringValue,
              let attempt = fields["attempt"]?.intValue, let started = fields["startedAt"]?.doubleValue
        else { return nil }
        let startedAt = Date(timeIntervalSince1970: started)
        var result = CheckResult(id: id, sessionID: sessionID, check: check, protocolHash: hash, attempt: attempt, outcomeCount: 0,
                                 startedAt: startedAt)
        result.verdict = verdict(fields["verdict"])
        result.blockedReason = fields["blockedReason"]?.stringValue
        result.tally = fields["tally"]?.intValue ?? 0
        result.notes = fields["notes"]?.stringValue
        result.notesAnsweredAt = date(fields["notesAnsweredAt"])
        result.updatedAt = date(fields["updatedAt"]) ?? startedAt
        result.outcomes = decodeOutcomes(fields["outcomes"])
        result.counters = decodeCounters(fields["counters"])
        result.stopwatch = decodeEvents(fields["stopwatch"])
        result.attachments = (fields["attachments"]?.arrayValue ?? []).compactMap(decodeAttachment)
        return result
    }

    private static func verdict(_ node: JSONNode?) -> Verdict? {
        guard let text = node?.stringValue else { return nil }
        return Verdict(rawValue: text)
    }

    private static func date(_ node: JSONNode?) -> Date? {
        guard let seconds = node?.doubleValue else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    private static func decodeOutcomes(_ node: JSONNode?) -> [OutcomeAnswer?] {
        var answers: [OutcomeAnswer?] = []
        for item in node?.arrayValue ?? [] { answers.append(decodeOutcome(item)) }
        return answers
    }

    private static func decodeEvents(_ node: JSONNode?) -> [StopwatchEvent] {
        decodeEvents(node?.arrayValue ?? [])
    }

    /// Stopwatch events as a payload lists them; an item that is not one is left out, as
    /// whole payloads are read.
    package static func decodeEvents(_ items: [JSONNode]) -> [StopwatchEvent] {
        var events: [StopwatchEvent] = []
        for item in items {
            if let event = decodeEvent(item) { events.append(event) }
        }
        return events
    }

    private static func decodeCounters(_ node: JSONNode?) -> [String: CounterValue] {
        var counters: [String: CounterValue] = [:]
        guard let members = node?.objectMembers else { return counters }
        for member in members {
            guard let value = member.value["value"]?.intValue else { continue }
            let seconds = member.value["answeredAt"]?.doubleValue ?? 0
            counters[member.key] = CounterValue(value, answeredAt: Date(timeIntervalSince1970: seconds))
        }
        return counters
    }

    private static func decodeOutcome(_ item: JSONNode) -> OutcomeAnswer? {
        guard let verdict = item["verdict"]?.stringValue.flatMap(OutcomeVerdict.init(rawValue:)) else { return nil }
        return OutcomeAnswer(verdict, value: item["value"]?.intValue, note: item["note"]?.stringValue,
                             answeredAt: Date(timeIntervalSince1970: item["answeredAt"]?.doubleValue ?? 0))
    }

    private static func decodeAttachment(_ item: JSONNode) -> Attachment? {
        guard let hash = item["hash"]?.stringValue, let size = item["size"]?.intValue else { return nil }
        return Attachment(hash: hash, name: item["name"]?.stringValue ?? "", mediaType: item["mediaType"]?.stringValue ?? "application/octet-stream",
                          size: size, description: item["description"]?.stringValue ?? "", outcome: item["outcome"]?.intValue,
                          attachedAt: Date(timeIntervalSince1970: item["attachedAt"]?.doubleValue ?? 0))
    }

    private static func decodeEvent(_ item: JSONNode) -> StopwatchEvent? {
        guard let kind = item["kind"]?.stringValue.flatMap(StopwatchEvent.Kind.init(rawValue:)) else { return nil }
        return StopwatchEvent(kind, at: item["at"]?.doubleValue ?? 0, typedSeconds: item["typedSeconds"]?.doubleValue,
                              recordedAt: Date(timeIntervalSince1970: item["recordedAt"]?.doubleValue ?? 0))
    }
}

private func member(_ key: String, _ value: JSONValue) -> JSONMember {
    JSONMember(key, JSONNode(value))
}
