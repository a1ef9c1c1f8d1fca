import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A report of one build (`--build B`) rests on the builds before it too: a failure there stands
/// until its check is tested again on the same device and OS version. Before, a gate on the
/// newest build passed while the whole release's report failed, when the build did not test
/// where the failure was; and the earlier builds it read were never verified.
@Suite struct PerBuildReportTests {
    let protocols = Repository.path("protocols")
    let check = "tiny-target/voice-control-show-numbers"

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    func record(_ folder: TemporaryFolder, build: String, device: String, _ answer: [String]) throws {
        let recorded = try checkrun(["record", "--release", "2.4", "--build", build, "--check", check, "--device", device] + answer, in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    @Test func aFailureWhereTheBuildDidNotTestStandsInItsReport() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", device: "iPad Air", ["--expected", "1=fail", "--notes", "numbers overlap"])
        try record(folder, build: "310", device: "iPhone SE", ["--expected", "1=pass"])
        try record(folder, build: "311", device: "iPhone 15", ["--expected", "1=pass"])
        let whole = try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder)
        #expect(whole.status == 3, "\(whole.stdout)")
        for format in ["markdown", "json", "csv", "junit", "openacr", "html"] {
            let gate = try checkrun(["report", "--release", "2.4", "--build", "311", "--format", format, "--fail-on-failure"], in: folder)
            #expect(gate.status == 3, "\(format): \(gate.stdout)\(gate.stderr)")
            #expect(gate.stdout.contains("numbers overlap"), "\(format): \(gate.stdout)")
            // A pass of an earlier build is no evidence for this one: it is not carried.
            #expect(!gate.stdout.contains("iPhone SE"), "\(format): \(gate.stdout)")
        }
        let markdown = try checkrun(["report", "--release", "2.4", "--build", "311"], in: folder)
        #expect(markdown.stdout.contains("fails on iPad Air (build 310): numbers overlap"), "\(markdown.stdout)")
        // The header names the device the carried failure was found on, not the build's own alone.
        #expect(markdown.stdout.contains("- Devices: iPad Air; iPhone 15"), "\(markdown.stdout)")
        // Tested again there, and passed: the failure no longer stands.
        try record(folder, build: "311", device: "iPad Air", ["--expected", "1=pass"])
        #expect(try checkrun(["report", "--release", "2.4", "--build", "311", "--fail-on-failure"], in: folder).status == 0)
        // A report of the earlier build is not changed by a later one.
        #expect(try checkrun(["report", "--release", "2.4", "--build", "310", "--fail-on-failure"], in: folder).status == 3)
    }

    /// The failure behind a skip in build 311 is read from build 310: an edit there must stop
    /// the report of 311 as it stops the release's, and the report pins 310's session too.
    @Test func aReportOfOneBuildVerifiesAndPinsTheBuildsBeforeIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", device: "iPhone 15", ["--expected", "1=fail", "--notes", "numbers overlap"])
        try record(folder, build: "311", device: "iPhone 15", ["--verdict", "skipped"])
        let kept = try checkrun(["report", "--release", "2.4", "--build", "311", "--format", "json", "--out", "r.json"], in: folder)
        #expect(kept.status == 0, "\(kept.stderr)")
        let copy = folder.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: folder.path("checkrun.sqlite"), toPath: copy)
        try Self.tamper(folder.path("checkrun.sqlite"), "UPDATE results SET verdict = 'pass' WHERE session_id IN (SELECT id FROM sessions WHERE build = '310')")
        let gate = try checkrun(["report", "--release", "2.4", "--build", "311", "--fail-on-failure"], in: folder)
        #expect(gate.status == 1 && gate.stdout.isEmpty, "\(gate.stdout)")
        #expect(gate.stderr.contains("verdict fail recorded, pass in the table"), "\(gate.stderr)")
        try Self.tamper(copy, "DELETE FROM outcome_answers; DELETE FROM results; DELETE FROM records WHERE session_id IN (SELECT id FROM sessions WHERE build = '310'); DELETE FROM sessions WHERE build = '310'")
        let pinned = try checkrun(["verify", "--db", copy, "--against", "r.json"], in: folder)
        #expect(pinned.status == 1 && pinned.stdout.contains("the report pins this session with 1 records, and it is missing"), "\(pinned.stdout)\(pinned.stderr)")
    }

    /// Runs `sql` on the file as the sqlite3 shell would: without checkrun's foreign-key checks.
    static func tamper(_ path: String, _ sql: String) throws {
        let raw = try Database(path: path)
        try raw.execute(sql)
        raw.close()
    }

    /// The version a label starts with decides first: 2.4.1 (312) is newer than 2.4 (311), so its
    /// failure is the check's latest result and trips the gate. (Ranking a dot before a space,
    /// one build of the team's own order once put 2.4.1 (312) first, and the gate passed.)
    @Test func aLongerVersionIsTheNewerBuildWhateverFollowsIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "2.4 (311)", device: "iPhone 15", ["--expected", "1=pass"])
        try record(folder, build: "2.4.1 (312)", device: "iPhone 15", ["--expected", "1=fail", "--notes", "numbers overlap again"])
        try record(folder, build: "2.4.1-hotfix", device: "iPhone 15", ["--expected", "1=fail", "--notes", "numbers overlap again"])
        let report = try JSONParser.parse(try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder).stdout)
        #expect(report["builds"]?.arrayValue?.compactMap(\.stringValue) == ["2.4 (311)", "2.4.1 (312)", "2.4.1-hotfix"])
        #expect(try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder).status == 3)
        let compared = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(compared.status == 3 && compared.stdout.contains("2.4 (311) → 2.4.1 (312): REGRESSION (verdict pass → fail)"), "\(compared.stdout)")
    }
}
