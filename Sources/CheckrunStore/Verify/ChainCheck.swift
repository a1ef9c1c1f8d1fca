import CheckrunModel
import Foundation

/// Walks one session's records in order: each record's own hash, its link to the one before,
/// gaps in the sequence, and that the result it names is the result it holds. Each record is
/// compared, as it is read, with the payload the results tables give for its result, so no
/// record's text is kept unless it differs (see `SessionTables`).
struct ChainCheck {
    let session: Session
    /// The session's results as the tables hold them, with what the records say of each.
    private(set) var tables: SessionTables
    /// The sequence and hash the next record must follow.
    private var expectedSequence = 0
    private var expectedHash: [UInt8]
    private(set) var problems: [VerificationProblem] = []
    private(set) var amendments: [UUID: (count: Int, reason: String?)] = [:]
    private(set) var count = 0
    /// Every attachment any record names, withdrawn ones too: their bytes must stay.
    private(set) var attachments: [NamedAttachment] = []

    init(session: Session, tables: SessionTables) {
        self.session = session
        self.tables = tables
        expectedHash = Array(session.digest.utf8)
    }

    /// One record as its row holds it, the text read where the engine keeps it: valid only
    /// while the row is.
    struct RecordInPlace {
        var sequence: Int
        var resultID: UUID
        var kind: Record.Kind
        var reason: String?
        var payload: UnsafeRawBufferPointer
        var previousHash: UnsafeRawBufferPointer
        var hash: UnsafeRawBufferPointer
    }

    mutating func add(_ record: RecordInPlace) {
        count += 1
        if !Record.hashMatches(sequence: record.sequence, kind: record.kind, reason: record.reason, payload: record.payload,
                               previousHash: record.previousHash, storedHash: record.hash) {
            problem(record.sequence, "\(Self.checkName(record.payload)): its content was changed after it was recorded")
        }
        if !Self.holds(record.payload, result: record.resultID) {
            problem(record.sequence, "the record's result id was changed: it names \(record.resultID.lowercasedText.prefix(8)) but holds another result")
        }
        if record.sequence > expectedSequence + 1 {
            let missing = record.sequence == expectedSequence + 2 ? "record \(expectedSequence + 1) was" : "records \(expectedSequence + 1) to \(record.sequence - 1) were"
            problem(nil, "\(missing) deleted")
        } else if !expectedHash.withUnsafeBytes({ $0.hasSameBytes(as: record.previousHash) }) {
            problem(record.sequence, expectedSequence == 0
                ? ResultStore.sessionDetailsChanged
                : "record \(expectedSequence) was changed or replaced after this one was chained to it")
        }
        expectedSequence = record.sequence
        expectedHash.removeAll(keepingCapacity: true)
        expectedHash.append(contentsOf: record.hash)
        tables.note(record.resultID, sequence: record.sequence, payload: record.payload)
        if Self.listsAttachments(record.payload) {
            noteAttachments(String(decoding: record.payload, as: UTF8.self), sequence: record.sequence)
        }
        if record.kind == .amend {
            amendments[record.resultID] = ((amendments[record.resultID]?.count ?? 0) + 1, record.reason)
        }
    }

    private mutating func noteAttachments(_ payload: String, sequence: Int) {
        guard let result = Self.resultListingAttachments(payload, sessionID: session.id) else { return }
        for attachment in result.attachments {
            attachments.append(NamedAttachment(hash: attachment.hash, size: attachment.size, name: attachment.name, check: result.check,
                                               session: session.id, sequence: sequence))
        }
    }

    private mutating func problem(_ sequence: Int?, _ message: String) {
        problems.append(VerificationProblem(session: session.id, sequence: sequence, message: message))
    }

    /// The check a payload names, for messages; "a result" when it cannot be read.
    static func checkName(_ payload: UnsafeRawBufferPointer) -> String {
        checkName(String(decoding: payload, as: UTF8.self))
    }

    static func checkName(_ payload: String) -> String {
        (try? JSONParser.parse(payload))?["check"]?.stringValue ?? "a result"
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
        var payload = payload
        return payload.withUTF8 { listsAttachments(UnsafeRawBufferPointer($0)) }
    }

    static func listsAttachments(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = bytes.count - 1
        while index > 0 {
            if bytes[index - 1] == 0x0A, index + 2 < bytes.count, bytes[index] == 0x20, bytes[index + 1] == 0x20, bytes[index + 2] == 0x22 {
                return attachmentsKey.withUnsafeBytes { key in
                    bytes.count - index >= key.count && UnsafeRawBufferPointer(rebasing: bytes[index..<index + key.count]).hasSameBytes(as: key)
                }
            }
            index -= 1
        }
        return false
    }

    private static let attachmentsKey = Array("  \"attachments\": [".utf8)

    /// A canonical payload starts with the result's id, so this needs no parsing.
    static func holds(_ bytes: UnsafeRawBufferPointer, result id: UUID) -> Bool {
        payloadOpening.withUnsafeBytes { opening in
            guard bytes.count > opening.count + 36, bytes[opening.count + 36] == UInt8(ascii: "\""),
                  UnsafeRawBufferPointer(rebasing: bytes.prefix(opening.count)).hasSameBytes(as: opening) else { return false }
            return id.isSpelled(lowercaseIn: UnsafeRawBufferPointer(rebasing: bytes[opening.count..<opening.count + 36]))
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
