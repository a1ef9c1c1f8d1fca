import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// The append-only record: chains, amendments, verification, export and merge.
@Suite struct RecordTests {
    struct Fixture {
        let folder: TemporaryFolder
        let database: TestDatabase
        let store: ResultStore
        var sessions: [Session] = []

        init(_ engine: TestEngine = .sqlite, name: String = "db.sqlite") throws {
            folder = try TemporaryFolder()
            database = try TestDatabase(engine, name: name)
            store = try ResultStore(path: database.address)
        }

        func remove() {
            database.remove()
            folder.remove()
        }

        /// A session with `results` checks, each saved three times (as a walk saves each answer).
        @discardableResult
        mutating func walk(results count: Int, release: String = "2.4", build: String = "311", device: String = "iPhone 15") throws -> Session {
            let session = Session(release: release, build: build, device: device, tester: "Ana", plan: (0..<count).map { "p/c\($0)" },
                                  startedAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(sessions.count * 1000)))
            try store.insert(session)
            for index in 0..<count {
                var result = CheckResult(sessionID: session.id, check: "p/c\(index)", protocolHash: "h", attempt: 1, outcomeCount: 2,
                                         startedAt: session.startedAt.addingTimeInterval(Double(index)))
                result.stopwatch = [StopwatchEvent(.typed, at: 0, typedSeconds: 30 + Double(index))]
                try store.save(result)
                result.outcomes[0] = OutcomeAnswer(.pass)
                try store.save(result)
                result.outcomes[1] = OutcomeAnswer(index == 0 ? .fail : .pass, note: index == 0 ? "Delete fired" : nil)
                result.verdict = index == 0 ? .fail : .pass
                result.notes = "note \(index)"
                try store.save(result)
            }
            sessions.append(session)
            return session
        }

        /// SQL run by another connection, as an attacker holding the database would.
        func raw(_ sql: String) throws {
            let other = try ResultStore(path: database.address)
            try other.database.execute(sql)
            other.close()
        }
    }

    func records(_ store: ResultStore, _ session: Session) throws -> [Record] {
        var all: [Record] = []
        try store.forEachRecord(inSession: session.id) { all.append($0) }
        return all
    }

    @Test(arguments: TestEngine.available) func everySaveAppendsARecordChainedToTheOneBefore(engine: TestEngine) throws {
        var fixture = try Fixture(engine)
        defer { fixture.remove() }
        let session = try fixture.walk(results: 2)
        let chain = try records(fixture.store, session)
        #expect(chain.map(\.sequence) == [1, 2, 3, 4, 5, 6])
        #expect(chain.first?.previousHash == session.digest)
        #expect(zip(chain, chain.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
        #expect(chain.allSatisfy { $0.isIntact })
        #expect(SessionEntry(session: session, records: chain).chainProblem() == nil)
        let report = try fixture.store.verify()
        #expect(report.problems.isEmpty && report.records == 6 && report.sessions == 1)
    }

    @Test(arguments: TestEngine.available) func verifyNamesEveryRecordChangedOrDeletedBehindCheckrunsBack(engine: TestEngine) throws {
        var fixture = try Fixture(engine)
        defer { fixture.remove() }
        let session = try fixture.walk(results: 3)
        let id = session.id.uuidString
        try fixture.raw("UPDATE results SET verdict = 'pass' WHERE check_name = 'p/c0'")
        try fixture.raw("DELETE FROM records WHERE session_id = '\(id)' AND sequence = 5")
        try fixture.raw("UPDATE records SET payload = replace(payload, 'note 2', 'note X') WHERE session_id = '\(id)' AND sequence = 9")
        try fixture.raw("""
            DELETE FROM outcome_answers WHERE result_id IN (SELECT id FROM results WHERE check_name = 'p/c1');
            DELETE FROM stopwatch_events WHERE result_id IN (SELECT id FROM results WHERE check_name = 'p/c1');
            DELETE FROM results WHERE check_name = 'p/c1'
            """)
        let problems = try fixture.store.verify().problems.map(\.description)
        let short = String(id.lowercased().prefix(8))
        #expect(problems.contains("session \(short): record 5 was deleted"))
        #expect(problems.contains("session \(short), record 9: p/c2: its content was changed after it was recorded"))
        #expect(problems.contains("session \(short), record 3: p/c0: the results table differs from the record (verdict fail recorded, pass in the table); it was edited behind checkrun's back"))
        #expect(problems.contains("session \(short), record 6: p/c1: the result was deleted from the results table"))

        var other = try Fixture(engine)
        defer { other.remove() }
        let renamed = try other.walk(results: 1)
        try other.raw("UPDATE sessions SET device = 'iPad' WHERE id = '\(renamed.id.uuidString)'")
        #expect(try other.store.verify().problems.first?.message == "the session's details (release, build, device, tester or plan) were changed after recording")
    }

    @Test(arguments: TestEngine.available) func anAmendmentIsANewRecordAndTheOldOneStays(engine: TestEngine) throws {
        var fixture = try Fixture(engine)
        defer { fixture.remove() }
        let session = try fixture.walk(results: 1)
        var result = try #require(try fixture.store.results(inSession: session.id).first)
        result.verdict = .pass
        result.outcomes[1] = OutcomeAnswer(.pass)
        try fixture.store.amend(result, reason: "Delete fired from the debug overlay", at: Date())
        let chain = try records(fixture.store, session)
        #expect(chain.count == 4)
        #expect(chain.last?.kind == .amend && chain.last?.reason == "Delete fired from the debug overlay")
        #expect(CheckResult.decoding(payload: chain[2].payload, sessionID: session.id)?.verdict == .fail, "the original record is kept")
        #expect(try fixture.store.results(inSession: session.id).first?.verdict == .pass)
        #expect(try fixture.store.database.scalarInt("SELECT amendments FROM results") == 1)
        #expect(try fixture.store.verify().problems.isEmpty)
    }

    @Test(arguments: TestEngine.available) func aSessionNotAnsweredYetCountsAsAlreadyHere(engine: TestEngine) throws {
        var source = try Fixture(engine)
        defer { source.remove() }
        try source.walk(results: 1)
        try source.store.insert(Session(release: "2.4", build: "311", device: "iPad", plan: ["p/c"], startedAt: Date()))
        let target = try Fixture(engine, name: "target.sqlite")
        defer { target.remove() }
        func merged() throws -> MergeSummary {
            let reader = try ResultStore(path: source.database.address, access: .existingOnly)
            defer { reader.close() }
            return try target.store.merge(from: DatabaseSource(store: reader, name: "source"))
        }
        #expect(try merged().sessionsAdded == 2)
        let again = try merged()
        #expect(again.sessionsAdded == 0 && again.recordsAdded == 0 && again.sessionsUnchanged == 2, "both sessions are here, the empty one too")
    }

    @Test(arguments: TestEngine.available) func exportAndMergeRoundTripWithoutLoss(engine: TestEngine) throws {
        var source = try Fixture(engine)
        defer { source.remove() }
        try source.walk(results: 3)
        try source.walk(results: 2, release: "2.5", device: "iPad")
        let exported = source.folder.path("export.json")
        var written = ""
        let counts = try source.store.export(release: nil) { written += $0 }
        try Data(written.utf8).write(to: URL(fileURLWithPath: exported))
        #expect(counts.sessions == 2 && counts.records == 15)
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 4, "a header line, one line per session, a closing line")
        #expect(text.hasPrefix("{\"format\": \"checkrun-export\", \"version\": 2,") && !text.contains("\"attachments\""),
                "without attachments, an export any checkrun since version 2 reads")
        let schema = try JSONParser.parse(try Repository.text("Schemas/export.schema.json"))
        #expect(JSONSchema(schema).validate(try JSONParser.parse(text)).isEmpty)
        #expect(ExportSchema.text == (try Repository.text("Schemas/export.schema.json")), "run .ci/embed-data")

        let target = try Fixture(engine, name: "target.sqlite")
        defer { target.remove() }
        let first = try target.store.merge(from: ExportFileSource(path: exported))
        #expect(first.sessionsAdded == 2 && first.recordsAdded == 15 && first.resultsAdded == 5)
        let again = try target.store.merge(from: ExportFileSource(path: exported))
        #expect(again.recordsAdded == 0 && again.sessionsUnchanged == 2, "merging the same file twice adds nothing")
        for session in source.sessions {
            #expect(try records(target.store, session) == records(source.store, session))
            let before = try source.store.results(inSession: session.id).map(\.payload)
            let after = try target.store.results(inSession: session.id).map(\.payload)
            #expect(before == after)
        }
        #expect(try target.store.verify().problems.isEmpty)

        // A database merges the same way, and a session that went on gains only its new records.
        var result = try #require(try source.store.results(inSession: source.sessions[0].id).first)
        result.notes = "more"
        try source.store.save(result)
        let fromDatabase = try target.store.merge(from: try DatabaseSource(store: source.store, name: "source"))
        #expect(fromDatabase.sessionsExtended == 1 && fromDatabase.recordsAdded == 1)
        #expect(try target.store.results(inSession: source.sessions[0].id).first { $0.id == result.id }?.notes == "more")
    }

    @Test(arguments: TestEngine.available) func aConflictOrADamagedSourceChangesNothing(engine: TestEngine) throws {
        var source = try Fixture(engine)
        defer { source.remove() }
        let session = try source.walk(results: 2)
        let target = try Fixture(engine, name: "target.sqlite")
        defer { target.remove() }
        _ = try target.store.merge(from: try DatabaseSource(store: source.store, name: "source"))
        // The same session id with other details on the other side.
        try source.raw("UPDATE sessions SET tester = 'Ben' WHERE id = '\(session.id.uuidString)'")
        #expect { try target.store.merge(from: try DatabaseSource(store: source.store, name: "source")) } throws: { error in
            "\(error)".contains("session \(session.shortID) is damaged: the session's details were changed after recording")
        }
        try source.raw("UPDATE sessions SET tester = 'Ana' WHERE id = '\(session.id.uuidString)'")

        // Records that disagree: a conflict, and the target keeps exactly what it had.
        var other = try Fixture(engine, name: "other.sqlite")
        defer { other.remove() }
        try other.store.insert(session)
        var result = CheckResult(sessionID: session.id, check: session.plan.first ?? "p/other", protocolHash: "h", attempt: 1, outcomeCount: 1)
        result.verdict = .pass
        try other.store.save(result)
        other.sessions = [session]
        let before = try records(target.store, session)
        #expect { try target.store.merge(from: try DatabaseSource(store: other.store, name: "other")) } throws: { error in
            "\(error)".contains("record 1 differs from the one here")
        }
        #expect(try records(target.store, session) == before)
        #expect(try target.store.verify().problems.isEmpty)
    }

    @Test func badSourcesAreRefusedWithTheirReason() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scratch = folder.path("scratch.sqlite")
        let text = try folder.write("notes.sqlite", "not a database at all")
        #expect { try ResultStore.openForReading(path: text, scratch: scratch) } throws: { "\($0)".contains("is not a checkrun database") }

        var source = try Fixture()
        defer { source.remove() }
        try source.walk(results: 20)
        source.store.sqlite!.close()
        let full = try Data(contentsOf: URL(fileURLWithPath: source.store.sqlite!.path))
        let truncated = try folder.write("truncated.sqlite", bytes: Array(full.prefix(full.count / 2)))
        #expect { try ResultStore.openForReading(path: truncated, scratch: scratch) } throws: { "\($0)".contains("damaged") || "\($0)".contains("truncated") }

        let newer = folder.path("newer.sqlite")
        try FileManager.default.copyItem(atPath: source.store.sqlite!.path, toPath: newer)
        let raw = try Database(path: newer)
        try raw.execute("PRAGMA user_version = 7")
        raw.close()
        #expect { try ResultStore.openForReading(path: newer, scratch: scratch) } throws: { "\($0)".contains("written by a newer checkrun (schema version 7") }

        let wrongField = try folder.write("bad.json", """
        {"format": "checkrun-export", "version": 1, "exportedAt": "x", "release": null, "sessions": [
        {"session":{"id":"not-a-uuid","release":"1","build":"1","device":"","osVersion":"","tester":"","plan":[],"startedAt":0},"finishedAt":null,"records":[]}
        ]}
        """)
        #expect { try ExportFileSource(path: wrongField).forEachEntry { _ in } } throws: {
            "\($0)".contains("bad.json:2: /sessions/0/session/id:")
        }
        let cut = try folder.write("cut.json", "{\"format\": \"checkrun-export\", \"version\": 1, \"exportedAt\": \"x\", \"release\": null, \"sessions\": [\n{\"session\":{\"id\":")
        #expect { try ExportFileSource(path: cut).forEachEntry { _ in } } throws: { "\($0)".contains("cut.json:2:") }
    }

    @Test func aVersionOneDatabaseGetsItsRecordsOnUpgrade() throws {
        var fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.walk(results: 2)
        try fixture.raw("DROP TABLE result_attachments; DROP TABLE attachment_files; DROP TABLE records; DROP TABLE protocol_versions; ALTER TABLE results DROP COLUMN amendments; ALTER TABLE results DROP COLUMN amend_reason; DROP INDEX results_set_aside; PRAGMA user_version = 1;")
        let upgraded = try ResultStore(path: fixture.store.sqlite!.path)
        #expect(try upgraded.sqlite!.userVersion == Schema.latestVersion)
        let report = try upgraded.verify()
        #expect(report.records == 2, "one record for each result's state at the upgrade")
        #expect(report.problems.isEmpty)
    }

    /// Version 2 kept records WITHOUT ROWID; version 3 moves them to a rowid table, losing none.
    @Test func aVersionTwoDatabaseKeepsEveryRecordThroughTheUpgrade() throws {
        var fixture = try Fixture()
        defer { fixture.remove() }
        let session = try fixture.walk(results: 3)
        try fixture.store.amend({ () -> CheckResult in
            var result = try #require(try fixture.store.results(inSession: session.id).first)
            result.verdict = .pass
            // Retested: every outcome passes now (a pass beside a failed outcome is forged).
            for index in result.outcomes.indices { result.outcomes[index]?.verdict = .pass }
            return result
        }(), reason: "retested", at: Date())
        let before = try records(fixture.store, session)
        try fixture.raw(OlderSchema.version2)
        let upgraded = try ResultStore(path: fixture.store.sqlite!.path)
        #expect(try upgraded.sqlite!.userVersion == Schema.latestVersion)
        #expect(try records(upgraded, session) == before)
        #expect(try upgraded.database.query("SELECT sql FROM sqlite_schema WHERE name = 'records'") { $0.string(0) ?? "" }.first?.contains("WITHOUT ROWID") == false)
        let report = try upgraded.verify()
        #expect(report.records == 10)
        #expect(report.problems.isEmpty)
    }
}
