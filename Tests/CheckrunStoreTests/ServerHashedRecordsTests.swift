import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A server hashes the records that later ones supersede (`groupRecordsHashedOnServer`), and
/// sends their text only where the hash is wrong. Were its hash ever computed otherwise than
/// `Record.hash`, every record would come whole and verification would stay right but slow:
/// these tests hold the two hashes together, on text that is not plain ASCII.
@Suite struct ServerHashedRecordsTests {
    /// Three answers of one result as a walk saves them, then its amendment, and a second
    /// result with an attachment superseded by a later answer.
    static func walked(at address: String) throws -> (first: CheckResult, second: CheckResult) {
        let store = try ResultStore(path: address)
        defer { store.close() }
        let session = Session(release: "2.4", build: "311", device: "iPhone", tester: "An\u{E9}", plan: ["p/c", "p/d"],
                              startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try store.insert(session)
        var first = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 2,
                                startedAt: Date(timeIntervalSince1970: 1_800_000_001))
        first.stopwatch = [StopwatchEvent(.start, at: 0, recordedAt: Date(timeIntervalSince1970: 1_800_000_002))]
        try store.save(first)
        first.outcomes[0] = OutcomeAnswer(.pass, note: "\u{201C}Delete\u{201D} \\ \"fired\"\t\u{1F600}", answeredAt: Date(timeIntervalSince1970: 1_800_000_003))
        try store.save(first)
        first.outcomes[1] = OutcomeAnswer(.fail, answeredAt: Date(timeIntervalSince1970: 1_800_000_004))
        first.verdict = .fail
        first.updatedAt = Date(timeIntervalSince1970: 1_800_000_004)
        try store.save(first)
        first.notes = "corrig\u{E9}"
        try store.amend(first, reason: "typ\u{E9}", at: Date(timeIntervalSince1970: 1_800_000_010))
        var second = CheckResult(sessionID: session.id, check: "p/d", protocolHash: "h", attempt: 1, outcomeCount: 1,
                                 startedAt: Date(timeIntervalSince1970: 1_800_000_020))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data("shot".utf8).write(to: URL(fileURLWithPath: folder.path("shot.png")))
        let stored = try store.storeAttachment(path: folder.path("shot.png"))
        second.attachments = [Attachment(hash: stored.hash, name: "shot.png", mediaType: stored.mediaType, size: stored.size,
                                         description: "the screen", outcome: nil, attachedAt: Date(timeIntervalSince1970: 1_800_000_021))]
        try store.save(second)
        second.outcomes[0] = OutcomeAnswer(.pass, answeredAt: Date(timeIntervalSince1970: 1_800_000_022))
        second.verdict = .pass
        try store.save(second)
        return (first, second)
    }

    /// What the server's statement gives for each record: sequence, whether it was hashed on
    /// the server, and the length of the text it sent.
    static func rows(at address: String) throws -> [(sequence: Int, hashedOnServer: Bool?, textLength: Int)] {
        let store = try ResultStore(path: address, access: .existingOnly)
        defer { store.close() }
        let ids = try store.database.query("SELECT id FROM sessions") { $0.string(0) ?? "" }
        return try store.database.query(PostgresStatements.groupRecordsHashedOnServer, [.text("[\"\(ids[0])\"]")]) { row in
            (row.int(1) ?? 0, row.isNull(8) ? nil : row.hasText(8, equalTo: "t"), row.withTextOrEmpty(5) { $0.count })
        }
    }

    @Test(.enabled(if: TestEngine.server != nil)) func theServerHashesASupersededRecordAsCheckrunDoes() throws {
        let database = try TestDatabase(.postgresql)
        defer { database.remove() }
        _ = try Self.walked(at: database.address)
        let rows = try Self.rows(at: database.address)
        #expect(rows.map(\.sequence) == [1, 2, 3, 4, 5, 6])
        // Records 1 to 3 of the first result are superseded: hashed there, their text cut to its opening.
        #expect(rows[0..<3].allSatisfy { $0.hashedOnServer == true && $0.textLength == 48 })
        // The amendment is the first result's latest; record 5 lists an attachment (its bytes must
        // stay, so checkrun reads it), record 6 is the second result's latest.
        #expect(rows[3...].allSatisfy { $0.hashedOnServer == nil && $0.textLength > 48 })
        let store = try ResultStore(path: database.address, access: .existingOnly)
        defer { store.close() }
        #expect(try store.verify().problems.map(\.description) == [])
    }

    /// A superseded record whose text or hash was edited comes whole, with false: checkrun
    /// judges it itself and names it, as a record it reads whole.
    @Test(.enabled(if: TestEngine.server != nil), arguments: [
        "UPDATE records SET payload = replace(payload, 'fired', 'held') WHERE sequence = 2",
        "UPDATE records SET hash = previous_hash WHERE sequence = 2",
        "UPDATE records SET reason = 'x' WHERE sequence = 2",
    ])
    func anEditedSupersededRecordComesWholeAndIsNamed(sql: String) throws {
        let database = try TestDatabase(.postgresql)
        defer { database.remove() }
        _ = try Self.walked(at: database.address)
        try database.tamper(sql)
        let rows = try Self.rows(at: database.address)
        #expect(rows[1].hashedOnServer == false && rows[1].textLength > 48, "\(sql)")
        let store = try ResultStore(path: database.address, access: .existingOnly)
        defer { store.close() }
        let problems = try store.verify().problems.map(\.description)
        #expect(problems.contains { $0.contains("record 2") }, "\(sql): \(problems)")
    }
}
