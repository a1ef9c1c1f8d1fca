import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// What a report checks before it writes: the cited verification of its sessions
/// (`VerificationDepth.cited`) and the comparison of the results it shows with their records,
/// in the snapshot it reads them from (`forEachLatestResult`).
@Suite struct CitedVerificationTests {
    /// Everything a report could read, and so everything `verify` names in a database whose one
    /// result is shown, a report names too (or, with the release gone, cannot be made at all).
    /// A part added at a place no check has is read by nothing: only `verify` names it.
    @Test(arguments: TestEngine.available, TamperTests.edits.filter { !$0.contains("10000") })
    func aReportNamesEveryEditToWhatItShows(engine: TestEngine, sql: String) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        try TamperTests.original(at: database.address)
        try database.tamper(sql)
        let store = try ResultStore(path: database.address, access: .existingOnly)
        defer { store.close() }
        if (try? store.requireRelease("2.4")) == nil { return }
        #expect(!(try Self.reportProblems(store)).isEmpty, "a report missed: \(sql)")
    }

    /// A report rests on every result's own fields, counters and active time (they decide the
    /// latest attempt, its attempt count and the build history), but shows the outcomes,
    /// stopwatch and attachments of the latest attempt only: an edit to those of an earlier
    /// attempt is left to `verify`.
    @Test(arguments: TestEngine.available, [
        ("UPDATE results SET verdict = NULL WHERE attempt = 1", true),
        ("UPDATE results SET updated_at = updated_at + 1000 WHERE attempt = 1", true),
        ("UPDATE results SET check_name = 'p/other' WHERE attempt = 1", true),
        ("UPDATE results SET active_seconds = 99 WHERE attempt = 1", true),
        ("UPDATE counter_values SET value = 11 WHERE result_id IN (SELECT id FROM results WHERE attempt = 1)", true),
        ("DELETE FROM counter_values WHERE result_id IN (SELECT id FROM results WHERE attempt = 1)", true),
        ("UPDATE outcome_answers SET verdict = 'pass' WHERE result_id IN (SELECT id FROM results WHERE attempt = 1)", false),
        ("UPDATE stopwatch_events SET recorded_at = recorded_at + 1 WHERE result_id IN (SELECT id FROM results WHERE attempt = 1)", false),
        ("UPDATE outcome_answers SET verdict = 'pass' WHERE result_id IN (SELECT id FROM results WHERE attempt = 2)", true),
        ("UPDATE stopwatch_events SET at = 80 WHERE kind = 'stop' AND result_id IN (SELECT id FROM results WHERE attempt = 2)", true),
        // Ids in a spelling checkrun never writes, checked where the verification reads them.
        ("UPDATE results SET id = lower(id) WHERE attempt = 1", true),
        ("""
         INSERT INTO results (id, session_id, check_name, protocol_hash, attempt, verdict, started_at, updated_at)
             SELECT lower(id), session_id, check_name, protocol_hash, 3, 'pass', started_at, updated_at + 1 FROM results WHERE attempt = 2
         """, true),
    ])
    func aReportComparesWhatItReadsOfEveryResult(engine: TestEngine, edit: (sql: String, named: Bool)) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        try Self.twoAttempts(at: database.address)
        try database.tamper(edit.sql)
        let store = try ResultStore(path: database.address, access: .existingOnly)
        defer { store.close() }
        #expect(!(try Self.reportProblems(store)).isEmpty == edit.named, "\(edit.sql)")
        #expect(!(try store.verify()).isClean, "verify names every edit: \(edit.sql)")
    }

    /// A build history reads an earlier attempt's counters as text ('10,m=100' is two
    /// counters there); verification reads the same column as a number, and must not take
    /// that text for the 10 the record holds.
    @Test func aReportNamesAnEarlierAttemptsCounterEditedIntoText() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        try Self.twoAttempts(at: database.address)
        try database.tamper("UPDATE counter_values SET value = value || ',m=100' WHERE result_id IN (SELECT id FROM results WHERE attempt = 1)")
        let store = try ResultStore(path: database.address, access: .existingOnly)
        defer { store.close() }
        #expect(!(try Self.reportProblems(store)).isEmpty)
    }

    /// An answer saved in a session a report reads is never taken for an edit.
    @Test(arguments: TestEngine.available)
    func honestAnswersOfEveryKindVerifyClean(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        try Self.twoAttempts(at: database.address)
        let store = try ResultStore(path: database.address, access: .existingOnly)
        defer { store.close() }
        #expect(try Self.reportProblems(store).isEmpty)
        #expect(try store.verify().isClean)
        // A comparison of a build with itself names its sessions twice.
        let twice = try store.sessionIDs(release: "2.4", through: nil) + store.sessionIDs(release: "2.4", through: nil)
        #expect(try store.verifier().verify(sessions: twice, release: "2.4", depth: .cited).problems.isEmpty)
    }

    /// A skipped or blocked result's outcomes say whether a failure stands behind it (in the
    /// report, its build history and a comparison), whichever attempt it is: they are
    /// compared with its record, an earlier attempt's too.
    @Test(arguments: TestEngine.available, [
        "UPDATE outcome_answers SET verdict = 'na' WHERE verdict = 'fail' AND result_id IN (SELECT id FROM results WHERE attempt = 1)",
        "DELETE FROM outcome_answers WHERE verdict = 'fail' AND result_id IN (SELECT id FROM results WHERE attempt = 1)",
        "UPDATE outcome_answers SET verdict = 'fail' WHERE result_id IN (SELECT id FROM results WHERE attempt = 2)",
    ])
    func aReportComparesTheOutcomesOfEverySetAsideResult(engine: TestEngine, sql: String) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        try Self.twoAttempts(at: database.address, verdict: .skipped)
        let store = try ResultStore(path: database.address, access: .existingOnly)
        defer { store.close() }
        #expect(try Self.reportProblems(store).isEmpty, "honest skips are not edits")
        try database.tamper(sql)
        let cited = try store.verifier().verify(sessions: try store.sessionIDs(release: "2.4", through: nil), release: "2.4", depth: .cited)
        #expect(cited.problems.contains { $0.message.contains("an expected outcome differs") }, "\(sql): \(cited.problems)")
    }

    /// A session moved out of the release, or deleted from under its results, would take its
    /// failure out of the report while every chain the report cites stays whole: the report
    /// compares every other session with the hash its first record was chained to, and looks
    /// for records and results left without a session: on a server, its table owner drops the
    /// foreign keys and puts them back NOT VALID (a report passed the gate so). Sessions of
    /// other releases, and a walk not answered yet, are not taken for edits.
    @Test(arguments: TestEngine.available, [
        "UPDATE sessions SET release = '2.3' WHERE build = '312'",
        "UPDATE sessions SET device = 'iPad', build = '1' WHERE build = '312'",
        "DELETE FROM sessions WHERE build = '312'",
        "UPDATE sessions SET release = '2.3' WHERE build = '312'; DELETE FROM records WHERE sequence = 1 AND session_id IN (SELECT id FROM sessions WHERE build = '312')",
        "DELETE FROM records WHERE session_id IN (SELECT id FROM sessions WHERE build = '312'); UPDATE sessions SET release = '2.3' WHERE build = '312'",
    ])
    func aReportNamesASessionMovedOutOfItsScope(engine: TestEngine, sql: String) throws {
        let sql = engine != .sqlite && sql.hasPrefix("DELETE FROM sessions") ? Self.pastForeignKeys(sql) : sql
        let database = try TestDatabase(engine)
        defer { database.remove() }
        try Self.twoAttempts(at: database.address)
        let store = try ResultStore(path: database.address, access: .existingOnly)
        defer { store.close() }
        let moved = try Self.failingSession(build: "312", attempts: 2, in: store)
        try store.insert(Session(release: "2.3", build: "1", device: "iPhone", tester: "Ana", plan: ["p/c"], startedAt: Date(timeIntervalSince1970: 1_800_002_000)))
        #expect(try Self.reportProblems(store).isEmpty, "another release's session, and a walk not answered yet, are not edits")
        try database.tamper(sql)
        let cited = try store.verifier().verify(sessions: try store.sessionIDs(release: "2.4", through: "311"), release: "2.4", depth: .cited)
        #expect(cited.problems.contains { $0.session == moved.id }, "\(sql): \(cited.problems)")
    }

    /// `sql` run on a server with the foreign keys to sessions dropped, then put back unchecked.
    static func pastForeignKeys(_ sql: String) -> String {
        let keys = ["results", "records"]
        return keys.map { "ALTER TABLE \($0) DROP CONSTRAINT \($0)_session_id_fkey; " }.joined() + sql + "; "
            + keys.map { "ALTER TABLE \($0) ADD CONSTRAINT \($0)_session_id_fkey FOREIGN KEY (session_id) REFERENCES sessions (id) NOT VALID; " }.joined()
    }

    /// Moving a session out with its first record's link rewritten to the edited details (one
    /// statement more, no hash to compute but the session's) is named too: the first record's
    /// own hash no longer matches.
    @Test(arguments: TestEngine.available)
    func aSessionMovedWithItsFirstLinkRewrittenIsNamed(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        try Self.twoAttempts(at: database.address)
        let store = try ResultStore(path: database.address, access: .existingOnly)
        defer { store.close() }
        let moved = try Self.failingSession(build: "312", attempts: 1, in: store)
        var relabelled = moved
        relabelled.release = "2.3"
        try database.tamper("UPDATE sessions SET release = '2.3' WHERE build = '312'; UPDATE records SET previous_hash = '\(relabelled.digest)' WHERE sequence = 1 AND session_id IN (SELECT id FROM sessions WHERE build = '312')")
        let cited = try store.verifier().verify(sessions: try store.sessionIDs(release: "2.4", through: nil), release: "2.4", depth: .cited)
        #expect(cited.problems.contains { $0.session == moved.id }, "\(cited.problems)")
    }

    /// A session of release 2.4 whose attempts at p/c all failed: the one an edit would move out.
    static func failingSession(build: String, attempts: Int, in store: ResultStore) throws -> Session {
        let session = Session(release: "2.4", build: build, device: "iPhone", tester: "Ana", plan: ["p/c"], startedAt: Date(timeIntervalSince1970: 1_800_001_000))
        try store.insert(session)
        for attempt in 1...attempts {
            var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: attempt, outcomeCount: 2,
                                     startedAt: Date(timeIntervalSince1970: 1_800_001_000 + Double(attempt)))
            result.outcomes = [OutcomeAnswer(.fail, note: "missed", answeredAt: Date(timeIntervalSince1970: 1_800_001_010))]
            result.verdict = .fail
            try store.save(result)
        }
        return session
    }

    /// The problems a report of release 2.4 would state.
    static func reportProblems(_ store: ResultStore) throws -> [VerificationProblem] {
        let cited = try store.verifier().verify(sessions: try store.sessionIDs(release: "2.4", through: nil), release: "2.4", depth: .cited)
        let shown = try store.forEachLatestResult(release: "2.4", build: nil, countFailures: { .none }) { _ in }
        return cited.problems + shown + cited.fileProblems.map { VerificationProblem(session: UUID(), sequence: nil, message: $0) }
    }

    /// Two attempts at one check in one build, each with every part; the second is the latest.
    static func twoAttempts(at path: String, verdict: Verdict = .fail) throws {
        let store = try ResultStore(path: path)
        defer { store.close() }
        let session = Session(release: "2.4", build: "311", device: "iPhone", tester: "Ana", plan: ["p/c"], startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try store.insert(session)
        for attempt in 1...2 {
            let start = 1_800_000_000 + Double(attempt) * 100
            var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: attempt, outcomeCount: 2,
                                     startedAt: Date(timeIntervalSince1970: start))
            result.stopwatch = [StopwatchEvent(.start, at: 0, recordedAt: Date(timeIntervalSince1970: start + 1)),
                                StopwatchEvent(.stop, at: 40.5, recordedAt: Date(timeIntervalSince1970: start + 41))]
            result.outcomes = [OutcomeAnswer(.pass, value: 10, answeredAt: Date(timeIntervalSince1970: start + 42)),
                               OutcomeAnswer(.fail, note: "Delete fired", answeredAt: Date(timeIntervalSince1970: start + 43))]
            result.counters = ["hits": CounterValue(10, answeredAt: Date(timeIntervalSince1970: start + 44))]
            result.verdict = verdict
            result.updatedAt = Date(timeIntervalSince1970: start + 45)
            try store.save(result)
        }
    }
}
