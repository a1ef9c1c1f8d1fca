import CheckrunModel
import Foundation

/// A session with every record of its chain: the unit that export writes and merge reads.
package struct SessionEntry: Sendable {
    package var session: Session
    package var records: [Record]

    package init(session: Session, records: [Record]) {
        self.session = session
        self.records = records
    }

    /// Checks the chain from the session's digest to its last record.
    /// - Returns: what is wrong, or nil when the chain is whole.
    package func chainProblem() -> String? {
        var expected = (sequence: 0, hash: session.digest)
        for record in records {
            guard record.sequence == expected.sequence + 1 else { return "record \(expected.sequence + 1) is missing" }
            guard record.isIntact else { return "record \(record.sequence) was changed after it was recorded" }
            guard record.previousHash == expected.hash else {
                return expected.sequence == 0 ? "the session's details were changed after recording" : "record \(record.sequence) does not follow record \(expected.sequence)"
            }
            expected = (record.sequence, record.hash)
        }
        return nil
    }

    /// A label of the session that checkrun never files (`run` and `record` refuse it): one
    /// holding a line break, a control character or a direction control, which would stand as a
    /// line of its own, or reorder one, wherever the label is said. Nil when every label is
    /// one line of plain text.
    package func labelProblem() -> String? {
        let labels = [("release", session.release), ("build", session.build), ("device", session.device), ("tester", session.tester), ("OS version", session.osVersion)]
        guard let (name, label) = labels.first(where: { !DisplayText.isOneLinePlain($0.1) }) else { return nil }
        return "has a \(name) label holding a line break, a control character or a direction control (\(DisplayText.preview(label, limit: 80))), which checkrun never files: a label is one line of plain text"
    }

    /// The entry as export writes it (one line).
    var json: JSONValue {
        let sessionNode = (try? JSONParser.parse(session.canonicalText)) ?? JSONNode(.null)
        return .object([
            JSONMember("session", sessionNode),
            JSONMember("finishedAt", JSONNode(session.finishedAt.map { .number($0.timeIntervalSince1970) } ?? .null)),
            JSONMember("records", JSONNode(.array(records.map { record in
                JSONNode(.object([
                    JSONMember("sequence", JSONNode(.integer(record.sequence))),
                    JSONMember("resultId", JSONNode(.string(record.resultID.lowercasedText))),
                    JSONMember("kind", JSONNode(.string(record.kind.rawValue))),
                    JSONMember("reason", JSONNode(record.reason.map(JSONValue.string) ?? .null)),
                    // The exact text that was hashed, so an export and a merge carry it byte for byte.
                    JSONMember("payload", JSONNode(.string(record.payload))),
                    JSONMember("recordedAt", JSONNode(.number(record.recordedAt.timeIntervalSince1970))),
                    JSONMember("previousHash", JSONNode(.string(record.previousHash))),
                    JSONMember("hash", JSONNode(.string(record.hash))),
                ]))
            }))),
        ])
    }

    /// Reads an entry that passed the export schema.
    init?(json node: JSONNode) {
        guard let sessionNode = node["session"], let idText = sessionNode["id"]?.stringValue, let id = UUID(text: idText),
              let items = node["records"]?.arrayValue else { return nil }
        let finished = node["finishedAt"]?.doubleValue
        let session = Session(
            id: id, release: sessionNode["release"]?.stringValue ?? "", build: sessionNode["build"]?.stringValue ?? "",
            device: sessionNode["device"]?.stringValue ?? "", osVersion: sessionNode["osVersion"]?.stringValue ?? "",
            tester: sessionNode["tester"]?.stringValue ?? "", plan: Self.strings(sessionNode["plan"]),
            startedAt: Date(timeIntervalSince1970: sessionNode["startedAt"]?.doubleValue ?? 0),
            finishedAt: finished == nil ? nil : Date(timeIntervalSince1970: finished ?? 0))
        var records: [Record] = []
        for item in items {
            guard let record = Self.record(item, sessionID: id) else { return nil }
            records.append(record)
        }
        // The chain is in sequence order whatever order the list was written in.
        records.sort { $0.sequence < $1.sequence }
        self.init(session: session, records: records)
    }

    private static func strings(_ node: JSONNode?) -> [String] {
        var values: [String] = []
        for item in node?.arrayValue ?? [] {
            if let text = item.stringValue { values.append(text) }
        }
        return values
    }

    private static func record(_ item: JSONNode, sessionID: UUID) -> Record? {
        guard let resultText = item["resultId"]?.stringValue, let resultID = UUID(text: resultText),
              let kindText = item["kind"]?.stringValue, let kind = Record.Kind(rawValue: kindText),
              let payload = item["payload"] else { return nil }
        return Record(
            sessionID: sessionID, sequence: item["sequence"]?.intValue ?? 0, resultID: resultID, kind: kind,
            reason: item["reason"]?.stringValue, payload: payload.stringValue ?? JSONWriter.write(payload.value),
            recordedAt: Date(timeIntervalSince1970: item["recordedAt"]?.doubleValue ?? 0),
            previousHash: item["previousHash"]?.stringValue ?? "", storedHash: item["hash"]?.stringValue ?? "")
    }
}
