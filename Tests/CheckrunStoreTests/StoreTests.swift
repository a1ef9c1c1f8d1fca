import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

@Suite struct StoreTests {
    func sampleResult(in session: Session) -> CheckResult {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var result = CheckResult(sessionID: session.id, check: "tiny-target/touch-one-hand", protocolHash: "abc", attempt: 1, outcomeCount: 2, startedAt: start)
        result.stopwatch = [
            StopwatchEvent(.start, at: 0, recordedAt: start),
            StopwatchEvent(.pause, at: 10, recordedAt: start.addingTimeInterval(10)),
            StopwatchEvent(.resume, at: 15, recordedAt: start.addingTimeInterval(15)),
            StopwatchEvent(.stop, at: 20.5, recordedAt: start.addingTimeInterval(20.5)),
        ]
        result.tally = 3
        result.outcomes = [OutcomeAnswer(.fail, value: 9, note: "missed once", answeredAt: start.addingTimeInterval(30)), OutcomeAnswer(.notApplicable, answeredAt: start.addingTimeInterval(31))]
        result.counters = ["hits": CounterValue(9, answeredAt: start.addingTimeInterval(30))]
        result.notes = "close \u{1B}[2J button"
        result.notesAnsweredAt = start.addingTimeInterval(40)
        result.verdict = .fail
        result.updatedAt = start.addingTimeInterval(40)
        return result
    }

    @Test func aNewDatabaseIsMigratedToTheLatestSchemaInWALMode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ResultStore(path: folder.path("results.sqlite"))
        #expect(try store.sqlite!.userVersion == Schema.latestVersion)
        #expect(try store.database.query("PRAGMA journal_mode") { $0.string(0) }.first == "wal")
        #expect(try store.database.scalarInt("PRAGMA foreign_keys") == 1)
        // Opening again migrates nothing and keeps the data.
        let session = Session(release: "2.4", build: "311", plan: ["a/b"])
        try store.insert(session)
        let reopened = try ResultStore(path: folder.path("results.sqlite"))
        #expect(try reopened.session(matching: session.shortID)?.id == session.id)
    }

    /// A short id two sessions begin with names both, by enough of their ids to tell them
    /// apart and by their release, build and device, so the tester can type the one meant.
    /// checkrun's connections run no trigger: one planted in a file, its row's type edited so
    /// that a look for triggers by type missed it, ran inside checkrun's own writes.
    @Test func aConnectionRunsNoTrigger() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let database = try Database(path: folder.path("t.sqlite"))
        defer { database.close() }
        try database.execute("CREATE TABLE answers (verdict TEXT); CREATE TABLE eaten (verdict TEXT)")
        try database.execute("CREATE TRIGGER eat AFTER INSERT ON answers BEGIN INSERT INTO eaten VALUES (NEW.verdict); DELETE FROM answers; END")
        try database.execute("INSERT INTO answers VALUES ('fail')")
        #expect(try database.scalarInt("SELECT count(*) FROM answers") == 1)
        #expect(try database.scalarInt("SELECT count(*) FROM eaten") == 0)
    }

    @Test func anAmbiguousShortIdNamesTheSessionsItCouldBe() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ResultStore(path: folder.path("results.sqlite"))
        for (last, build) in [(UInt8(1), "311"), (UInt8(2), "312")] {
            let id = UUID(uuid: (0x82, 0x58, 0xAA, last, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, last))
            try store.insert(Session(id: id, release: "2.4", build: build, device: "iPhone 15", plan: ["a/b"],
                                     startedAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(last))))
        }
        #expect(throws: StoreError.self) { try store.session(matching: "8258") }
        do {
            _ = try store.session(matching: "8258")
        } catch {
            #expect("\(error)" == "the session id \"8258\" is ambiguous: it begins 8258aa02 (release 2.4, build 312, iPhone 15), 8258aa01 (release 2.4, build 311, iPhone 15); type more of it (see `checkrun sessions`)")
        }
        #expect(try store.session(matching: "8258aa01")?.build == "311")
    }

    @Test(arguments: TestEngine.available) func resultsRoundTripWithEveryPart(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        let session = Session(release: "2.4", build: "311", device: "iPhone 15", osVersion: "18.2", tester: "Ana", plan: ["tiny-target/touch-one-hand"],
                              startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try store.insert(session)
        let result = sampleResult(in: session)
        try store.save(result)
        let loaded = try store.results(inSession: session.id)
        #expect(loaded == [result])
        #expect(loaded.first?.activeSeconds == 15.5)
        // Saving again replaces, never duplicates.
        var changed = result
        changed.notes = "changed"
        try store.save(changed)
        #expect(try store.results(inSession: session.id) == [changed])
        #expect(try store.database.scalarInt("SELECT active_seconds FROM results") == 15)
    }

    @Test(arguments: TestEngine.available) func attemptsCountPerCheckReleaseBuildAndDevice(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        let first = Session(release: "2.4", build: "311", device: "A", plan: [])
        try store.insert(first)
        try store.save(sampleResult(in: first))
        #expect(try store.nextAttempt(check: "tiny-target/touch-one-hand", release: "2.4", build: "311", device: "A") == 2)
        #expect(try store.nextAttempt(check: "tiny-target/touch-one-hand", release: "2.4", build: "312", device: "A") == 1)
        #expect(try store.nextAttempt(check: "tiny-target/touch-one-hand", release: "2.4", build: "311", device: "B") == 1)
    }

    @Test(arguments: TestEngine.available) func unfinishedSessionsAndSummaries(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        let old = Session(release: "2.4", build: "1", plan: ["x/y"], startedAt: Date(timeIntervalSince1970: 100))
        let new = Session(release: "2.5", build: "2", plan: ["x/y", "x/z"], startedAt: Date(timeIntervalSince1970: 200))
        try store.insert(old)
        try store.insert(new)
        #expect(try store.latestUnfinishedSession()?.id == new.id)
        try store.finish(sessionID: new.id, at: Date())
        #expect(try store.latestUnfinishedSession()?.id == old.id)
        let summaries = try store.sessionSummaries(release: "2.5")
        #expect(summaries.map(\.session.id) == [new.id])
        #expect(summaries.first?.session.plan == ["x/y", "x/z"])
    }

    /// A checkrun database cut short (a copy that stopped) is named as such, not as a file of
    /// some other kind.
    @Test(arguments: [50, 4096])
    func aDatabaseCutShortIsNamedAsCutShort(bytes: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let whole = folder.path("whole.sqlite")
        let store = try ResultStore(path: whole)
        try store.insert(Session(release: "2.4", build: "311", plan: ["x/y"]))
        store.close()
        let cut = folder.path("cut.sqlite")
        try (try Data(contentsOf: URL(fileURLWithPath: whole))).prefix(bytes).write(to: URL(fileURLWithPath: cut))
        #expect {
            let opened = try ResultStore(path: cut, access: .existingOnly)
            _ = try opened.sessionSummaries()
        } throws: { ($0 as? StoreError)?.message.contains("cut short") == true }
    }

    @Test func aFileThatIsNotACheckrunDatabaseIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = try folder.write("notes.sqlite", "just some text, not a database\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: text))
        #expect { try ResultStore(path: text) } throws: { ($0 as? StoreError)?.message.contains("is not a checkrun database") == true }
        #expect(try Data(contentsOf: URL(fileURLWithPath: text)) == before)
        #expect(!FileManager.default.fileExists(atPath: text + "-wal"))

        let other = folder.path("other.sqlite")
        let database = try Database(path: other)
        try database.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY); INSERT INTO photos VALUES (1);")
        database.close()
        let otherBefore = try Data(contentsOf: URL(fileURLWithPath: other))
        #expect { try ResultStore(path: other) } throws: { ($0 as? StoreError)?.message.contains("of another program") == true }
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBefore)
    }

    @Test func aDatabaseFromANewerCheckrunIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("new.sqlite")
        _ = try ResultStore(path: path)
        let raw = try Database(path: path)
        try raw.execute("PRAGMA user_version = 99")
        raw.close()
        #expect { try ResultStore(path: path) } throws: {
            ($0 as? StoreError)?.message == "\(path) was written by a newer checkrun (schema version 99; this checkrun knows up to \(Schema.latestVersion)); upgrade checkrun to use it"
        }
    }

    @Test func aMissingFolderIsExplained() throws {
        #expect { try ResultStore(path: "/no/such/folder/db.sqlite") } throws: {
            ($0 as? StoreError)?.message.contains("the folder /no/such/folder does not exist") == true
        }
    }

    /// Root writes into any folder, so as root this is skipped, and said so; ReadOnlyFolderTests
    /// shows the same message through the binary run as `nobody`.
    @Test(.enabled(if: getuid() != 0, "root may write into a read-only folder; ReadOnlyFolderTests covers it as nobody"))
    func aReadOnlyFolderIsExplained() throws {
        let folder = try TemporaryFolder()
        defer {
            chmod(folder.path, 0o755)
            folder.remove()
        }
        chmod(folder.path, 0o555)
        #expect { try ResultStore(path: folder.path("db.sqlite")) } throws: {
            ($0 as? StoreError)?.message.contains("is read-only") == true
        }
    }

    @Test func aWriterWaitsForAnotherThatHoldsTheDatabaseForAFewSeconds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("db.sqlite")
        let store = try ResultStore(path: path)
        let session = Session(release: "1", build: "1", plan: [])
        try store.insert(session)
        let blocker = try Database(path: path)
        try blocker.execute("BEGIN IMMEDIATE; INSERT INTO sessions (id, release, build, plan, started_at) VALUES ('x', 'r', 'b', '[]', 0);")
        let held = Held(blocker)
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { try? held.database.execute("COMMIT") }
        let started = Date()
        try store.save(sampleResult(in: session))
        #expect(Date().timeIntervalSince(started) >= 1.5, "the save waited for the other writer")
        #expect(try store.results(inSession: session.id).count == 1)
        blocker.close()
    }
}

/// Hands the blocking connection to the thread that releases it; only that thread uses it then.
private final class Held: @unchecked Sendable {
    let database: Database
    init(_ database: Database) { self.database = database }
}

extension StoreTests {
    /// Reports count the latest finished result per check and device: the latest attempt in the
    /// newest build (build order, not recording order), and on a tie in time the higher attempt;
    /// unfinished results and other devices never count.
    @Test(arguments: TestEngine.available) func theLatestResultPerCheckAndDeviceIsTheLatestAttemptInTheNewestBuild(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        let first = Session(release: "2.4", build: "310", device: "iPhone 15", plan: ["a/b"], startedAt: base)
        let second = Session(release: "2.4", build: "311", device: "iPhone 15", plan: ["a/b"], startedAt: base.addingTimeInterval(100))
        let other = Session(release: "2.4", build: "311", device: "iPad", plan: ["a/b"], startedAt: base.addingTimeInterval(200))
        for session in [first, second, other] { try store.insert(session) }
        func save(_ session: Session, attempt: Int, verdict: Verdict?, at seconds: Double) throws {
            var result = CheckResult(sessionID: session.id, check: "a/b", protocolHash: "h", attempt: attempt, outcomeCount: 0, startedAt: base)
            result.verdict = verdict
            result.updatedAt = base.addingTimeInterval(seconds)
            try store.save(result)
        }
        try save(first, attempt: 1, verdict: .pass, at: 500)
        try save(first, attempt: 2, verdict: .fail, at: 500)   // same moment: the higher attempt wins
        try save(second, attempt: 3, verdict: .pass, at: 400)  // recorded earlier, but in the newer build
        try save(second, attempt: 4, verdict: nil, at: 900)    // unfinished: not a result yet
        try save(other, attempt: 1, verdict: .blocked, at: 50)
        var latest: [String: ReportedResult] = [:]
        try store.forEachLatestResult(release: "2.4", build: nil, countFailures: { .none }) { latest[$0.device] = $0 }
        #expect(latest["iPhone 15"]?.result.attempt == 3)
        #expect(latest["iPhone 15"]?.result.verdict == .pass)
        var inOld: [ReportedResult] = []
        try store.forEachLatestResult(release: "2.4", build: "310", countFailures: { .none }) { inOld.append($0) }
        #expect(inOld.first?.result.attempt == 2 && inOld.first?.result.verdict == .fail, "within one build: same moment, the higher attempt")
        #expect(latest["iPhone 15"]?.attempts == 1, "finished results in the latest's build on that device: attempts are numbered per build")
        #expect(inOld.first?.attempts == 2)
        #expect(latest["iPad"]?.result.verdict == .blocked)
        var inBuild: [ReportedResult] = []
        try store.forEachLatestResult(release: "2.4", build: "311", countFailures: { .none }) { inBuild.append($0) }
        #expect(inBuild.map(\.device) == ["iPad", "iPhone 15"])
        #expect(inBuild.map(\.result.attempt) == [1, 3])
    }
}

/// A database this user may not write is read as it stands, without SQLite's locks: a write
/// by its owner meanwhile is noticed, so no command claims a reading that may be torn.
@Suite struct ReadAsItStandsTests {
    @Test func aWriteWhileReadingAsItStandsIsNoticed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("ana.sqlite")
        let owner = try ResultStore(path: path)
        try owner.insert(Session(release: "2.4", build: "311", plan: ["x/y"]))
        owner.close()
        let reader = try DatabaseFile.inspect(path).openAsItStands()
        defer { reader.close() }
        #expect(reader.readAsItStands != nil && !reader.changedWhileReadAsItStands)
        #expect(try reader.scalarInt("SELECT count(*) FROM sessions") == 1)
        let writer = try ResultStore(path: path)
        try writer.insert(Session(release: "2.4", build: "312", plan: ["x/y"]))
        #expect(reader.changedWhileReadAsItStands, "the owner's write is noticed while the file is open")
        writer.close()
        #expect(reader.changedWhileReadAsItStands)
    }
}
