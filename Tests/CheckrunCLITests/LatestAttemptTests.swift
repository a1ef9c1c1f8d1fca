import CheckrunModel
import CheckrunTestSupport
import Foundation
import Testing

/// Which result a report and a comparison take as the latest, from the built binary: the
/// attempt answered last in the newest build, whatever was amended since and however a release
/// candidate is labelled. Each was once the wrong one, and the failure vanished from the gate.
@Suite struct LatestAttemptTests {
    let protocols = Repository.path("protocols")
    let check = "tiny-target/voice-control-show-numbers"

    func checkrun(_ arguments: [String], in folder: TemporaryFolder, input: String? = nil) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path, input: input)
    }

    func record(build: String, os: String, _ answer: [String], in folder: TemporaryFolder) throws {
        let recorded = try checkrun(["record", "--release", "2.4", "--build", build, "--check", check, "--device", "iPhone 15", "--os", os] + answer, in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    @Test func amendingAnOlderAttemptDoesNotMakeItTheLatest() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(build: "311", os: "17.5", ["--expected", "1=pass"], in: folder)
        try record(build: "311", os: "18.1", ["--expected", "1=fail", "--notes", "numbers overlap on the toolbar"], in: folder)
        let amended = try checkrun(["amend", "--release", "2.4", "--build", "311", "--check", check, "--device", "iPhone 15", "--os", "17.5",
                                    "--notes", "tested with the toolbar expanded", "--reason", "add context"], in: folder)
        #expect(amended.status == 0, "\(amended.stderr)")
        let gate = try checkrun(["report", "--release", "2.4", "--format", "json", "--fail-on-failure"], in: folder)
        #expect(gate.status == 3, "the newer attempt's failure must still trip the gate: \(gate.stdout)\(gate.stderr)")
        #expect(gate.stdout.contains("numbers overlap on the toolbar"))
    }

    @Test func aComparisonTakesTheAttemptAnsweredLastAsTheBuildsVerdict() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(build: "310", os: "17.5", ["--expected", "1=pass"], in: folder)
        try record(build: "311", os: "17.5", ["--expected", "1=pass"], in: folder)
        try record(build: "311", os: "18.1", ["--expected", "1=fail", "--notes", "numbers overlap on the toolbar"], in: folder)
        let amended = try checkrun(["amend", "--release", "2.4", "--build", "311", "--check", check, "--device", "iPhone 15", "--os", "17.5",
                                    "--notes", "tested with the toolbar expanded", "--reason", "add context"], in: folder)
        #expect(amended.status == 0, "\(amended.stderr)")
        let compared = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(compared.status == 3, "pass in 310, fail in 311 is a regression: \(compared.stdout)\(compared.stderr)")
    }

    @Test(arguments: [("2.4.0-rc.2", "2.4.0"), ("2.4.0-beta.1", "2.4.0-rc.1"), ("9", "v10")])
    func aReleaseCandidateIsOlderThanItsRelease(candidate: String, release: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(build: candidate, os: "18.1", ["--expected", "1=pass"], in: folder)
        try record(build: release, os: "18.1", ["--expected", "1=fail", "--notes", "numbers overlap in the final build"], in: folder)
        let gate = try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder)
        #expect(gate.status == 3, "\(release) is newer than \(candidate): \(gate.stdout)\(gate.stderr)")
    }

    /// A skip or block after a failure shows no fix: the check still counts as failed, in every
    /// format and at the gate, and says which build failed.
    @Test(arguments: [["--verdict", "skipped"], ["--verdict", "blocked", "--reason", "the build would not install"]])
    func aFailureStandsBehindALaterSkipOrBlock(later: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(build: "310", os: "18.1", ["--expected", "1=fail", "--notes", "numbers overlap on the toolbar"], in: folder)
        try record(build: "311", os: "18.1", later, in: folder)
        let gate = try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder)
        #expect(gate.status == 3, "\(gate.stdout)\(gate.stderr)")
        let buildGate = try checkrun(["report", "--release", "2.4", "--build", "311", "--fail-on-failure"], in: folder)
        #expect(buildGate.status == 3, "a gate on build 311 alone still sees 310's failure behind the skip: \(buildGate.stdout)")
        #expect(gate.stdout.contains("failed on iPhone 15, OS 18.1 in build 310 and was \(later[1]) in build 311 since, so it is not shown fixed: numbers overlap"), "\(gate.stdout)")
        #expect(gate.stdout.contains("failed in build 310 (attempt 1) and not shown fixed since, so it counts as failed"))
        let json = try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder)
        #expect(json.stdout.contains("\"failed\": 1") && json.stdout.contains("\"failedEarlier\": {"), "\(json.stdout)")
        let csv = try checkrun(["report", "--release", "2.4", "--format", "csv"], in: folder)
        #expect(csv.stdout.hasSuffix(",\"build 310, attempt 1\",failed,18.1,\r\n"), "\(csv.stdout)")
        let junit = try checkrun(["report", "--release", "2.4", "--format", "junit"], in: folder)
        #expect(junit.stdout.contains("failed in build 310 (attempt 1) and not shown fixed since\" type=\"fail\">numbers overlap on the toolbar</failure>"), "\(junit.stdout)")
        // A pass after the failure fixes it; a skip after that pass takes nothing back.
        try record(build: "312", os: "18.1", ["--expected", "1=pass"], in: folder)
        try record(build: "313", os: "18.1", later, in: folder)
        #expect(try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder).status == 0)
    }

    @Test func aFailureStandsBehindASkipInTheSameBuild() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(build: "311", os: "18.1", ["--expected", "1=fail", "--notes", "numbers overlap"], in: folder)
        try record(build: "311", os: "18.1", ["--verdict", "skipped"], in: folder)
        #expect(try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder).status == 3)
    }

    /// An outcome answered fail and then the check set aside (`x` in the walk, `record
    /// --verdict skipped --expected 1=fail`, or a failure amended to skipped) is a failure seen:
    /// it counted as skipped, with "0 failed" and the gate at 0.
    @Test func aFailedOutcomeInsideASkipOrBlockCountsAsFailed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(build: "310", os: "18.1", ["--verdict", "skipped", "--expected", "1=fail", "--notes", "numbers overlap"], in: folder)
        let gate = ["report", "--release", "2.4", "--fail-on-failure"]
        let report = try checkrun(gate, in: folder)
        #expect(report.status == 3 && report.stdout.contains("it failed before the check was set aside"), "\(report.stdout)")
        let json = try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder)
        #expect(json.stdout.contains("\"failed\": 1") && json.stdout.contains("\"inThisResult\": true"), "\(json.stdout)")
        // Skipped again in a later build, with nothing answered: the failure still stands.
        try record(build: "311", os: "18.1", ["--verdict", "skipped"], in: folder)
        #expect(try checkrun(gate, in: folder).status == 3)
        try record(build: "312", os: "18.1", ["--expected", "1=pass"], in: folder)
        #expect(try checkrun(gate, in: folder).status == 0)
        // A failure amended to skipped keeps its failed outcome, so it still counts.
        try record(build: "313", os: "18.1", ["--expected", "1=fail", "--notes", "numbers overlap again"], in: folder)
        let amended = try checkrun(["amend", "--release", "2.4", "--build", "313", "--check", check, "--verdict", "skipped", "--reason", "retest later"], in: folder)
        #expect(amended.status == 0, "\(amended.stderr)")
        #expect(try checkrun(gate, in: folder).status == 3)
    }

    /// Two testers on one build and device: Ana began first and answered a failure last, Ben
    /// began after her and passed in between. The last answer is the latest observation.
    @Test func theAttemptAnsweredLastIsTheLatest() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let begun = try checkrun(["run", "--release", "2.4", "--build", "311", "--device", "iPhone 15", "--tester", "Ana", "--check", check],
                                 in: folder, input: "t 30\nq\n")
        #expect(begun.status == 0, "\(begun.stdout)\(begun.stderr)")
        try record(build: "311", os: "", ["--expected", "1=pass", "--tester", "Ben"], in: folder)
        let resumed = try checkrun(["resume"], in: folder, input: "f numbers overlap on the toolbar\n\n")
        #expect(resumed.stdout.contains("Result: fail"), "\(resumed.stdout)\(resumed.stderr)")
        let gate = try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder)
        #expect(gate.status == 3, "\(gate.stdout)\(gate.stderr)")
    }

    /// A failed answer in an attempt the tester left unfinished is named in the report beside
    /// the older pass, until the walk is resumed and the result given.
    @Test func anUnfinishedAttemptHoldingAFailureIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(build: "311", os: "", ["--expected", "1=pass"], in: folder)
        let walked = try checkrun(["run", "--release", "2.4", "--build", "311", "--device", "iPhone 15", "--tester", "Ana", "--check", check],
                                  in: folder, input: "t 30\nf numbers overlap on the toolbar\nq\n")
        #expect(walked.stdout.contains("Saved, 1 check left."), "\(walked.stdout)\(walked.stderr)")
        let markdown = try checkrun(["report", "--release", "2.4"], in: folder)
        #expect(markdown.stdout.contains("- 1 unfinished attempt holds a failed answer that no finished result shows yet:\n  - \(check) on iPhone 15 (build 311): attempt 2 holds a failed answer but is not finished; resume session"), "\(markdown.stdout)")
        let json = try JSONParser.parse(try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder).stdout)
        #expect(json["unfinishedFailures"]?.arrayValue?.count == 1)
        // The rows of the criteria the check maps say it too, beside the pass they count: a
        // remark pasted into a VPAT read "Supports" and nothing else.
        let noted = "Not counted, as no result yet: \(check) on iPhone 15 (build 311) holds a failed answer in an attempt left unfinished."
        #expect(markdown.stdout.contains("| 2.5.8 Target Size (Minimum) | AA | Incomplete | ") && markdown.stdout.contains(noted), "\(markdown.stdout)")
        #expect(try checkrun(["report", "--release", "2.4", "--format", "openacr"], in: folder).stdout.contains(noted))
        let resumed = try checkrun(["resume"], in: folder, input: "\n")
        #expect(resumed.stdout.contains("Result: fail"), "\(resumed.stdout)\(resumed.stderr)")
        let after = try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder)
        #expect(after.status == 3 && !after.stdout.contains("unfinished attempt"), "\(after.stdout)")
    }
}
