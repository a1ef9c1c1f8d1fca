import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Every stored value a report, a comparison, a gate or a listing reads, edited behind
/// checkrun's back, one at a time: `verify` must name each.
@Suite struct TamperTests {
    /// A database with one amended result that has every part: outcomes, a counter, timings, notes.
    static func original(at path: String) throws {
        let store = try ResultStore(path: path)
        let session = Session(release: "2.4", build: "311", device: "iPhone", tester: "Ana", plan: ["p/c"], startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try store.insert(session)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 2,
                                 startedAt: Date(timeIntervalSince1970: 1_800_000_001))
        result.stopwatch = [StopwatchEvent(.start, at: 0, recordedAt: Date(timeIntervalSince1970: 1_800_000_002)),
                            StopwatchEvent(.stop, at: 40.5, recordedAt: Date(timeIntervalSince1970: 1_800_000_043))]
        result.outcomes = [OutcomeAnswer(.pass, value: 10, answeredAt: Date(timeIntervalSince1970: 1_800_000_044)),
                           OutcomeAnswer(.fail, note: "Delete fired", answeredAt: Date(timeIntervalSince1970: 1_800_000_045))]
        result.counters = ["hits": CounterValue(10, answeredAt: Date(timeIntervalSince1970: 1_800_000_046))]
        result.tally = 3
        result.notes = "once"
        result.notesAnsweredAt = Date(timeIntervalSince1970: 1_800_000_047)
        result.verdict = .fail
        result.updatedAt = Date(timeIntervalSince1970: 1_800_000_048)
        try store.save(result)
        result.notes = "corrig\u{E9}"
        result.updatedAt = Date(timeIntervalSince1970: 1_800_000_100)
        try store.amend(result, reason: "typ\u{E9}", at: Date(timeIntervalSince1970: 1_800_000_100))
        #expect(try store.verify().isClean)
        store.close()
    }

    static let edits: [String] = [
        "UPDATE results SET verdict = 'pass'",
        "UPDATE results SET blocked_reason = 'x'",
        "UPDATE results SET active_seconds = 4",
        "UPDATE results SET tally = 0",
        "UPDATE results SET notes = 'other'",
        "UPDATE results SET notes_answered_at = notes_answered_at + 1",
        "UPDATE results SET started_at = started_at - 1",
        "UPDATE results SET updated_at = updated_at + 1000",
        "UPDATE results SET attempt = 2",
        "UPDATE results SET check_name = 'p/other'",
        "UPDATE results SET protocol_hash = 'other'",
        "UPDATE results SET amendments = 0",
        "UPDATE results SET amend_reason = 'other'",
        "UPDATE outcome_answers SET verdict = 'pass' WHERE position = 1",
        "UPDATE outcome_answers SET value = 9 WHERE position = 0",
        "UPDATE outcome_answers SET note = 'other' WHERE position = 1",
        "UPDATE outcome_answers SET answered_at = answered_at + 1 WHERE position = 0",
        "DELETE FROM outcome_answers WHERE position = 1",
        "UPDATE counter_values SET value = 11",
        "UPDATE counter_values SET answered_at = answered_at + 1",
        "DELETE FROM counter_values",
        "UPDATE stopwatch_events SET at = 80 WHERE kind = 'stop'",
        "UPDATE stopwatch_events SET kind = 'pause' WHERE kind = 'stop'",
        "UPDATE stopwatch_events SET recorded_at = recorded_at + 1",
        "UPDATE stopwatch_events SET typed_seconds = 5",
        "UPDATE records SET result_id = '01234567-89AB-7DEF-8123-456789ABCDEF' WHERE sequence = 1",
        "UPDATE records SET payload = replace(payload, 'corrig\u{E9}', 'changed') WHERE sequence = 2",
        // The first record, which the amendment supersedes: no longer the result's latest, it
        // is checked by its hash and link alone.
        "UPDATE records SET payload = replace(payload, '\"once\"', '\"twice\"') WHERE sequence = 1",
        "UPDATE records SET hash = previous_hash WHERE sequence = 1",
        "UPDATE records SET previous_hash = hash WHERE sequence = 1",
        "UPDATE records SET kind = 'amend' WHERE sequence = 1",
        "UPDATE records SET reason = 'x' WHERE sequence = 1",
        "UPDATE records SET sequence = 3 WHERE sequence = 1",
        // The same letters in other bytes (e and a combining accent): Swift's == calls them equal.
        "UPDATE results SET notes = 'corrige\u{301}'",
        "UPDATE results SET amend_reason = 'type\u{301}'",
        // Parts in another order, and at a place no check has.
        "UPDATE stopwatch_events SET sequence = sequence + 10; UPDATE stopwatch_events SET sequence = 11 - sequence",
        "UPDATE outcome_answers SET position = 9000000000000 WHERE position = 1",
        "INSERT INTO outcome_answers SELECT result_id, 10000, verdict, value, note, answered_at FROM outcome_answers WHERE position = 0",
        // A result's id that is no id at all: reading leaves the row out, and verify says why.
        "UPDATE results SET id = 'garbage'",
        "UPDATE records SET result_id = 'garbage' WHERE sequence = 2",
        "UPDATE sessions SET tester = 'Mallory'",
        "UPDATE sessions SET device = 'iPad'",
        "UPDATE sessions SET build = '312'",
        "UPDATE sessions SET started_at = started_at + 1",
        "UPDATE sessions SET finished_at = 1 WHERE false; INSERT INTO sessions (id, release, build, device, tester, plan, started_at, finished_at) VALUES ('11111111-1111-4111-8111-111111111111', '2.4', '311', 'Forged', 'Mallory', '[]', 0, 1)",
        "DELETE FROM results",
        // A whole session deleted with its records, its results left behind.
        "DELETE FROM records; DELETE FROM sessions",
    ]

    /// SQLite lets any column hold text, and reads text as 0 where a number is asked for: a
    /// place edited into text must be named, not read as the first place.
    static let sqliteTypeEdits: [String] = [
        "UPDATE stopwatch_events SET sequence = 'z' WHERE kind = 'start'",
        "UPDATE stopwatch_events SET sequence = 0.5 WHERE kind = 'stop'",
        "UPDATE outcome_answers SET position = 'z' WHERE position = 0",
    ]

    /// A number edited into text that begins with the same number: SQLite reads '10,m=100' as
    /// 10 where a number is asked for, and a build history reads the counters as text.
    static let sqliteNumberEdits: [String] = [
        "UPDATE counter_values SET value = '10,m=100'",
        "UPDATE outcome_answers SET value = '10 apples' WHERE position = 0",
        "UPDATE results SET tally = '3 apples'",
        "UPDATE results SET attempt = '1 x'",
    ]

    /// An edited reason was reported as "the results table shows 1 amendments, the records 1".
    @Test func anEditedAmendmentIsNamedForWhatWasEdited() throws {
        let reason = try Self.verified(after: "UPDATE results SET amend_reason = 'other'", on: .sqlite)
        #expect(reason.problems.contains { $0.message.contains("the results table shows another reason for its amendment than the records") }, "\(reason.problems)")
        let count = try Self.verified(after: "UPDATE results SET amendments = 0", on: .sqlite)
        #expect(count.problems.contains { $0.message.contains("the results table shows 0 amendments, the records 1") }, "\(count.problems)")
    }

    @Test(arguments: sqliteNumberEdits)
    func verifyNamesANumberEditedIntoText(sql: String) throws {
        let report = try Self.verified(after: sql, on: .sqlite)
        #expect(report.problems.contains { $0.message.contains("the results table differs from the record") }, "\(report.problems)")
        #expect(!report.isClean)
    }

    @Test(arguments: sqliteTypeEdits)
    func verifyNamesAPlaceEditedIntoText(sql: String) throws {
        let report = try Self.verified(after: sql, on: .sqlite)
        #expect(report.fileProblems.contains { $0.contains("which checkrun never writes") }, "\(report.fileProblems)")
        #expect(!report.isClean)
    }

    /// A session row with no id at all, beside results filed under another spelling of a real
    /// session's id: neither hides the other (SQLite lets a text key be NULL).
    @Test func aSessionWithoutAnIdHidesNoLeftovers() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        try Self.original(at: database.address)
        try database.tamper("""
            INSERT INTO sessions (id, release, build, plan, started_at) VALUES (NULL, 'r', 'b', '[]', 0);
            INSERT INTO results (id, session_id, check_name, protocol_hash, attempt, started_at, updated_at)
                SELECT '11111111-1111-4111-8111-111111111111', lower(session_id), check_name, protocol_hash, attempt, started_at, updated_at FROM results LIMIT 1;
            """)
        let report = try ResultStore(path: database.address, access: .existingOnly).verify()
        #expect(report.fileProblems.contains { $0.hasPrefix("sessions.id holds NULL") }, "\(report.fileProblems)")
        #expect(report.problems.contains { $0.message.contains("results name the session") }, "\(report.problems)")
    }

    /// A copy of a result under its id in lower case reads as the same id: the copy is named,
    /// and the genuine row, which its records match, is not called unrecorded.
    @Test(arguments: TestEngine.available)
    func aCopyOfAResultUnderItsIdInLowerCaseIsNamedAndTheGenuineRowStands(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        try Self.original(at: database.address)
        try database.tamper("""
            INSERT INTO results (id, session_id, check_name, protocol_hash, attempt, verdict, started_at, updated_at)
                SELECT lower(id), session_id, check_name, protocol_hash, attempt + 1, verdict, started_at, updated_at FROM results
            """)
        let report = try ResultStore(path: database.address, access: .existingOnly).verify()
        let messages = report.problems.map(\.message)
        #expect(messages.contains { $0.contains("a result's id is") }, "\(messages)")
        #expect(messages.contains { $0.contains("the results table differs from the record") }, "\(messages)")
        #expect(!messages.contains { $0.contains("never recorded") }, "\(messages)")
    }

    @Test(arguments: TestEngine.available, edits)
    func verifyNamesTheEdit(engine: TestEngine, sql: String) throws {
        let report = try Self.verified(after: sql, on: engine)
        #expect(!report.isClean, "verify missed: \(sql)")
    }

    /// What `verify` says of the original database once `sql` has run on it behind checkrun's back.
    static func verified(after sql: String, on engine: TestEngine) throws -> VerificationReport {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        try original(at: database.address)
        try database.tamper(sql)
        let store = try ResultStore(path: database.address, access: .existingOnly)
        defer { store.close() }
        return try store.verify()
    }
}
