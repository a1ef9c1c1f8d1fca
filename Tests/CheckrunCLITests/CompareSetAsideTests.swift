import CheckrunTestSupport
import Foundation
import Testing

/// A skip or block in a comparison, as in a report, stands in front of the failure before it.
/// Before, pass in 310, then fail and a skip in 311, read "changed", and `--fail-on-regression`
/// exited 0 while `report --build 311 --fail-on-failure` exited 3.
@Suite struct CompareSetAsideTests {
    let protocols = Repository.path("protocols")
    let check = "tiny-target/voice-control-show-numbers"

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    func record(_ folder: TemporaryFolder, build: String, os: String? = nil, _ answer: [String]) throws {
        let recorded = try checkrun(["record", "--release", "2.4", "--build", build, "--check", check, "--device", "iPhone 15"]
                                    + (os.map { ["--os", $0] } ?? []) + answer, in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    @Test func aFailureBehindASkipIsARegression() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", ["--expected", "1=pass"])
        try record(folder, build: "311", ["--expected", "1=fail", "--notes", "numbers overlap"])
        try record(folder, build: "311", ["--verdict", "skipped"])
        let compared = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(compared.status == 3 && compared.stdout.contains("310 → 311: REGRESSION (verdict pass → fail)"), "\(compared.stdout)")
        #expect(try checkrun(["report", "--release", "2.4", "--build", "311", "--fail-on-failure"], in: folder).status == 3, "the report agrees")
        // Blocked in a later build, compared with the first: the failure in between still stands.
        try record(folder, build: "312", ["--verdict", "blocked", "--reason", "the build would not start"])
        let skipping = try checkrun(["compare", "--release", "2.4", "--builds", "310,312", "--fail-on-regression", "--format", "json"], in: folder)
        #expect(skipping.status == 3, "\(skipping.stdout)")
        // Passed since: the skip before it stands in front of nothing.
        try record(folder, build: "313", ["--expected", "1=pass"])
        try record(folder, build: "314", ["--verdict", "skipped"])
        let fixed = try checkrun(["compare", "--release", "2.4", "--builds", "310,314", "--fail-on-regression"], in: folder)
        #expect(fixed.status == 0 && fixed.stdout.contains("skipped"), "\(fixed.stdout)")
    }

    /// The skip on 17.5, with a pass answered later on 18.2 of the same device: the comparison
    /// took the newest result of the device, the pass, and never saw the skip in front of the
    /// failure; the report of the build failed.
    @Test func aPassOnAnotherOSVersionDoesNotHideTheFailureBehindASkip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", os: "17.5", ["--expected", "1=pass"])
        try record(folder, build: "311", os: "17.5", ["--expected", "1=fail", "--notes", "numbers overlap"])
        try record(folder, build: "311", os: "17.5", ["--verdict", "skipped"])
        try record(folder, build: "311", os: "18.2", ["--expected", "1=pass"])
        let compared = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(compared.status == 3 && compared.stdout.contains("310 → 311: REGRESSION (verdict pass → fail)"), "\(compared.stdout)")
        #expect(try checkrun(["report", "--release", "2.4", "--build", "311", "--fail-on-failure"], in: folder).status == 3)
    }

    /// A skip or block's time and counts, those until it was set aside, are no measure of the
    /// task: every run that passed took 10 s, and a skip and a block after 100 s each made the
    /// build a time regression (median 1 minute 40 seconds, +900%) and failed the gate.
    @Test func aSetAsideAttemptMovesNoMedian() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", ["--expected", "1=pass", "--seconds", "10"])
        try record(folder, build: "311", ["--verdict", "skipped", "--seconds", "100"])
        try record(folder, build: "311", ["--verdict", "blocked", "--reason", "the app crashed", "--seconds", "100"])
        try record(folder, build: "311", ["--expected", "1=pass", "--seconds", "10"])
        let compared = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(compared.status == 0 && compared.stdout.contains("311: median 10 seconds, pass (3 results)"), "\(compared.stdout)")
    }
}
