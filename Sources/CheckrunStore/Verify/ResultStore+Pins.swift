import CheckrunModel
import Foundation

extension ResultStore {
    /// Every session of a release (or one build): what a report rests on, with or without
    /// records (results of a session nobody recorded must not reach a report unchecked).
    package func sessionIDs(release: String, build: String?) throws -> [UUID] {
        Array(Set(try database.query(
            "SELECT s.id FROM sessions s WHERE s.release = ?1 AND (?2 IS NULL OR s.build = ?2) ORDER BY s.id",
            [.text(release), SQLValue(build)]) { $0.string(0).flatMap(UUID.init(text:)) }.compactMap { $0 })).sorted { $0.storageText < $1.storageText }
    }

    /// The sessions of the given builds: what a comparison of them rests on.
    package func sessionIDs(of scopes: [BuildScope]) throws -> [UUID] {
        var ids: [UUID] = []
        for scope in scopes {
            try database.forEach("SELECT id FROM sessions WHERE release = ? AND build = ? ORDER BY started_at", [.text(scope.release), .text(scope.build)]) { row in
                if let id = row.string(0).flatMap(UUID.init(text:)) { ids.append(id) }
            }
        }
        return ids
    }

    /// What a chain alone cannot show (each pin is a session's chain as a kept report printed
    /// it: how many records, and the hash of the last): whole sessions deleted, the tail of a chain cut off, and
    /// records rewritten with recomputed hashes. Each pinned session must still be here, at
    /// least as long as pinned, with the pinned hash at the pinned position.
    package func problems(against pins: [ChainDigest]) throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        for pin in pins {
            func add(_ message: String) { problems.append(VerificationProblem(session: pin.session, sequence: nil, message: message)) }
            guard try session(id: pin.session) != nil else {
                add("the report pins this session with \(pin.records) records, and it is missing: it was deleted")
                continue
            }
            let length = try database.scalarInt("SELECT max(sequence) FROM records WHERE session_id = ?", [.text(pin.session.storageText)]) ?? 0
            if length < pin.records {
                add("the report pins \(pin.records) records and \(length) remain: the last records were cut off")
                continue
            }
            let hash = try database.query("SELECT hash FROM records WHERE session_id = ? AND sequence = ?",
                                          [.text(pin.session.storageText), .integer(Int64(pin.records))]) { $0.string(0) }.first ?? nil
            if hash != pin.head {
                add("record \(pin.records) no longer has the hash the report pinned: the chain was rewritten")
            }
        }
        return problems
    }
}
