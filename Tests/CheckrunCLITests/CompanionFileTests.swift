import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// SQLite's `-wal` and `-shm` files deleted while a walk has the database open. The walk kept
/// using the old ones: with the index gone, its next answer was written over what another
/// process had saved meanwhile (that session vanished, and `verify` passed); with the log gone,
/// every answer since lived only in a deleted file, lost at a crash. Now the next save stops,
/// and nothing saved before is lost.
@Suite struct CompanionFileTests {
    /// A store in this process, as a walk holds it, with one answer saved.
    static func walkWithOneAnswer(_ folder: TemporaryFolder) throws -> (ResultStore, Session) {
        let store = try ResultStore(path: folder.path("checkrun.sqlite"))
        let session = Session(release: "2.4", build: "311", device: "iPhone 15", tester: "Ana", plan: ["p/c", "p/d"],
                              startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try store.insert(session)
        try store.save(Self.answer("p/c", in: session))
        return (store, session)
    }

    static func answer(_ check: String, in session: Session) -> CheckResult {
        var result = CheckResult(sessionID: session.id, check: check, protocolHash: "h", attempt: 1, outcomeCount: 1,
                                 startedAt: Date(timeIntervalSince1970: 1_800_000_001))
        result.outcomes = [OutcomeAnswer(.pass, answeredAt: Date(timeIntervalSince1970: 1_800_000_002))]
        result.verdict = .pass
        return result
    }

    func recordElsewhere(_ folder: TemporaryFolder) throws {
        let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--device", "iPad", "--check", "tiny-target/accessibility-inspector",
                                         "--verdict", "pass", "--protocols", Repository.path("protocols")], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    @Test(.hangGuard) func theIndexDeletedStopsTheNextSaveAndLosesNoOnesAnswers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, session) = try Self.walkWithOneAnswer(folder)
        try FileManager.default.removeItem(atPath: folder.path("checkrun.sqlite-shm"))
        try recordElsewhere(folder)
        #expect(throws: StoreError.self) { try store.save(Self.answer("p/d", in: session)) }
        do { try store.save(Self.answer("p/d", in: session)) } catch let error as StoreError {
            #expect(error.message.contains("checkrun.sqlite-shm") && error.message.contains("resume to go on"), "\(error.message)")
        }
        store.close()
        let listed = try Checkrun.run(["sessions", "--json"], in: folder.path)
        #expect(listed.stdout.contains("\"device\": \"iPad\"") && listed.stdout.contains("\"device\": \"iPhone 15\""), "\(listed.stdout)")
        let verified = try Checkrun.run(["verify"], in: folder.path)
        #expect(verified.status == 0 && verified.stdout.contains("2 records in 2 sessions"), "\(verified.stdout)\(verified.stderr)")
    }

    @Test(.hangGuard) func theLogDeletedStopsTheNextSaveAndKeepsWhatWasSaved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, session) = try Self.walkWithOneAnswer(folder)
        try FileManager.default.removeItem(atPath: folder.path("checkrun.sqlite-wal"))
        do {
            try store.save(Self.answer("p/d", in: session))
            Issue.record("a save went to a deleted log")
        } catch let error as StoreError {
            #expect(error.message.contains("checkrun.sqlite-wal") && error.message.contains("has been copied into the database"), "\(error.message)")
        }
        // As a crash would: the connection is never closed, so nothing more is copied at close.
        let listed = try Checkrun.run(["sessions", "--json"], in: folder.path)
        #expect(listed.stdout.contains("\"device\": \"iPhone 15\""), "the answer saved before the log was deleted: \(listed.stdout)")
        let verified = try Checkrun.run(["verify"], in: folder.path)
        #expect(verified.status == 0 && verified.stdout.contains("1 record in 1 session"), "\(verified.stdout)\(verified.stderr)")
        store.close()
    }

    /// Both deleted, by a clean-up: what was saved is only in the deleted log, and is copied in.
    @Test(.hangGuard) func bothDeletedKeepsWhatWasSaved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, session) = try Self.walkWithOneAnswer(folder)
        for suffix in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: folder.path("checkrun.sqlite" + suffix)) }
        #expect(throws: StoreError.self) { try store.save(Self.answer("p/d", in: session)) }
        let listed = try Checkrun.run(["sessions", "--json"], in: folder.path)
        #expect(listed.stdout.contains("\"device\": \"iPhone 15\""), "\(listed.stdout)")
        store.close()
        #expect(try Checkrun.run(["verify"], in: folder.path).stdout.contains("1 record in 1 session"))
    }

    /// The index replaced, another process's answer saved, and the walk closed without saving
    /// again: closing copied the walk's old view into the file, over the other answer.
    @Test(.hangGuard) func closingAfterTheIndexWentKeepsAnotherProcesssAnswers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, _) = try Self.walkWithOneAnswer(folder)
        try FileManager.default.removeItem(atPath: folder.path("checkrun.sqlite-shm"))
        try recordElsewhere(folder)
        store.close()
        let listed = try Checkrun.run(["sessions", "--json"], in: folder.path)
        #expect(listed.stdout.contains("\"device\": \"iPad\"") && listed.stdout.contains("\"device\": \"iPhone 15\""), "\(listed.stdout)")
    }

    /// The log deleted, then `checkrun sessions` (which begins an empty log and index) before
    /// the walk's next answer: what the walk saved is still copied in.
    @Test(.hangGuard) func aReaderAfterTheLogWentDoesNotCostTheWalksAnswers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, session) = try Self.walkWithOneAnswer(folder)
        try FileManager.default.removeItem(atPath: folder.path("checkrun.sqlite-wal"))
        _ = try Checkrun.run(["sessions"], in: folder.path)
        do {
            try store.save(Self.answer("p/d", in: session))
            Issue.record("a save went to a deleted log")
        } catch let error as StoreError {
            #expect(error.message.contains("has been copied into the database") && !error.earlierWritesUncertain, "\(error.message)")
        }
        store.close()
        #expect(try Checkrun.run(["sessions", "--json"], in: folder.path).stdout.contains("\"device\": \"iPhone 15\""))
    }

    /// A folder whose name is not UTF-8, the database in it named relatively: the names were
    /// compared as decoded text, and every write was refused as if the index had gone.
    @Test(.hangGuard) func aPathThatIsNotUTF8IsNoCompanionGone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = "mkdir \"$(printf 'caf\\351')\" && cd \"$(printf 'caf\\351')\" && for build in 1 2; do \"$0\" record --release 2.4 --build $build --check tiny-target/accessibility-inspector --verdict pass --protocols \"$1\" || exit 1; done"
        let recorded = try Subprocess.run("/bin/sh", ["-c", script, Checkrun.executable, Repository.path("protocols")], in: folder.path)
        #expect(recorded.status == 0 && recorded.stdout.components(separatedBy: "Recorded").count == 3, "\(recorded.stdout)\(recorded.stderr)")
    }
}
