import CheckrunModel
import CheckrunTestSupport
import Foundation
import Testing

/// Skips on one OS version beside failures on another, as random histories found them: one
/// failure is counted once, by its own OS version's row, in reports and in `compare`, and a
/// regression is flagged exactly where an OS version that passed now fails.
@Suite struct SkipAcrossOSVersionsTests {
    let helper = OSVersionTests()

    /// Each shown row's OS version with how the report counts it, in `report --release 2.4 [scope]`.
    func countedAs(_ folder: TemporaryFolder, _ scope: [String] = []) throws -> [String: String] {
        let json = try JSONParser.parse(try helper.checkrun(["report", "--release", "2.4", "--format", "json"] + scope, in: folder).stdout)
        let results = json["checks"]?.arrayValue?.first { $0["check"]?.stringValue == helper.check }?["results"]?.arrayValue ?? []
        return Dictionary(results.map { ($0["osVersion"]?.stringValue ?? "", $0["countedAs"]?.stringValue ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// 17.5 failed in 310 and was never tested again; 18.2 passed in 311 and was skipped in 312:
    /// nothing failed in 312, so no regression (the gate exited 3 on "pass → fail").
    @Test func aSkipAfterAPassIsNoRegressionWhileAnotherOSVersionsFailureStands() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "310", os: "17.5", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "311", os: "18.2", ["--expected", "1=pass"])
        try helper.record(folder, build: "312", os: "18.2", ["--verdict", "skipped"])
        let gate = try helper.checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(gate.status == 0 && gate.stdout.contains("311 → 312: changed"), "\(gate.stdout)")
        #expect(try countedAs(folder, ["--build", "312"]) == ["17.5": "failed", "18.2": "skipped"])
    }

    /// 17.5 passed in 311, failed in 312 and was then skipped there: the skip stands in front of
    /// its own failure, a regression on 17.5 (compare said "no change" and exited 0).
    @Test func aSkipInFrontOfItsOwnNewFailureIsARegression() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "311", os: "17.5", ["--expected", "1=pass"])
        try helper.record(folder, build: "311", os: "18.2", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "312", os: "17.5", ["--expected", "1=fail", "--notes", "overlap now on 17.5"])
        try helper.record(folder, build: "312", os: "17.5", ["--verdict", "skipped"])
        let gate = try helper.checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(gate.status == 3 && gate.stdout.contains("311 → 312: REGRESSION (verdict pass → fail on OS 17.5)"), "\(gate.stdout)")
    }

    /// A skip in 311 is not counted as failed for a failure on another OS version in 312, nor for
    /// one its row beside shows, in the release's report or in build 312's.
    @Test func aLaterFailureOnAnotherOSVersionIsNotReadIntoAnEarlierSkip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "311", os: "17.5", ["--verdict", "skipped"])
        try helper.record(folder, build: "312", os: "18.2", ["--expected", "1=fail", "--notes", "overlap"])
        #expect(try countedAs(folder) == ["17.5": "skipped", "18.2": "failed"])
        #expect(try countedAs(folder, ["--build", "312"]) == ["18.2": "failed"], "a skip holding no failure is not carried")
    }

    /// The 18.2 skip counts 18.2's failure; the 17.5 skip, after a pass on 17.5, counts nothing.
    @Test func aFailureCountedByASkipOnItsOwnOSVersionIsNotCountedAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "311", os: "18.2", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "312", os: "17.5", ["--expected", "1=pass"])
        try helper.record(folder, build: "312", os: "17.5", ["--verdict", "skipped"])
        try helper.record(folder, build: "312", os: "18.2", ["--verdict", "skipped"])
        #expect(try countedAs(folder) == ["17.5": "skipped", "18.2": "failed"])
    }

    /// 17.5 failed in 310 and was never tested again; 18.2 failed in 311 and passed in 312: not
    /// "fixed", since `report --build 312` still counts 17.5's failure.
    @Test func aFixOfOneOSVersionIsNotCalledFixedWhileAnOlderFailureStands() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "310", os: "17.5", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "311", os: "18.2", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "312", os: "18.2", ["--expected", "1=pass"])
        let compared = try helper.checkrun(["compare", "--release", "2.4"], in: folder)
        #expect(compared.stdout.contains("311 → 312: changed") && !compared.stdout.contains("fixed"), "\(compared.stdout)")
        #expect(try helper.checkrun(["report", "--release", "2.4", "--build", "312", "--fail-on-failure"], in: folder).status == 3)
        // Passed on 17.5 too: now it is fixed.
        try helper.record(folder, build: "313", os: "17.5", ["--expected", "1=pass"])
        try helper.record(folder, build: "313", os: "18.2", ["--expected", "1=pass"])
        let fixed = try helper.checkrun(["compare", "--release", "2.4", "--builds", "311,313"], in: folder)
        #expect(fixed.stdout.contains("311 → 313: fixed"), "\(fixed.stdout)")
    }

    /// The failure that stands may be in a build the comparison does not read: `--builds 311,312`
    /// skips 310, and `--builds 310,312` skips 311, yet `report --build 312` carries 17.5's failure.
    @Test func aFailureInABuildNotComparedStillStands() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "310", os: "17.5", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "311", os: "18.2", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "312", os: "18.2", ["--expected", "1=pass"])
        let compared = try helper.checkrun(["compare", "--release", "2.4", "--builds", "311,312"], in: folder)
        #expect(compared.stdout.contains("311 → 312: changed") && !compared.stdout.contains("fixed"), "\(compared.stdout)")
        let skipping = try helper.checkrun(["compare", "--release", "2.4", "--builds", "310,312"], in: folder)
        #expect(skipping.stdout.contains("310 → 312: changed") && !skipping.stdout.contains("fixed"), "\(skipping.stdout)")
        #expect(try helper.checkrun(["report", "--release", "2.4", "--build", "312", "--fail-on-failure"], in: folder).status == 3)
    }

    /// What a skipped build fixed is read too: 310 failed on 17.5 and 18.1, 311 passed on 17.5,
    /// 312 on 18.1, so `--builds 310,312` reads "fixed", as the gate on 312 passes; and builds
    /// given out of order are not taken for every build before 312.
    @Test func aFixInABuildNotComparedIsRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "310", os: "17.5", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "310", os: "18.1", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "311", os: "17.5", ["--expected", "1=pass"])
        try helper.record(folder, build: "312", os: "18.1", ["--expected", "1=pass"])
        let skipping = try helper.checkrun(["compare", "--release", "2.4", "--builds", "310,312"], in: folder)
        #expect(skipping.stdout.contains("310 → 312: fixed"), "\(skipping.stdout)")
        #expect(try helper.checkrun(["report", "--release", "2.4", "--build", "312", "--fail-on-failure"], in: folder).status == 0)

        let other = try TemporaryFolder()
        defer { other.remove() }
        try helper.record(other, build: "311", os: "17.5", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(other, build: "310", os: "18.1", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(other, build: "310", os: "17.5", ["--expected", "1=pass"])
        try helper.record(other, build: "312", os: "18.1", ["--expected", "1=pass"])
        let unordered = try helper.checkrun(["compare", "--release", "2.4", "--builds", "311,310,312"], in: other)
        #expect(unordered.stdout.contains("310 → 312: changed"), "\(unordered.stdout)")
    }

    /// Across releases: 2.3 failed on 17.5 in 399 and on 18.2 in 400; 2.4's first build passed
    /// on 18.2 alone, then was blocked on 17.5. Nothing shows 17.5 fixed, so the step reads
    /// "changed", as it would within a release; once 17.5 passes in 310 too, "fixed".
    @Test func aStepAcrossReleasesIsFixedOnlyWhereTheFailurePassedAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func record(_ release: String, _ build: String, _ os: String, _ answer: [String]) throws {
            let recorded = try helper.checkrun(["record", "--release", release, "--build", build, "--check", helper.check,
                                                "--device", "iPhone 15", "--os", os] + answer, in: folder)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        try record("2.3", "399", "17.5", ["--expected", "1=fail", "--notes", "overlap"])
        try record("2.3", "400", "18.2", ["--expected", "1=fail", "--notes", "overlap"])
        try record("2.4", "310", "18.2", ["--expected", "1=pass"])
        let across = try helper.checkrun(["compare", "--from", "2.3:400", "--to", "2.4:310"], in: folder)
        #expect(across.stdout.contains("changed") && !across.stdout.contains("fixed"), "\(across.stdout)")
        // Blocked on 17.5 is no fix either, though 2.4 has no failure for the block to stand in
        // front of (18.2's pass answered last, the build reads pass on the device).
        try record("2.4", "310", "17.5", ["--verdict", "blocked", "--notes", "no test account"])
        try record("2.4", "310", "18.2", ["--expected", "1=pass"])
        let blocked = try helper.checkrun(["compare", "--from", "2.3:400", "--to", "2.4:310"], in: folder)
        #expect(blocked.stdout.contains("changed") && !blocked.stdout.contains("fixed"), "\(blocked.stdout)")
        try record("2.4", "310", "17.5", ["--expected", "1=pass"])
        let tested = try helper.checkrun(["compare", "--from", "2.3:400", "--to", "2.4:310"], in: folder)
        #expect(tested.stdout.contains("fixed"), "\(tested.stdout)")
    }

    /// 310 failed on 17.5; 311 answered 17.5 only as not applicable and passed 18.2 after it. No
    /// fix of 17.5 was shown, so "changed" (the report counts 17.5 not applicable); within a
    /// release and across one alike.
    @Test func aPassOnlyNotApplicableOnTheFailedOSVersionIsNoFix() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "310", os: "17.5", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "311", os: "17.5", ["--expected", "1=na"])
        try helper.record(folder, build: "311", os: "18.2", ["--expected", "1=pass"])
        let compared = try helper.checkrun(["compare", "--release", "2.4"], in: folder)
        #expect(compared.stdout.contains("310 → 311: changed") && !compared.stdout.contains("fixed"), "\(compared.stdout)")
        let recorded = try helper.checkrun(["record", "--release", "2.3", "--build", "400", "--check", helper.check, "--device", "iPhone 15",
                                            "--os", "17.5", "--expected", "1=fail", "--notes", "overlap"], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let across = try helper.checkrun(["compare", "--from", "2.3:400", "--to", "2.4:311"], in: folder)
        #expect(across.stdout.contains("changed") && !across.stdout.contains("fixed"), "\(across.stdout)")
        try helper.record(folder, build: "311", os: "17.5", ["--expected", "1=pass"])
        #expect(try helper.checkrun(["compare", "--release", "2.4"], in: folder).stdout.contains("310 → 311: fixed"))

        // Not applicable, then skipped there: the pass set aside is no fix either.
        let skipped = try TemporaryFolder()
        defer { skipped.remove() }
        try helper.record(skipped, build: "310", os: "17.5", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(skipped, build: "311", os: "17.5", ["--expected", "1=na"])
        try helper.record(skipped, build: "311", os: "17.5", ["--verdict", "skipped"])
        try helper.record(skipped, build: "311", os: "18.2", ["--expected", "1=pass"])
        let afterSkip = try helper.checkrun(["compare", "--release", "2.4"], in: skipped)
        #expect(afterSkip.stdout.contains("310 → 311: changed") && !afterSkip.stdout.contains("fixed"), "\(afterSkip.stdout)")
    }

    /// Blocked, then a pass on the same OS version, while another OS version's failure stands:
    /// "changed", not "unblocked", whether the failure's build is compared or not.
    @Test func aPassAfterABlockIsNotUnblockedWhileAFailureStands() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "310", os: "17.5", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "311", os: "18.1", ["--verdict", "blocked", "--reason", "no build"])
        try helper.record(folder, build: "312", os: "18.1", ["--expected", "1=pass"])
        for builds in [["--builds", "311,312"], []] {
            let compared = try helper.checkrun(["compare", "--release", "2.4"] + builds, in: folder)
            #expect(compared.stdout.contains("311 → 312: changed") && !compared.stdout.contains("unblocked"), "\(builds): \(compared.stdout)")
        }
        #expect(try helper.checkrun(["report", "--release", "2.4", "--build", "312", "--fail-on-failure"], in: folder).status == 3)
    }

    /// A pass then a skip on 17.5 in 311 clears 310's failure there, as the report of 312
    /// counts it: 18.2's fix in 312 is "fixed", comparing every build or only the last two.
    @Test func aPassSetAsideAfterwardsStillClearsTheFailureBeforeIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "310", os: "17.5", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "311", os: "17.5", ["--expected", "1=pass"])
        try helper.record(folder, build: "311", os: "17.5", ["--verdict", "skipped"])
        try helper.record(folder, build: "311", os: "18.2", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "312", os: "18.2", ["--expected", "1=pass"])
        #expect(try helper.checkrun(["report", "--release", "2.4", "--build", "312", "--fail-on-failure"], in: folder).status == 0)
        for builds in [[], ["--builds", "311,312"]] {
            let compared = try helper.checkrun(["compare", "--release", "2.4"] + builds, in: folder)
            #expect(compared.stdout.contains("311 → 312: fixed"), "\(builds): \(compared.stdout)")
        }
    }

    /// A pass after a block reads "changed" while another OS version's failure stands, but its
    /// time is no more comparable with the blocked attempt's than an "unblocked" one's: not
    /// flagged, and the gate passes as it did.
    @Test func aPassAfterABlockBesideAStandingFailureIsNotFlaggedForItsTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "309", os: "17.5", ["--expected", "1=fail", "--notes", "overlap", "--seconds", "10"])
        try helper.record(folder, build: "310", os: "18.2", ["--verdict", "blocked", "--reason", "no build", "--seconds", "10"])
        try helper.record(folder, build: "311", os: "18.2", ["--expected", "1=pass", "--seconds", "30"])
        let gate = try helper.checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(gate.status == 0 && gate.stdout.contains("310 → 311: changed") && !gate.stdout.contains("REGRESSION"), "\(gate.stdout)")
    }

    /// 18.2's failure stands; a skip then a pass on 17.5 is not "fixed".
    @Test func aPassOnAnotherOSVersionAfterASkipIsNotCalledFixed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try helper.record(folder, build: "310", os: "18.2", ["--expected", "1=fail", "--notes", "overlap"])
        try helper.record(folder, build: "311", os: "17.5", ["--verdict", "skipped"])
        try helper.record(folder, build: "312", os: "17.5", ["--expected", "1=pass"])
        let compared = try helper.checkrun(["compare", "--release", "2.4"], in: folder)
        #expect(!compared.stdout.contains("fixed"), "\(compared.stdout)")
        #expect(try helper.checkrun(["report", "--release", "2.4", "--build", "312", "--fail-on-failure"], in: folder).status == 3)
    }
}
