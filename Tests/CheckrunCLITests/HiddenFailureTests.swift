import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Edits that would take a failure out of a report or a comparison without touching a chain
/// it cites: a session moved out of the release or deleted from under its results, an outcome
/// of a skip edited away, a pass's outcomes made to read as a fix. Each is named, nothing is
/// written, and the gate exits 1, never 0.
@Suite struct HiddenFailureTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    func tamper(_ folder: TemporaryFolder, _ sql: String) throws {
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute(sql)
        raw.close()
    }

    func record(_ folder: TemporaryFolder, build: String, _ answers: [String]) throws {
        let recorded = try checkrun(["record", "--release", "2.4", "--build", build, "--device", "A", "--check", "over-grouped-control/voiceover"] + answers, in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    @Test(arguments: [
        "UPDATE sessions SET release = '2.3' WHERE build = '311'",
        "UPDATE sessions SET build = '309' WHERE build = '311'",
        "PRAGMA foreign_keys = OFF; DELETE FROM sessions WHERE build = '311'",
        // The same text stored as bytes: SQL compares a BLOB with no text, so the session left
        // every `release = ?` while it read, and hashed, as the text it was (verify passed).
        "UPDATE sessions SET release = CAST(release AS BLOB) WHERE build = '311'",
        "UPDATE sessions SET build = CAST(build AS BLOB) WHERE build = '311'",
        "UPDATE sessions SET device = CAST(device AS BLOB) WHERE build = '311'",
    ])
    func aSessionMovedOutOrDeletedIsNamed(sql: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", ["--verdict", "pass", "--expected", "1=pass", "--expected", "2=pass", "--expected", "3=pass", "--expected", "4=pass", "--expected", "5=pass"])
        try record(folder, build: "311", ["--verdict", "fail", "--expected", "1=fail", "--notes", "read as three stops"])
        try record(folder, build: "312", ["--verdict", "pass", "--expected", "1=pass", "--expected", "2=pass", "--expected", "3=pass", "--expected", "4=pass", "--expected", "5=pass"])
        try tamper(folder, sql)
        for command in [["report", "--release", "2.4", "--fail-on-failure"], ["report", "--release", "2.4", "--build", "310"], ["compare", "--release", "2.4", "--fail-on-regression"]] {
            let run = try checkrun(command, in: folder)
            #expect(run.status == 1 && run.stdout.isEmpty, "\(sql) \(command): \(run.status) \(run.stdout)")
            #expect(run.stderr.contains("the session's details") || run.stderr.contains("the session was deleted"), "\(run.stderr)")
        }
        #expect(try checkrun(["verify"], in: folder).status == 1, "\(sql)")
    }

    /// A trigger added by hand runs inside checkrun's own writes: one deleting every session
    /// whose record holds a failure let `record` say "Recorded … fail" of a session gone the
    /// moment it was saved, and `verify` pass. A file holding one is refused, and left as it is.
    @Test func aDatabaseHoldingATriggerIsRefusedUntouched() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", ["--verdict", "pass", "--expected", "1=pass", "--expected", "2=pass", "--expected", "3=pass", "--expected", "4=pass", "--expected", "5=pass"])
        try tamper(folder, "CREATE TRIGGER hide AFTER INSERT ON records WHEN NEW.payload LIKE '%\"fail\"%' BEGIN DELETE FROM sessions WHERE id = NEW.session_id; END")
        let recorded = try checkrun(["record", "--release", "2.4", "--build", "311", "--device", "A", "--check", "over-grouped-control/voiceover",
                                     "--verdict", "fail", "--expected", "1=fail", "--notes", "read as three stops"], in: folder)
        #expect(recorded.status == 1 && recorded.stderr.contains("holds a trigger checkrun never creates (hide, on records)"), "\(recorded.stderr)")
        #expect(!recorded.stdout.contains("Recorded"))
        for command in [["verify"], ["report", "--release", "2.4"]] {
            let run = try checkrun(command, in: folder)
            #expect(run.status == 1 && run.stderr.contains("holds a trigger checkrun never creates"), "\(command): \(run.stderr)")
        }
        // Its row's type edited: SQLite still runs it, and a look by type missed it.
        try tamper(folder, "PRAGMA writable_schema = ON; UPDATE sqlite_master SET type = 'Trigger' WHERE name = 'hide'")
        #expect(try checkrun(["verify"], in: folder).stderr.contains("holds a trigger checkrun never creates (hide, on records)"))
    }

    /// An export carries the records only: with the lead's amendment to fail deleted from the
    /// end of its chain, the export was written without a word and merged clean into a store
    /// that reported the pass. The database is verified first, and nothing is written.
    @Test func anExportOfADatabaseThatFailsVerificationIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "311", ["--verdict", "pass", "--expected", "1=pass", "--expected", "2=pass", "--expected", "3=pass", "--expected", "4=pass", "--expected", "5=pass"])
        let amended = try checkrun(["amend", "--release", "2.4", "--build", "311", "--check", "over-grouped-control/voiceover", "--expected", "1=fail",
                                    "--notes", "read as three stops", "--reason", "seen on the recording"], in: folder)
        #expect(amended.status == 0, "\(amended.stderr)")
        try tamper(folder, "DELETE FROM records WHERE kind = 'amend'")
        let exported = try checkrun(["export", "--out", "ana.json"], in: folder)
        #expect(exported.status == 1 && exported.stderr.contains("fails verification") && exported.stderr.contains("nothing was exported"), "\(exported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("ana.json")))
    }

    /// `merge` verified each session of a database it reads, but not that none was deleted:
    /// a failed session deleted from under its records merged without a word, and the team's
    /// report, which then verified, said pass. A source is verified as `verify` verifies it.
    @Test func aMergeOfADatabaseWithAFailedSessionDeletedIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "311", ["--verdict", "fail", "--expected", "1=fail", "--notes", "read as three stops"])
        try record(folder, build: "312", ["--verdict", "pass", "--expected", "1=pass", "--expected", "2=pass", "--expected", "3=pass", "--expected", "4=pass", "--expected", "5=pass"])
        try tamper(folder, "PRAGMA foreign_keys = OFF; DELETE FROM sessions WHERE build = '311'")
        let merged = try checkrun(["merge", "checkrun.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(merged.status == 1 && merged.stderr.contains("fails verification (session ") && merged.stderr.contains("the session was deleted, but its records remain"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("team.sqlite")))
    }

    /// A report names an unfinished attempt's failed answer ("resume session … to give its
    /// result"): edited to a pass in the tables, the line went and the report still called
    /// itself verified. The outcomes of unfinished results are compared with their records.
    @Test func anUnfinishedAttemptsFailedAnswerEditedAwayIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", ["--verdict", "pass", "--expected", "1=pass", "--expected", "2=pass", "--expected", "3=pass", "--expected", "4=pass", "--expected", "5=pass"])
        let walked = try Checkrun.run(["run", "--release", "2.4", "--build", "311", "--device", "A", "--tester", "Ana", "--check", "over-grouped-control/voiceover",
                                       "--protocols", protocols], in: folder.path, input: "t 5\nf read as three stops\n")
        #expect(walked.status == 1, "ended by the end of input: \(walked.stdout)")
        #expect(try checkrun(["report", "--release", "2.4"], in: folder).stdout.contains("holds a failed answer but is not finished"))
        try tamper(folder, "UPDATE outcome_answers SET verdict = 'pass', note = NULL")
        let report = try checkrun(["report", "--release", "2.4"], in: folder)
        #expect(report.status == 1 && report.stdout.isEmpty && report.stderr.contains("the results table differs from the record"), "\(report.stderr)")
    }

    /// Whether a session is finished is kept beside its chain, not in it: marked finished by
    /// hand, an unfinished attempt's failed answer would leave every report. Each reader of
    /// the chain names it instead: the report, `verify`, and a merge of an export so edited.
    @Test func aSessionMarkedFinishedByHandIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "2.4", "--build", "310", "--device", "A", "--check", "tiny-target/voice-control-show-numbers", "--expected", "1=pass"],
                             in: folder).status == 0)
        let walked = try Checkrun.run(["run", "--release", "2.4", "--build", "311", "--device", "A", "--check", "tiny-target/voice-control-show-numbers",
                                       "--protocols", protocols], in: folder.path, input: "t 30\nf numbers overlap\nq\n")
        #expect(walked.stdout.contains("Saved, 1 check left."), "\(walked.stdout)\(walked.stderr)")
        #expect(try checkrun(["export", "--out", "walk.json"], in: folder).status == 0)
        try tamper(folder, "UPDATE sessions SET finished_at = started_at + 60")
        let said = "is marked finished but tiny-target/voice-control-show-numbers has no result yet: it was marked finished behind checkrun's back"
        for command in [["report", "--release", "2.4", "--fail-on-failure"], ["verify"]] {
            let run = try checkrun(command, in: folder)
            #expect(run.status == 1 && (run.stdout + run.stderr).contains(said), "\(command): \(run.status) \(run.stdout) \(run.stderr)")
        }
        let export = try String(contentsOfFile: folder.path("walk.json"), encoding: .utf8)
        #expect(export.contains("\"finishedAt\":null"))
        try export.replacingOccurrences(of: "\"finishedAt\":null", with: "\"finishedAt\":1900000000").write(toFile: folder.path("edited.json"), atomically: true, encoding: .utf8)
        let merged = try checkrun(["merge", "edited.json", "--db", "other.sqlite"], in: folder)
        #expect(merged.status == 1 && merged.stderr.contains(said + "; nothing was merged"), "\(merged.stderr)")
    }

    @Test(arguments: [
        // A skip holding a failure, its failed outcome edited to not applicable: "fixed".
        ("--verdict skipped --expected 1=fail --notes x", "UPDATE outcome_answers SET verdict = 'na' WHERE verdict = 'fail'"),
        // A pass of outcomes all not applicable, edited to passes: "fixed", not "changed".
        ("--verdict pass --expected 1=na --expected 2=na --expected 3=na --expected 4=na --expected 5=na",
         "UPDATE outcome_answers SET verdict = 'pass' WHERE verdict = 'na'"),
    ])
    func anOutcomeACompareReadsIsCompared(later: String, sql: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", ["--verdict", "fail", "--expected", "1=fail", "--notes", "read as three stops"])
        try record(folder, build: "311", later.split(separator: " ").map(String.init))
        #expect(try checkrun(["compare", "--release", "2.4"], in: folder).status == 0)
        try tamper(folder, sql)
        let compared = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(compared.status == 1 && compared.stderr.contains("an expected outcome differs"), "\(compared.stdout) \(compared.stderr)")
        let reported = try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder)
        #expect(reported.status == 1 && reported.stderr.contains("an expected outcome differs"), "\(reported.stderr)")
    }
}
