import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// What only a kept report can show: sessions deleted whole, chains cut short, records
/// rewritten with recomputed hashes; and a digest that changes with what the report shows.
@Suite struct VerifyAgainstTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    /// Two sessions, the first with a failed check, and the JSON report kept from them.
    func recorded(_ folder: TemporaryFolder) throws -> [String] {
        for (check, verdict) in [("tiny-target/touch-one-hand", "fail"), ("tiny-target/voice-control-show-numbers", "pass")] {
            let result = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", check, "--verdict", verdict]
                                      + (verdict == "fail" ? ["--notes", "Delete fired"] : []), in: folder)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try checkrun(["report", "--release", "2.4", "--format", "json", "--out", "kept.json"], in: folder).status == 0)
        #expect(try checkrun(["verify", "--against", "kept.json"], in: folder).status == 0)
        let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
        return try store.database.query("SELECT id FROM sessions ORDER BY started_at") { $0.string(0) ?? "" }
    }

    func tamper(_ folder: TemporaryFolder, _ sql: String, _ values: [SQLValue] = []) throws {
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.run("PRAGMA foreign_keys = OFF")
        for statement in sql.split(separator: ";") { try raw.run(String(statement), values) }
        raw.close()
    }

    @Test func aSessionDeletedWholeIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sessions = try recorded(folder)
        let id = sessions[0]
        try tamper(folder, "DELETE FROM outcome_answers WHERE result_id IN (SELECT id FROM results WHERE session_id = ?1); DELETE FROM counter_values WHERE result_id IN (SELECT id FROM results WHERE session_id = ?1); DELETE FROM stopwatch_events WHERE result_id IN (SELECT id FROM results WHERE session_id = ?1); DELETE FROM results WHERE session_id = ?1; DELETE FROM records WHERE session_id = ?1; DELETE FROM sessions WHERE id = ?1", [.text(id)])
        #expect(try checkrun(["verify"], in: folder).status == 0, "a chain alone cannot see it")
        let against = try checkrun(["verify", "--against", "kept.json"], in: folder)
        #expect(against.status == 1)
        #expect(against.stdout.contains("session \(id.lowercased().prefix(8)): the report pins this session with 1 records, and it is missing"), "\(against.stdout)")
    }

    @Test func aChainCutShortAndARewrittenRecordAreNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sessions = try recorded(folder)
        // The failing session's record replaced by a forged passing one with a recomputed hash.
        let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
        let sessionID = try #require(UUID(uuidString: sessions[0]))
        let session = try #require(try store.session(id: sessionID))
        var forged = try #require(try store.results(inSession: session.id).first)
        store.sqlite!.close()
        forged.verdict = .pass
        forged.notes = nil
        let record = Record(sessionID: session.id, sequence: 1, resultID: forged.id, kind: .answer, reason: nil, payload: forged.payload,
                            recordedAt: Date(), previousHash: session.digest)
        try tamper(folder, "UPDATE records SET payload = ?1, hash = ?2 WHERE session_id = ?3; UPDATE results SET verdict = 'pass', notes = NULL WHERE session_id = ?3",
                   [.text(record.payload), .text(record.hash), .text(sessions[0])])
        #expect(try checkrun(["verify"], in: folder).status == 0, "recomputed hashes pass a chain check")
        var against = try checkrun(["verify", "--against", "kept.json"], in: folder)
        #expect(against.status == 1)
        #expect(against.stdout.contains("record 1 no longer has the hash the report pinned"), "\(against.stdout)")
        // The other session's only record cut off.
        try tamper(folder, "DELETE FROM records WHERE session_id = ?1", [.text(sessions[1])])
        against = try checkrun(["verify", "--against", "kept.json"], in: folder)
        #expect(against.stdout.contains("the report pins 1 records and 0 remain"), "\(against.stdout)")
    }

    /// Records added after the report are no problem, yet an amendment among them can change
    /// a verdict the kept report states: `verify --against` names them, session by session.
    @Test func recordsAddedSinceThePinAreNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sessions = try recorded(folder)
        let amended = try checkrun(["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
                                    "--reason", "retested"], in: folder)
        #expect(amended.status == 0, "\(amended.stderr)")
        let against = try checkrun(["verify", "--against", "kept.json"], in: folder)
        #expect(against.status == 0, "appending is no problem: \(against.stdout)")
        #expect(against.stdout.contains("Since kept.json was written, 1 record was added to 1 session it pins; a report made now rests on it too:\n"
            + "  session \(sessions[0].lowercased().prefix(8)): record 2 (1 amendment)"), "\(against.stdout)")
    }

    @Test func theDigestChangesWithTheVerdictsShown() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sessions = try recorded(folder)
        let before = try JSONParser.parse(try String(contentsOfFile: folder.path("kept.json"), encoding: .utf8))["evidence"]?["digest"]?.stringValue
        try tamper(folder, "UPDATE results SET verdict = CASE verdict WHEN 'pass' THEN 'fail' ELSE 'pass' END")
        _ = sessions
        let after = try checkrun(["report", "--release", "2.4", "--format", "json", "--unverified"], in: folder)
        let digest = try JSONParser.parse(after.stdout)["evidence"]?["digest"]?.stringValue
        #expect(digest != nil && digest != before, "two verdicts swapped give another digest")
    }

    @Test func reportsAndComparisonsRefuseTamperedEvidenceUnlessToldToWriteItMarked() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try recorded(folder)
        #expect(try checkrun(["record", "--release", "2.4", "--build", "312", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"], in: folder).status == 0)
        try tamper(folder, "UPDATE results SET verdict = 'pass' WHERE verdict = 'fail'")
        for command in [["report", "--release", "2.4", "--out", "r.md"], ["compare", "--release", "2.4", "--out", "c.txt"]] {
            let refused = try checkrun(command, in: folder)
            #expect(refused.status == 1, "\(command)")
            #expect(refused.stderr.contains("the results table differs from the record (verdict fail recorded, pass in the table)"), "\(refused.stderr)")
            #expect(refused.stderr.contains("nothing was written"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("r.md")) && !FileManager.default.fileExists(atPath: folder.path("c.txt")))
        for format in ["markdown", "html", "csv", "junit", "openacr"] {
            let written = try checkrun(["report", "--release", "2.4", "--format", format, "--unverified"], in: folder)
            #expect(written.status == 0)
            let top = written.stdout.split(separator: "\n").prefix(format == "html" ? 40 : 3).joined(separator: "\n")
            #expect(top.contains("UNVERIFIED: 1 problem"), "\(format): \(top)")
        }
        let json = try JSONParser.parse(try checkrun(["report", "--release", "2.4", "--format", "json", "--unverified"], in: folder).stdout)
        #expect(json["verification"]?["verified"]?.value == .bool(false))
        #expect(json["verification"]?["message"]?.stringValue?.hasPrefix("UNVERIFIED: 1 problem") == true)
        for format in ["text", "markdown", "json", "csv"] {
            let compared = try checkrun(["compare", "--release", "2.4", "--format", format, "--unverified"], in: folder)
            #expect(compared.status == 0 && compared.stdout.prefix(400).contains("UNVERIFIED"), "\(format): \(compared.stdout.prefix(300))")
        }
    }
    /// A report compares the results it shows whole with their records; an edit to an outcome of
    /// an earlier attempt changes nothing it shows and is left to `verify`.
    @Test func aReportNamesAnEditToAnOutcomeItShowsAndVerifyToAnyOutcome() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for _ in 1...2 {
            let recorded = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "fail",
                                         "--expected", "1=fail", "--notes", "Delete fired"], in: folder)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let edit = "UPDATE outcome_answers SET verdict = 'pass' WHERE result_id = (SELECT id FROM results WHERE attempt = ?)"
        try tamper(folder, edit, [.integer(1)])
        #expect(try checkrun(["report", "--release", "2.4", "--out", "r.md"], in: folder).status == 0)
        let verified = try checkrun(["verify"], in: folder)
        #expect(verified.status == 1 && verified.stdout.contains("(an expected outcome differs)"), "\(verified.stdout)")
        try tamper(folder, edit, [.integer(2)])
        let refused = try checkrun(["report", "--release", "2.4", "--out", "again.md"], in: folder)
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stderr.contains("(an expected outcome differs); it was edited behind checkrun's back"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("again.md")))
    }
}
