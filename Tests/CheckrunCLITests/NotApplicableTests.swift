import CheckrunModel
import CheckrunTestSupport
import Foundation
import Testing

/// A check whose every answered outcome was not applicable is no evidence of support: it is
/// "not applicable", and a criterion only such checks map is Not Applicable, never Supports.
@Suite struct NotApplicableTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    func record(_ check: String, _ answers: [String], in folder: TemporaryFolder) throws {
        let recorded = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", check, "--device", "iPhone 15"] + answers, in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    func criterion(_ number: String, in report: JSONNode) -> JSONNode? {
        report["wcag"]?.arrayValue?.first { $0["criterion"]?.stringValue == number }
    }

    @Test func checksThatDidNotApplyMakeNotApplicableNeverSupports() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record("over-grouped-control/switch-control", ["--expected", "1=na", "--expected", "2=na"], in: folder)
        try record("over-grouped-control/voiceover", (1...5).flatMap { ["--expected", "\($0)=na"] }, in: folder)
        let json = try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder)
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONParser.parse(json.stdout)
        #expect(report["summary"]?["notApplicable"]?.intValue == 2 && report["summary"]?["passed"]?.intValue == 0)
        #expect(criterion("2.1.1", in: report)?["conformance"]?.stringValue == "Not Applicable", "\(json.stdout.prefix(2000))")
        #expect(criterion("2.1.1", in: report)?["coverageGap"]?.value == .bool(false))
        let markdown = try checkrun(["report", "--release", "2.4"], in: folder)
        #expect(markdown.stdout.contains("| 2.1.1 Keyboard | A | Not Applicable |"), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("2 not applicable"))
    }

    @Test func aCheckThatDidNotApplyTakesNothingFromAPass() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record("over-grouped-control/switch-control", ["--expected", "1=na", "--expected", "2=na"], in: folder)
        try record("over-grouped-control/voiceover", (1...5).flatMap { ["--expected", "\($0)=pass"] }, in: folder)
        let report = try JSONParser.parse(try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder).stdout)
        #expect(criterion("2.1.1", in: report)?["conformance"]?.stringValue == "Supports")
        #expect(criterion("2.1.1", in: report)?["coverage"]?["sentence"]?.stringValue == "1 of 2 mapped checks passed; 1 not applicable.")
    }

    /// Not applicable beside checks never run is no evidence either way: still a gap.
    @Test func aCheckThatDidNotApplyBesideOnesNotRunLeavesAGap() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record("over-grouped-control/switch-control", ["--expected", "1=na", "--expected", "2=na"], in: folder)
        let markdown = try checkrun(["report", "--release", "2.4"], in: folder)
        #expect(markdown.stdout.contains("| 2.1.1 Keyboard | A | Not Evaluated (gap in coverage) |"), "\(markdown.stdout)")
    }

    /// JUnit: a check that did not apply is a skipped testcase, not a green one, and the top
    /// line's totals are the sums of every suite's, the WCAG suite's too.
    @Test func junitSkipsACheckThatDidNotApplyAndItsTotalsAddUp() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record("over-grouped-control/switch-control", ["--expected", "1=na", "--expected", "2=na"], in: folder)
        try record("tiny-target/voice-control-show-numbers", ["--expected", "1=fail", "--notes", "numbers overlap"], in: folder)
        let junit = try checkrun(["report", "--release", "2.4", "--format", "junit"], in: folder).stdout
        let switchControl = try #require(junit.components(separatedBy: "name=\"switch-control on iPhone 15\"").dropFirst().first?.components(separatedBy: "</testcase>").first)
        #expect(switchControl.contains("<skipped message=\"not applicable"), "\(switchControl)")
        func sum(_ attribute: String) -> Int {
            junit.components(separatedBy: "<testsuite ").dropFirst().compactMap { suite in
                suite.components(separatedBy: "\(attribute)=\"").dropFirst().first?.prefix { $0 != "\"" }
            }.compactMap { Int($0) }.reduce(0, +)
        }
        let top = try #require(junit.components(separatedBy: "<testsuites ").dropFirst().first?.prefix { $0 != ">" })
        #expect(top.contains("tests=\"\(sum("tests"))\"") && top.contains("failures=\"\(sum("failures"))\"") && top.contains("errors=\"\(sum("errors"))\""), "\(top)")
        #expect(sum("failures") >= 2, "the check's failure and its criteria's")
    }

    /// A failure answered not applicable in the next build is not "fixed": nothing passed.
    @Test func aFailureLaterNotApplicableIsNotCalledFixed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let check = "tiny-target/voice-control-show-numbers"
        for (build, answers) in [("310", ["--expected", "1=fail", "--notes", "numbers overlap"]), ("311", ["--expected", "1=na"])] {
            let recorded = try checkrun(["record", "--release", "2.4", "--build", build, "--check", check, "--device", "iPhone 15"] + answers, in: folder)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let compared = try checkrun(["compare", "--release", "2.4"], in: folder)
        #expect(compared.stdout.contains("310 → 311: changed") && !compared.stdout.contains("fixed"), "\(compared.stdout)")
        let report = try checkrun(["report", "--release", "2.4"], in: folder)
        #expect(!report.stdout.contains("fixed"), "\(report.stdout)")
        // A pass that is a pass is still called fixed.
        let passed = try checkrun(["record", "--release", "2.4", "--build", "312", "--check", check, "--device", "iPhone 15", "--expected", "1=pass"], in: folder)
        #expect(passed.status == 0)
        #expect(try checkrun(["compare", "--release", "2.4", "--builds", "310,312"], in: folder).stdout.contains("310 → 312: fixed"))
        // Not applicable, then a pass, is a change, not "no change".
        let all = try checkrun(["compare", "--release", "2.4"], in: folder).stdout
        #expect(all.contains("311 → 312: changed"), "\(all)")
        // Blocked, then a pass of outcomes all not applicable: no more "unblocked" than fixed.
        let blocked = try checkrun(["record", "--release", "2.4", "--build", "313", "--check", check, "--device", "iPhone 15", "--verdict", "blocked", "--reason", "crash"], in: folder)
        #expect(blocked.status == 0, "\(blocked.stderr)")
        #expect(try checkrun(["record", "--release", "2.4", "--build", "314", "--check", check, "--device", "iPhone 15", "--expected", "1=na"], in: folder).status == 0)
        let unblocked = try checkrun(["compare", "--release", "2.4", "--builds", "313,314"], in: folder).stdout
        #expect(unblocked.contains("313 → 314: changed") && !unblocked.contains("unblocked"), "\(unblocked)")
    }

    /// Wherever a result's verdict is shown, a pass made only of outcomes answered not applicable
    /// says how reports count it, and the CSV and JSON give the count beside the recorded verdict:
    /// a lead never pastes "pass" for a check the report counts as not applicable.
    @Test func everyPlaceAVerdictIsShownSaysHowItCounts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorded = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "over-grouped-control/switch-control",
                                     "--device", "iPhone 15", "--expected", "1=na", "--expected", "2=na"], in: folder)
        #expect(recorded.stdout.contains("The verdict is pass, but every expected outcome answered was not applicable, so reports count it as not applicable."), "\(recorded.stdout)")
        try record("tiny-target/voice-control-show-numbers", ["--verdict", "skipped", "--expected", "1=fail", "--notes", "numbers overlap"], in: folder)
        let walked = try Checkrun.run(["run", "--release", "2.5", "--build", "1", "--device", "iPhone", "--check", "over-grouped-control/switch-control", "--protocols", protocols],
                                      in: folder.path, input: "t 5\nn\nn\n\n")
        #expect(walked.stdout.contains("complete: 1 check, 1 not applicable."), "\(walked.stdout)")
        let sessions = try checkrun(["sessions", "--release", "2.4"], in: folder).stdout
        #expect(sessions.contains("(1 not applicable)") && !sessions.contains("passed"), "\(sessions)")
        // Every release's sessions are counted another way (the outcomes grouped once): the same.
        let everySession = try checkrun(["sessions"], in: folder).stdout
        #expect(everySession.contains("release 2.4") && everySession.contains("(1 not applicable)") && everySession.contains("(1 failed)"), "\(everySession)")
        let sessionsJSON = try JSONParser.parse(try checkrun(["sessions", "--json", "--release", "2.4"], in: folder).stdout)
        #expect(sessionsJSON.arrayValue?.first?["notApplicable"]?.intValue == 1 && sessionsJSON.arrayValue?.first?["passed"]?.intValue == 0)
        let markdown = try checkrun(["report", "--release", "2.4"], in: folder).stdout
        #expect(markdown.contains("- Verdict: pass; every expected outcome answered was not applicable, so it counts as not applicable"), "\(markdown)")
        let csv = try checkrun(["report", "--release", "2.4", "--format", "csv"], in: folder).stdout.components(separatedBy: "\r\n")
        #expect(csv.first?.hasSuffix(",failed_earlier,counted_as,os_version,over_time_limit") == true)
        #expect(csv.contains { $0.contains("over-grouped-control/switch-control") && $0.hasSuffix(",not applicable,,") })
        #expect(csv.contains { $0.contains("tiny-target/voice-control-show-numbers") && $0.hasSuffix(",failed,,") })
        let json = try JSONParser.parse(try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder).stdout)
        let counted = (json["checks"]?.arrayValue ?? []).flatMap { $0["results"]?.arrayValue ?? [] }.map { ($0["verdict"]?.stringValue, $0["countedAs"]?.stringValue) }
        #expect(counted.contains { $0 == ("pass", "not applicable") } && counted.contains { $0 == ("skipped", "failed") }, "\(counted)")
    }
}
