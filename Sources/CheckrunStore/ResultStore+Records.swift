import CheckrunModel
import Foundation

/// The append-only record: every saved state of every result, chained per session by SHA-256.
extension ResultStore {
    /// The hash the next record of a session chains to: the last record's, or the session's digest.
    private func chainHead(of sessionID: UUID) throws -> (sequence: Int, hash: String) {
        if let last = try database.query(
            "SELECT sequence, hash FROM records WHERE session_id = ? ORDER BY sequence DESC LIMIT 1",
            [.text(sessionID.storageText)], { ($0.int(0) ?? 0, $0.string(1) ?? "") }).first {
            return last
        }
        guard let session = try session(id: sessionID) else {
            throw StoreError("the session \(sessionID.lowercasedText) of this result is not in the database")
        }
        return (0, session.digest)
    }

    /// The session's last record: where the next record chains to (nil when the session has
    /// none yet), and whether it is `resultID`'s holding `payload`. A walk answering one check,
    /// one save after another, so learns in one query that no one else saved it since.
    func lastRecord(of sessionID: UUID, isOf resultID: UUID, holding payload: String?) throws
        -> (head: (sequence: Int, hash: String)?, holdsPayload: Bool) {
        let last = try database.query(
            "SELECT sequence, hash, result_id = ?2 AND payload = ?3 FROM records WHERE session_id = ?1 ORDER BY sequence DESC LIMIT 1",
            [.text(sessionID.storageText), .text(resultID.storageText), SQLValue(payload)]
        ) { (head: ($0.int(0) ?? 0, $0.string(1) ?? ""), holdsPayload: $0.int(2) == 1) }.first
        return (last?.head, last?.holdsPayload ?? false)
    }

    /// - Parameter head: the chain head when the caller has just read it, in this transaction.
    /// - Parameter payload: the result's payload when the caller has already made it.
    func appendRecord(for result: CheckResult, payload: String? = nil, kind: Record.Kind, reason: String?, at date: Date,
                      head known: (sequence: Int, hash: String)? = nil) throws {
        let head = try known ?? chainHead(of: result.sessionID)
        let record = Record(sessionID: result.sessionID, sequence: head.sequence + 1, resultID: result.id, kind: kind, reason: reason,
                            payload: payload ?? result.payload, recordedAt: date, previousHash: head.hash)
        try insert(record)
    }

    func insert(_ record: Record) throws {
        try database.run(
            "INSERT INTO records (session_id, sequence, result_id, kind, reason, payload, recorded_at, previous_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [.text(record.sessionID.storageText), .integer(Int64(record.sequence)), .text(record.resultID.storageText),
             .text(record.kind.rawValue), SQLValue(record.reason), .text(record.payload), SQLValue(record.recordedAt),
             .text(record.previousHash), .text(record.hash)])
    }

    /// The records of one session, in order, handed over one at a time.
    package func forEachRecord(inSession sessionID: UUID, _ body: (Record) throws -> Void) throws {
        try database.forEach(
            "SELECT sequence, result_id, kind, reason, payload, recorded_at, previous_hash, hash FROM records WHERE session_id = ? ORDER BY sequence",
            [.text(sessionID.storageText)]
        ) { row in
            guard let resultID = row.string(1).flatMap(UUID.init(text:)), let kind = row.string(2).flatMap(Record.Kind.init(rawValue:)) else { return }
            let record = Record(sessionID: sessionID, sequence: row.int(0) ?? 0, resultID: resultID, kind: kind, reason: row.string(3),
                                payload: row.string(4) ?? "", recordedAt: row.date(5) ?? Date(), previousHash: row.string(6) ?? "",
                                storedHash: row.string(7) ?? "")
            try body(record)
        }
    }

    package func session(id: UUID) throws -> Session? {
        try database.query("SELECT \(Self.sessionColumns) FROM sessions WHERE id = ?", [.text(id.storageText)], Self.readSession).compactMap { $0 }.first
    }

    // MARK: - Amendments

    /// Records a correction: a new record that supersedes the result's last one and says why.
    /// The earlier records stay, so nothing recorded is ever lost.
    package func amend(_ corrected: CheckResult, reason: String, at date: Date) throws {
        try database.transaction {
            try writeProjection(corrected)
            try database.run("UPDATE results SET amendments = amendments + 1, amend_reason = ? WHERE id = ?",
                             [.text(reason), .text(corrected.id.storageText)])
            try appendRecord(for: corrected, kind: .amend, reason: reason, at: date)
        }
    }

    /// The latest finished results matching a check in a release and build (one per device), for `amend`.
    package func latestResults(check: String, release: String, build: String, device: String?, osVersion: String?) throws -> [CheckResult] {
        let ids = try database.query(
            """
            SELECT r.session_id, r.id FROM results r JOIN sessions s ON s.id = r.session_id
            WHERE r.check_name = ?1 AND s.release = ?2 AND s.build = ?3 AND (?4 IS NULL OR s.device = ?4)
                AND (?5 IS NULL OR s.os_version = ?5) AND r.verdict IS NOT NULL
            ORDER BY r.updated_at DESC, r.attempt DESC
            """, [.text(check), .text(release), .text(build), SQLValue(device), SQLValue(osVersion)]) { ($0.string(0).flatMap(UUID.init(text:)), $0.string(1)) }
        var found: [CheckResult] = []
        for case let (session?, id?) in ids {
            if let result = try results(inSession: session).first(where: { $0.id.storageText == id }) { found.append(try recordedState(of: result)) }
        }
        return found
    }

    /// The result as its latest record holds it, what a correction is built on. A result whose
    /// tables and latest record disagree (a row edited, a record deleted or forged) is refused:
    /// a correction built on either would be signed by a new record, and the edit `verify`
    /// names would be gone.
    func recordedState(of table: CheckResult) throws -> CheckResult {
        let payload = try latestRecord(of: table.id, inSession: table.sessionID)?.payload
        let check = DisplayText.preview(table.check, limit: 200)
        guard let payload, let recorded = Self.recorded(of: table)(payload) else {
            throw StoreError("\(check) cannot be corrected: it has no readable record, so it was changed behind checkrun's back; verify on this database names what changed")
        }
        if let difference = Self.difference(between: table, andRecorded: payload, sessionID: table.sessionID) {
            throw StoreError("\(check) cannot be corrected: the results table differs from its latest record (\(difference)), so it was changed behind checkrun's back; verify on this database names what changed")
        }
        return recorded
    }

    /// The kind, reason and payload of a result's latest record in its session; nil when it has none.
    func latestRecord(of resultID: UUID, inSession session: UUID) throws -> (kind: String?, reason: String?, payload: String)? {
        try database.query(
            "SELECT kind, reason, payload FROM records WHERE session_id = ?1 AND result_id = ?2 ORDER BY sequence DESC LIMIT 1",
            [.text(session.storageText), .text(resultID.storageText)]) { (kind: $0.string(0), reason: $0.string(1), payload: $0.string(2) ?? "") }.first
    }

    /// Reads a record's payload as the result it records, when it is a readable record of
    /// `result`'s own (nil otherwise: a record forged or cut short, which `verify` names).
    static func recorded(of result: CheckResult) -> (String) -> CheckResult? {
        { payload in CheckResult.decoding(payload: payload, sessionID: result.sessionID).flatMap { $0.id == result.id ? $0 : nil } }
    }

    // MARK: - Chain digests for reports

    /// Each session's chain head: what a signed report pins.
    package struct ChainDigest: Sendable, Equatable {
        package var session: UUID
        package var records: Int
        package var head: String

        package init(session: UUID, records: Int, head: String) {
            self.session = session
            self.records = records
            self.head = head
        }
    }

    /// Reads only each chain's last record, found through the primary key: counting or scanning
    /// records would read every payload of the release.
    /// With a build, the chains of it and of the builds before it, as `sessionIDs(release:through:)`.
    package func chainDigests(release: String, through build: String?) throws -> [ChainDigest] {
        try database.query(
            """
            SELECT s.id, r.sequence, r.hash
            FROM sessions s JOIN records r ON r.session_id = s.id
                AND r.sequence = (SELECT max(x.sequence) FROM records x WHERE x.session_id = s.id)
            WHERE s.release = ?1 AND (?2 IS NULL OR s.build IN (SELECT value FROM json_each(?2)))
            ORDER BY s.id
            """, [.text(release), try buildList(release: release, through: build)]
        ) { row in
            ChainDigest(session: row.string(0).flatMap { UUID(text: $0) } ?? UUID(), records: row.int(1) ?? 0, head: row.string(2) ?? "")
        }
    }
}
