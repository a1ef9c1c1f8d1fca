import CheckrunModel
import Foundation

/// Walks one session's records in order: each record's own hash, its link to the one before,
/// gaps in the sequence, and that the result it names is the result it holds. Keeps each
/// result's latest record and its amendments for the comparison with the results tables.
struct ChainCheck {
    let session: Session
    private var expected: (sequence: Int, hash: String)
    private(set) var problems: [VerificationProblem] = []
    private(set) var latest: [UUID: Record] = [:]
    private(set) var amendments: [UUID: (count: Int, reason: String?)] = [:]
    private(set) var count = 0
    /// Every attachment any record names, withdrawn ones too: their bytes must stay.
    private(set) var attachments: [NamedAttachment] = []

    init(session: Session) {
        self.session = session
        expected = (0, session.digest)
    }

    mutating func add(_ record: Record) {
        count += 1
        if !record.isIntact {
            problem(record.sequence, "\(ResultStore.checkName(record)): its content was changed after it was recorded")
        }
        if !Self.holds(record.payload, result: record.resultID) {
            problem(record.sequence, "the record's result id was changed: it names \(record.resultID.lowercasedText.prefix(8)) but holds another result")
        }
        if record.sequence > expected.sequence + 1 {
            let missing = record.sequence == expected.sequence + 2 ? "record \(expected.sequence + 1) was" : "records \(expected.sequence + 1) to \(record.sequence - 1) were"
            problem(nil, "\(missing) deleted")
        } else if record.previousHash != expected.hash {
            problem(record.sequence, expected.sequence == 0
                ? "the session's details (release, build, device, tester or plan) were changed after recording"
                : "record \(expected.sequence) was changed or replaced after this one was chained to it")
        }
        expected = (record.sequence, record.hash)
        latest[record.resultID] = record
        if let result = Self.resultListingAttachments(record.payload, sessionID: session.id) {
            for attachment in result.attachments {
                attachments.append(NamedAttachment(hash: attachment.hash, size: attachment.size, name: attachment.name, check: result.check,
                                                   session: session.id, sequence: record.sequence))
            }
        }
        if record.kind == .amend {
            amendments[record.resultID] = ((amendments[record.resultID]?.count ?? 0) + 1, record.reason)
        }
    }

    private mutating func problem(_ sequence: Int?, _ message: String) {
        problems.append(VerificationProblem(session: session.id, sequence: sequence, message: message))
    }

    /// The result a payload holds, when it lists attachments; nil for the rest, which are not
    /// parsed. Verification, export and merge find the attachments records name through here.
    static func resultListingAttachments(_ payload: String, sessionID: UUID) -> CheckResult? {
        guard listsAttachments(payload), let result = CheckResult.decoding(payload: payload, sessionID: sessionID), !result.attachments.isEmpty else { return nil }
        return result
    }

    /// Whether a payload has an `attachments` member. It is the last member when present, so
    /// this looks back from the end for the last line that opens a top-level member (two
    /// spaces and a quote; strings never hold a raw line end) and reads its key: the payloads
    /// of results without evidence (nearly all) are not parsed.
    static func listsAttachments(_ payload: String) -> Bool {
        let key = Array("  \"attachments\": [".utf8)
        var payload = payload
        return payload.withUTF8 { bytes in
            var index = bytes.count - 1
            while index > 0 {
                if bytes[index - 1] == 0x0A, index + 2 < bytes.count, bytes[index] == 0x20, bytes[index + 1] == 0x20, bytes[index + 2] == 0x22 {
                    return bytes.count - index >= key.count && bytes[index..<index + key.count].elementsEqual(key)
                }
                index -= 1
            }
            return false
        }
    }

    /// A canonical payload starts with the result's id, so this needs no parsing.
    static func holds(_ payload: String, result id: UUID) -> Bool {
        let opening = payloadOpening
        var payload = payload
        return payload.withUTF8 { bytes in
            guard bytes.count > opening.count + 36, bytes[opening.count + 36] == UInt8(ascii: "\""),
                  bytes.prefix(opening.count).elementsEqual(opening) else { return false }
            return id.isSpelled(lowercaseIn: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[opening.count..<opening.count + 36]))
        }
    }

    private static let payloadOpening = Array("{\n  \"id\": \"".utf8)
}

/// An attachment a record names, and where.
struct NamedAttachment: Sendable {
    var hash: String
    var size: Int
    var name: String
    var check: String
    var session: UUID
    var sequence: Int
}
