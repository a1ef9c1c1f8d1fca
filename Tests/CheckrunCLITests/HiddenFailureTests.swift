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
