import CheckrunModel
import CheckrunStore
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
        try store.database.execute("INSERT INTO sessions (id, release, build, device, tester, plan, started_at) VALUES ('11111111-1111-4111-8111-111111111111', '2.4', '311', 'Forged phone', 'Mallory', '[]', 0)")
        let report = try store.verify()
        #expect(report.problems.contains { $0.message.contains("the session has no records") }, "\(report.problems)")
    }

    @Test func aDamagedIndexPageIsFound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, _) = try storeWithOneResult(folder)
        #expect(try store.verify().isClean)
        try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let page = try #require(try store.database.scalarInt("SELECT rootpage FROM sqlite_master WHERE name = 'results_by_check'"))
        let pageSize = try #require(try store.database.scalarInt("PRAGMA page_size"))
        store.database.close()
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
