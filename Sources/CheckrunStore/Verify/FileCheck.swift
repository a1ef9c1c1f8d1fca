import CheckrunModel
import Foundation

/// SQLite's own check of a database file (`PRAGMA quick_check`), the scans for ids checkrun
/// did not write and for what deleted sessions left behind, and the rehash of every
/// attachment's bytes, run on another thread with a connection of its own, beside the chains'
/// verification: each reads whole tables, and one after the other they took as long as the
/// floor `verify` is measured against.
enum FileCheck {
    struct Outcome {
        var problems: [String] = []
        /// The attachments stored whole, by hash.
        var attachments: [(hash: String, size: Int)] = []
        /// Those whose stored bytes do not give their hash.
        var changed = Set<String>()
        /// Records and results left by sessions deleted behind checkrun's back.
        var deletedSessions: [VerificationProblem] = []
    }

    /// Starts the check on a connection of its own; its `value()` is what it found.
    static func start(opener: StoreOpener) -> WorkBeside<Outcome> {
        WorkBeside(opener: opener) { store in
            var outcome = Outcome()
            // A server keeps its own files sound; an SQLite file is checked by SQLite.
            if let database = store.sqlite {
                let lines = try database.query("PRAGMA quick_check") { $0.string(0) ?? "" }
                outcome.problems = lines == ["ok"] ? [] : lines.prefix(5).map { "the file is damaged (SQLite: \($0))" }
            }
            outcome.problems += try store.idFormProblems()
            outcome.deletedSessions = try store.deletedSessionProblems()
            try store.rehashAttachments(into: &outcome)
            return outcome
        }
    }
}

extension ResultStore {
    /// Reads every stored attachment back and hashes it: bytes edited in the file no longer
    /// give the hash they are stored (and recorded) under.
    fileprivate func rehashAttachments(into outcome: inout FileCheck.Outcome) throws {
        for (hash, size) in try storedAttachments() {
            if try storedBytesAreWhole(hash: hash, size: size) {
                outcome.attachments.append((hash, size))
            } else {
                outcome.problems.append("the stored bytes of attachment \(DisplayText.preview(hash, limit: 64)) were changed behind checkrun's back: they no longer give the hash they are recorded under")
                outcome.changed.insert(hash)
            }
        }
    }

    /// Of `hashes`, those whose bytes are here now and give their hash: attachments stored
    /// after the file check read its snapshot (while `verify` ran) are looked at again, on
    /// this connection, before any is called missing.
    func rehashedNow(_ hashes: Set<String>) throws -> [String: Int] {
        var whole: [String: Int] = [:]
        for hash in hashes {
            if let size = try storedSize(of: hash), try storedBytesAreWhole(hash: hash, size: size) { whole[hash] = size }
        }
        return whole
    }

    /// Whether the stored bytes under `hash` are `size` long and give that hash, read back a
    /// piece at a time.
    private func storedBytesAreWhole(hash: String, size: Int) throws -> Bool {
        var hasher = SHA256.Hasher()
        var count = 0
        let present = try readAttachment(hash: hash) { bytes in
            hasher.update(bytes)
            count += bytes.count
        }
        return present && count == size && hasher.finalHex() == hash
    }

    /// Problems for attachments a record names whose bytes are gone (or were changed, and so
    /// are not among `stored`).
    /// `stored` holds the size of the bytes kept whole under each hash. A record naming bytes
    /// that are there at another size than it states was forged, its chain recomputed: named
    /// as such, so `verify` and a report say the same of it.
    static func missingAttachments(_ named: [NamedAttachment], stored: [String: Int]) -> [VerificationProblem] {
        var reported = Set<String>()
        var problems: [VerificationProblem] = []
        for attachment in named where stored[attachment.hash] != attachment.size && reported.insert(attachment.hash + attachment.session.storageText).inserted {
            let name = "\(attachment.check): the attachment \(DisplayText.preview(attachment.name, limit: 80)) (\(attachment.hash.prefix(12)))"
            let message = stored[attachment.hash].map { "\(name) is recorded at \(attachment.size) bytes, but the bytes its hash names are \($0): the record was not written by checkrun" }
                ?? "\(name) is missing or changed: its bytes are not as recorded"
            problems.append(VerificationProblem(session: attachment.session, sequence: attachment.sequence, message: message))
        }
        return problems
    }
}
