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

private func member(_ key: String, _ value: JSONValue) -> JSONMember {
    JSONMember(key, JSONNode(value))
}
