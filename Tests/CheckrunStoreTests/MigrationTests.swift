import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Upgrades of databases written by earlier checkrun versions, built here with SQL as those
/// versions wrote them, so the test does not depend on today's store code either.
@Suite struct MigrationTests {
    /// A version-1 database: one session with one answered result, fixed ids and times.
    static func versionOneDatabase(in folder: TemporaryFolder) throws -> String {
        let path = folder.path("v1.sqlite")
        let database = try Database(path: path)
        try database.execute("PRAGMA application_id = \(0x636B_726E)")
        try database.execute(try Repository.text("Tests/Fixtures/schema-version-1.sql"))
        try database.execute("""
            INSERT INTO sessions VALUES ('6F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9', '2.4', '311', 'iPhone 15', '18.1', 'Ana',
                '["tiny-target/touch-one-hand"]', 1700000000.5, NULL);
            INSERT INTO results (id, session_id, check_name, protocol_hash, attempt, verdict, blocked_reason, active_seconds, tally,
                notes, notes_answered_at, started_at, updated_at)
            VALUES ('0190A1B2-C3D4-7E5F-8A6B-7C8D9E0F1A2B', '6F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9', 'tiny-target/touch-one-hand',
                'abc', 1, 'fail', NULL, 65, 2, 'Delete fired', 1700000100, 1700000001, 1700000100);
            INSERT INTO outcome_answers VALUES ('0190A1B2-C3D4-7E5F-8A6B-7C8D9E0F1A2B', 1, 'fail', NULL, 'fired on the 4th try', 1700000090);
            INSERT INTO counter_values VALUES ('0190A1B2-C3D4-7E5F-8A6B-7C8D9E0F1A2B', 'hits', 9, 1700000080);
            INSERT INTO stopwatch_events VALUES ('0190A1B2-C3D4-7E5F-8A6B-7C8D9E0F1A2B', 1, 'typed', 0, 65, 1700000070);
            PRAGMA user_version = 1;
            """)
        database.close()
        return path
    }

    /// What migration 2 writes for a version-1 result is fixed forever: the same old database
    /// upgraded by any later checkrun gets the same record, byte for byte.
    @Test func migrationTwoRecordsAnOldResultTheSameWayForever() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ResultStore(path: try Self.versionOneDatabase(in: folder))
        #expect(try store.sqlite!.userVersion == Schema.latestVersion)
        let records = try store.database.query("SELECT sequence, kind, previous_hash, hash FROM records") { "\($0.int(0) ?? 0) \($0.string(1) ?? "") \($0.string(2) ?? "") \($0.string(3) ?? "")" }
        #expect(records == ["1 answer fdd5d655d2d3c8a62f58d7bdfebdaaf1105c7a3bc30f4e8ee95482d2eb14cccb 9c310e6d706c101c10fb75958bf102ae0e9df108d04d355ffc2d0abc80dd1e48"], "\(records)")
        let report = try store.verify()
        #expect(report.isClean, "\(report.problems) \(report.fileProblems)")
    }

    /// A row deleted by hand long ago leaves a reference dangling; the upgrade goes on (the
    /// check before its commit refuses only references the upgrade itself would break) and
    /// leaves that row as it found it.
    @Test func aBrokenReferenceTheFileAlreadyHadDoesNotBlockTheUpgrade() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.versionOneDatabase(in: folder)
        let raw = try Database(path: path)
        try raw.execute("PRAGMA foreign_keys = OFF; INSERT INTO counter_values VALUES ('NOT-A-RESULT', 'hits', 1, 0);")
        raw.close()
        let store = try ResultStore(path: path)
        #expect(try store.sqlite!.userVersion == Schema.latestVersion)
        #expect(try store.database.query("SELECT count(*) FROM counter_values WHERE result_id = 'NOT-A-RESULT'") { $0.int(0) }.first == 1)
    }

    /// Statistics let SQLite pick the right index on a large database; a connection that wrote
    /// leaves them when it closes, one that only read writes nothing.
    @Test func closingAfterWritingLeavesStatisticsForThePlanner() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("new.sqlite")
        let reading = try ResultStore(path: path)
        _ = try reading.nextAttempt(check: "a/b", release: "1", build: "1", device: "")
        reading.close()
        let untouched = try Database(path: path, create: false, readOnly: true)
        #expect(try untouched.query("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'") { $0.int(0) }.first == 0, "a reader writes no statistics")
        untouched.close()
        let store = try ResultStore(path: try Self.versionOneDatabase(in: folder))
        _ = try store.nextAttempt(check: "tiny-target/touch-one-hand", release: "2.4", build: "311", device: "iPhone 15")
        store.close()
        let check = try Database(path: folder.path("v1.sqlite"), create: false, readOnly: true)
        let tables = try check.query("SELECT DISTINCT tbl FROM sqlite_stat1") { $0.string(0) ?? "" }
        #expect(tables.contains("results"), "\(tables)")
    }
}

/// Step 6 adds an index only: a version-5 file is upgraded when it can be written, and read
/// as it is when it cannot (a lead's archived copy, a merge's source), never refused.
@Suite struct IndexStepTests {
    /// A store brought back to version 5: the index of step 6 dropped, the version set back.
    static func versionFive(at path: String) throws {
        let store = try ResultStore(path: path)
        let session = Session(release: "2.4", build: "311", plan: ["tiny-target/touch-one-hand"])
        try store.insert(session)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var result = CheckResult(id: UUID(), sessionID: session.id, check: "tiny-target/touch-one-hand", protocolHash: "abc", attempt: 1, outcomeCount: 1, startedAt: start)
        result.verdict = .skipped
        result.counters = ["hits": CounterValue(12, answeredAt: start)]
        try store.save(result)
        store.close()
        let raw = try Database(path: path)
        try raw.execute("DROP INDEX results_set_aside; PRAGMA user_version = 5")
        raw.close()
    }

    @Test func aVersionFiveFileIsUpgradedAndTheSetAsideResultsAreFoundByTheIndex() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("v5.sqlite")
        try Self.versionFive(at: path)
        var announced: (Int, Int)?
        let store = try ResultStore(path: path) { announced = ($0, $1) }
        #expect(announced.map { [$0.0, $0.1] } == [5, 6])
        #expect(try store.sqlite!.userVersion == Schema.latestVersion)
        let plan = try store.database.query("EXPLAIN QUERY PLAN " + ResultStore.setAsideCountsStatement, [.text("2.4"), .integer(0)]) { $0.string(3) ?? "" }
        #expect(plan.contains { $0.contains("results_set_aside") }, "\(plan)")
        #expect(try store.setAsideCounts(release: "2.4", latestInSessionOnly: false).map(\.counts) == [["hits": 12]])
        #expect(try store.verify().isClean)
    }

    @Test func aVersionFiveFileThatCannotBeWrittenIsReadAsItIs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("v5.sqlite")
        try Self.versionFive(at: path)
        let reader = try DatabaseFile.inspect(path).openAsItStands()
        #expect(try reader.scalarInt("PRAGMA user_version") == 5)
        reader.close()
        let source = try ResultStore.openForReading(path: path, scratch: folder.path("scratch.sqlite"))
        #expect(try source.setAsideCounts(release: "2.4", latestInSessionOnly: false).count == 1)
        source.close()
        #expect(!FileManager.default.fileExists(atPath: folder.path("scratch.sqlite")), "read in place, not copied to be upgraded")
    }
}
