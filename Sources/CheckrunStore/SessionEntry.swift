import CheckrunModel
import Foundation

/// A session with every record of its chain: the unit that export writes and merge reads.
public struct SessionEntry: Sendable {
    public var session: Session
    public var records: [Record]

    public init(session: Session, records: [Record]) {
        self.session = session
        self.records = records
    }

    /// Checks the chain from the session's digest to its last record.
    /// - Returns: what is wrong, or nil when the chain is whole.
    public func chainProblem() -> String? {
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

    /// The entry as export writes it (one line).
    var json: JSONValue {
        let sessionNode = (try? JSONParser.parse(session.canonicalText)) ?? JSONNode(.null)
        return .object([
            JSONMember("session", sessionNode),
            JSONMember("finishedAt", JSONNode(session.finishedAt.map { .number($0.timeIntervalSince1970) } ?? .null)),
            JSONMember("records", JSONNode(.array(records.map { record in
                JSONNode(.object([
                    JSONMember("sequence", JSONNode(.integer(record.sequence))),
                    JSONMember("resultId", JSONNode(.string(record.resultID.uuidString.lowercased()))),
                    JSONMember("kind", JSONNode(.string(record.kind.rawValue))),
                    JSONMember("reason", JSONNode(record.reason.map(JSONValue.string) ?? .null)),
                    JSONMember("payload", (try? JSONParser.parse(record.payload)) ?? JSONNode(.null)),
                    JSONMember("recordedAt", JSONNode(.number(record.recordedAt.timeIntervalSince1970))),
                    JSONMember("previousHash", JSONNode(.string(record.previousHash))),
                    JSONMember("hash", JSONNode(.string(record.hash))),
                ]))
            }))),
        ])
    }

    /// Reads an entry that passed the export schema.
    init?(json node: JSONNode) {
        guard let sessionNode = node["session"], let id = sessionNode["id"]?.stringValue.flatMap(UUID.init(uuidString:)),
              let records = node["records"]?.arrayValue else { return nil }
        let session = Session(
            id: id, release: sessionNode["release"]?.stringValue ?? "", build: sessionNode["build"]?.stringValue ?? "",
            device: sessionNode["device"]?.stringValue ?? "", osVersion: sessionNode["osVersion"]?.stringValue ?? "",
            tester: sessionNode["tester"]?.stringValue ?? "", plan: (sessionNode["plan"]?.arrayValue ?? []).compactMap(\.stringValue),
            startedAt: Date(timeIntervalSince1970: sessionNode["startedAt"]?.doubleValue ?? 0),
            finishedAt: node["finishedAt"]?.doubleValue.map(Date.init(timeIntervalSince1970:)))
        var parsed: [Record] = []
        for item in records {
            guard let resultID = item["resultId"]?.stringValue.flatMap(UUID.init(uuidString:)),
                  let kind = item["kind"]?.stringValue.flatMap(Record.Kind.init(rawValue:)),
                  let payload = item["payload"] else { return nil }
            var record = Record(
                sessionID: id, sequence: item["sequence"]?.intValue ?? 0, resultID: resultID, kind: kind,
                reason: item["reason"]?.stringValue, payload: JSONWriter.write(payload.value),
                recordedAt: Date(timeIntervalSince1970: item["recordedAt"]?.doubleValue ?? 0),
                previousHash: item["previousHash"]?.stringValue ?? "")
            record.hash = item["hash"]?.stringValue ?? ""
            parsed.append(record)
        }
        self.init(session: session, records: parsed)
    }
}
