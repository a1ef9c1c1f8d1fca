import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// What `verify` finds beyond the chains: a damaged file, and a session nobody recorded.
@Suite struct VerifySoundnessTests {
    func storeWithOneResult(_ folder: TemporaryFolder) throws -> (ResultStore, Session) {
        let store = try ResultStore(path: folder.path("db.sqlite"))
        let session = Session(release: "2.4", build: "311", tester: "Ana", plan: ["p/c"])
        try store.insert(session)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1)
        result.verdict = .fail
        result.notes = "Delete fired"
        try store.save(result)
        return (store, session)
    }

    @Test func aSessionInsertedByHandIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, _) = try storeWithOneResult(folder)
        try store.database.execute("INSERT INTO sessions (id, release, build, device, tester, plan, started_at, finished_at) VALUES ('11111111-1111-4111-8111-111111111111', '2.4', '311', 'Forged phone', 'Mallory', '[]', 0, 1)")
        let report = try store.verify()
        #expect(report.problems.contains { $0.message.contains("but has no records") }, "\(report.problems)")
        // Unfinished, it is what a walk without an answer yet looks like: not a problem, but it
        // names no one in a report.
        try store.database.execute("UPDATE sessions SET finished_at = NULL WHERE tester = 'Mallory'")
        #expect(try store.verify().isClean)
        let people = try store.participants(release: "2.4", build: nil)
        #expect(people.testers == ["Ana"] && !people.devices.contains("Forged phone"))
    }

    @Test func aDamagedIndexPageIsFound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, _) = try storeWithOneResult(folder)
        #expect(try store.verify().isClean)
        try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let page = try #require(try store.database.scalarInt("SELECT rootpage FROM sqlite_master WHERE name = 'results_by_check'"))
        let pageSize = try #require(try store.database.scalarInt("PRAGMA page_size"))
        store.sqlite!.close()
        // Zero the index's root page on disk, as a failing disk or a careless edit would.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: folder.path("db.sqlite")))
        try handle.seek(toOffset: UInt64((page - 1) * pageSize + 8))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: pageSize - 8))
        try handle.close()
        let reopened = try ResultStore(path: folder.path("db.sqlite"), access: .existingOnly)
        let report = try reopened.verify()
        #expect(!report.fileProblems.isEmpty, "quick_check names the damage")
        #expect(!report.isClean)
    }
}

/// The connection's own promises: a query run inside its own loop, and errors that say which SQL failed.
@Suite struct DatabaseConnectionTests {
    @Test func theSameQueryInsideItsOwnLoopDoesNotResetTheOuterOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let database = try Database(path: folder.path("db.sqlite"))
        try database.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);")
        var outer: [Int] = []
        try database.forEach("SELECT x FROM t ORDER BY x") { row in
            outer.append(row.int(0) ?? 0)
            _ = try database.query("SELECT x FROM t ORDER BY x") { $0.int(0) }
        }
        #expect(outer == [1, 2, 3])
    }

    @Test func aFailedStatementCarriesItsSQLAndCode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let database = try Database(path: folder.path("db.sqlite"))
        try database.execute("CREATE TABLE t (x INTEGER UNIQUE); INSERT INTO t VALUES (1);")
        do {
            try database.run("INSERT INTO t VALUES (?)", [.integer(1)])
            Issue.record("the duplicate was accepted")
        } catch {
            #expect(error.sql == "INSERT INTO t VALUES (?)")
            #expect((error.code ?? 0) & 0xFF == 19, "SQLITE_CONSTRAINT")
        }
    }

    @Test func anInnerFailureCaughtByTheCallerUndoesOnlyItsOwnWrites() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let database = try Database(path: folder.path("db.sqlite"))
        try database.execute("CREATE TABLE t (x INTEGER UNIQUE)")
        try database.transaction {
            try database.run("INSERT INTO t VALUES (1)")
            _ = try? database.transaction {
                try database.run("INSERT INTO t VALUES (2)")
                try database.run("INSERT INTO t VALUES (1)")
            }
        }
        #expect(try database.query("SELECT x FROM t") { $0.int(0) } == [1], "the inner part's 2 was undone, the outer 1 kept")
    }
}
