import CheckrunTestSupport
import Foundation
import Testing

/// One device label on two OS versions, from the built binary. A failure on iOS 18.2 was hidden
/// by a pass answered later on 17.5 of the same "iPhone 15": the report said passed, the gate
/// exited 0, and no format showed the OS. Each OS version now has its own latest result.
@Suite struct OSVersionTests {
    let protocols = Repository.path("protocols")
    let check = "tiny-target/voice-control-show-numbers"

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    func record(_ folder: TemporaryFolder, build: String, os: String, _ answer: [String]) throws {
        let recorded = try checkrun(["record", "--release", "2.4", "--build", build, "--check", check, "--device", "iPhone 15", "--os", os] + answer, in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    /// 18.2 failed, then 17.5 passed on the same build and device label.
    func failedOn182ThenPassedOn175(_ folder: TemporaryFolder) throws {
        try record(folder, build: "310", os: "18.2", ["--expected", "1=pass"])
        try record(folder, build: "310", os: "17.5", ["--expected", "1=pass"])
        try record(folder, build: "311", os: "18.2", ["--expected", "1=fail", "--notes", "numbers overlap on 18.2"])
        try record(folder, build: "311", os: "17.5", ["--expected", "1=pass"])
    }

    /// A pass on another OS version than the failure is no fix there: `compare` reads
    /// "changed", as `report --build` still counts the failure; tested again, "fixed".
    @Test func compareCallsAFailureFixedOnlyWhereItWasTestedAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", os: "17.5", ["--expected", "1=fail", "--notes", "numbers overlap"])
        try record(folder, build: "311", os: "18.2", ["--expected", "1=pass"])
        let elsewhere = try checkrun(["compare", "--release", "2.4"], in: folder).stdout
        #expect(elsewhere.contains("310 → 311: changed") && !elsewhere.contains("fixed"), "\(elsewhere)")
        #expect(try checkrun(["report", "--release", "2.4", "--build", "311", "--fail-on-failure"], in: folder).status == 3)
        try record(folder, build: "311", os: "17.5", ["--expected", "1=pass"])
        #expect(try checkrun(["compare", "--release", "2.4"], in: folder).stdout.contains("310 → 311: fixed"))
    }

    /// A failure fixed on 17.5 while 18.2, which passed, now fails: the device read fail in both
    /// builds, `compare` said "no change" and the gate passed the regression.
    @Test func aRegressionOnOneOSVersionIsNotCancelledByAFixOnAnother() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", os: "17.5", ["--expected", "1=fail", "--notes", "overlap on 17.5"])
        try record(folder, build: "310", os: "18.2", ["--expected", "1=pass"])
        try record(folder, build: "311", os: "17.5", ["--expected", "1=pass"])
        try record(folder, build: "311", os: "18.2", ["--expected", "1=fail", "--notes", "overlap now on 18.2"])
        let gate = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(gate.status == 3 && gate.stdout.contains("310 → 311: REGRESSION (verdict pass → fail on OS 18.2): regressed"), "\(gate.stdout)")
        #expect(try checkrun(["report", "--release", "2.4"], in: folder).stdout.contains("310 → 311: REGRESSION (verdict pass → fail on OS 18.2)"))
    }

    /// A skip on the OS version that passed, beside a failure that stands on another, is counted
    /// as failed for the device, but nothing failed on that OS version: no regression on it
    /// (the gate exited 3 on "verdict pass → fail on OS 18.2").
    @Test(arguments: [(fail: "17.5", pass: "18.2"), (fail: "18.2", pass: "17.5")])
    func aSkipBesideAStandingFailureIsNoRegressionOnItsOSVersion(os: (fail: String, pass: String)) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", os: os.fail, ["--expected", "1=fail", "--notes", "overlap"])
        try record(folder, build: "310", os: os.pass, ["--expected", "1=pass"])
        try record(folder, build: "311", os: os.fail, ["--expected", "1=fail", "--notes", "overlap still"])
        try record(folder, build: "311", os: os.pass, ["--verdict", "skipped"])
        let gate = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(gate.status == 0 && !gate.stdout.contains("REGRESSION") && gate.stdout.contains("No regressions."), "\(gate.stdout)")
    }

    /// A skip on 17.5, whose latest answer passed, beside a failure on 18.2 that the report shows
    /// on its own row: one failure, counted once (JUnit showed two).
    @Test func aSkipDoesNotCountAFailureShownOnAnotherRowAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", os: "17.5", ["--expected", "1=pass"])
        try record(folder, build: "311", os: "18.2", ["--expected", "1=fail", "--notes", "overlap"])
        try record(folder, build: "311", os: "17.5", ["--verdict", "skipped"])
        try expectOneFailure(folder)
        // The failure in the build before, carried into a report of build 311 alone.
        let carried = try TemporaryFolder()
        defer { carried.remove() }
        try record(carried, build: "310", os: "17.5", ["--expected", "1=pass"])
        try record(carried, build: "310", os: "18.2", ["--expected", "1=fail", "--notes", "overlap"])
        try record(carried, build: "311", os: "17.5", ["--verdict", "skipped"])
        try expectOneFailure(carried)
    }

    func expectOneFailure(_ folder: TemporaryFolder) throws {
        for scope in [[], ["--build", "311"]] {
            let junit = try checkrun(["report", "--release", "2.4", "--format", "junit", "--fail-on-failure"] + scope, in: folder)
            #expect(junit.status == 3 && junit.stdout.contains("name=\"voice-control-show-numbers on iPhone 15, OS 17.5\" time=\"0\">\n      <skipped message=\"skipped by the tester\"/>"), "\(junit.stdout)")
            #expect(junit.stdout.components(separatedBy: "type=\"fail\"").count == 2, "\(junit.stdout)")
        }
    }

    @Test func aPassOnOneOSVersionDoesNotHideAFailureOnAnother() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try failedOn182ThenPassedOn175(folder)
        let gate = try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder)
        #expect(gate.status == 3, "\(gate.stdout)\(gate.stderr)")
        #expect(gate.stdout.contains("fails on iPhone 15, OS 18.2 (build 311): numbers overlap on 18.2"), "\(gate.stdout)")
        #expect(gate.stdout.contains("- Device: iPhone 15, OS 17.5; build 311") && gate.stdout.contains("- Device: iPhone 15, OS 18.2; build 311"))
        let json = try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder)
        #expect(json.stdout.contains("\"osVersion\": \"17.5\"") && json.stdout.contains("\"osVersion\": \"18.2\""), "\(json.stdout)")
        let csv = try checkrun(["report", "--release", "2.4", "--format", "csv"], in: folder)
        let rows = csv.stdout.split(separator: "\r\n").map(String.init)
        #expect(rows.first?.hasSuffix(",counted_as,os_version,over_time_limit") == true)
        #expect(rows.dropFirst().map { $0.split(separator: ",").last.map(String.init) ?? "" } == ["17.5", "18.2"], "\(csv.stdout)")
        let junit = try checkrun(["report", "--release", "2.4", "--format", "junit"], in: folder)
        #expect(junit.stdout.contains("os_version: 18.2") && junit.stdout.contains("<failure"), "\(junit.stdout)")
        // The build that passed on both is compared with the one that failed on 18.2 and passed
        // later on 17.5: the build's verdict on the device is the failure, a regression.
        let compared = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(compared.status == 3, "\(compared.stdout)\(compared.stderr)")
        #expect(compared.stdout.contains("verdict pass → fail"), "\(compared.stdout)")
    }

    /// A newer build tested on one OS version says nothing of another: the failure on 18.2
    /// stands until 18.2 is tested again, as a failure on another device would.
    @Test func aNewerBuildOnOneOSVersionDoesNotAnswerForAnother() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "311", os: "18.2", ["--expected", "1=fail", "--notes", "numbers overlap on 18.2"])
        try record(folder, build: "312", os: "17.5", ["--expected", "1=pass"])
        #expect(try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder).status == 3)
        // A report of build 312 alone carries the failure too: 312 did not test 18.2.
        let buildGate = try checkrun(["report", "--release", "2.4", "--build", "312", "--fail-on-failure"], in: folder)
        #expect(buildGate.status == 3 && buildGate.stdout.contains("fails on iPhone 15, OS 18.2 (build 311)"), "\(buildGate.stdout)")
        try record(folder, build: "312", os: "18.2", ["--expected", "1=pass"])
        #expect(try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder).status == 0, "18.2 passed in the newer build")
        #expect(try checkrun(["report", "--release", "2.4", "--build", "312", "--fail-on-failure"], in: folder).status == 0)
    }

    /// GitLab keeps one testcase per class and name, the later one: a failure on one device named
    /// like a pass on another vanished from its dashboard. Each place's testcase has its own name.
    @Test func junitNamesEachTestcaseByItsPlace() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try failedOn182ThenPassedOn175(folder)
        let junit = try checkrun(["report", "--release", "2.4", "--format", "junit"], in: folder).stdout
        let names = junit.components(separatedBy: "<testcase classname=\"tiny-target\" name=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(names.contains("voice-control-show-numbers on iPhone 15, OS 18.2") && names.contains("voice-control-show-numbers on iPhone 15, OS 17.5"), "\(names)")
        #expect(Set(names).count == names.count, "\(names)")
        // Two places that read alike (a device named as another device and OS version read) still
        // get names of their own: the later one numbered.
        #expect(try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/voice-control-show-numbers", "--device", "iPhone 15, OS 18.2",
                              "--expected", "1=pass"], in: folder).status == 0)
        let alike = try checkrun(["report", "--release", "2.4", "--format", "junit"], in: folder).stdout
        let alikeNames = alike.components(separatedBy: "<testcase classname=\"tiny-target\" name=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(Set(alikeNames).count == alikeNames.count && alikeNames.contains("voice-control-show-numbers on iPhone 15, OS 18.2 (2)"), "\(alikeNames)")
    }

    /// `amend` names the OS versions instead of correcting whichever was answered last.
    @Test func amendAsksWhichOSVersionIsMeant() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try failedOn182ThenPassedOn175(folder)
        let amend = ["amend", "--release", "2.4", "--build", "311", "--check", check, "--notes", "checked again", "--reason", "context"]
        let refused = try checkrun(amend, in: folder)
        #expect(refused.status == 2 && refused.stderr.contains("several OS versions of this device: \"17.5\", \"18.2\"; choose one with --os"), "\(refused.stderr)")
        let chosen = try checkrun(amend + ["--os", "18.2"], in: folder)
        #expect(chosen.status == 0 && chosen.stdout.contains("now fail"), "\(chosen.stdout)\(chosen.stderr)")
    }
}

extension OSVersionTests {
    /// A skip given without `--os`, or on another OS version, after a failure on 18.2: a gate on
    /// the skip's build alone must still see the failure, and say where it failed. It is
    /// carried onto a row of its own, which counts it; the skip is not counted as it too.
    @Test(arguments: [[], ["--os", "17.5"]])
    func aSkipOnAnotherOSVersionOrNoneStillShowsTheFailureBeforeIt(skippedOn: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", os: "18.2", ["--expected", "1=fail", "--notes", "numbers overlap on 18.2"])
        let skipped = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", check, "--device", "iPhone 15", "--verdict", "skipped"] + skippedOn, in: folder)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        let gate = try checkrun(["report", "--release", "2.4", "--build", "311", "--fail-on-failure"], in: folder)
        #expect(gate.status == 3, "\(gate.stdout)\(gate.stderr)")
        #expect(gate.stdout.contains("voice-control-show-numbers fails on iPhone 15, OS 18.2 (build 310): numbers overlap on 18.2")
                && gate.stdout.contains("0 passed, 1 failed"), "\(gate.stdout)")
        let junit = try checkrun(["report", "--release", "2.4", "--build", "311", "--format", "junit"], in: folder)
        #expect(junit.stdout.components(separatedBy: "type=\"fail\"").count == 2, "one failure, counted once: \(junit.stdout)")
        // A pass on 18.2 since is the fix; the skip then stands in front of nothing.
        try record(folder, build: "311", os: "18.2", ["--expected", "1=pass"])
        #expect(try checkrun(["report", "--release", "2.4", "--build", "311", "--fail-on-failure"], in: folder).status == 0)
    }
}

extension OSVersionTests {
    /// Two sessions of one device on two OS versions listed alike; the walk's first line did
    /// not say which OS its answers are filed under.
    @Test func sessionsAndTheWalkNameTheOSVersion() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let walk = try Checkrun.run(["run", "--release", "2.4", "--build", "311", "--device", "iPhone 15", "--os", "18.2", "--check", check,
                                    "--protocols", protocols], in: folder.path, input: "q\n")
        #expect(walk.stdout.contains("started: release 2.4, build 311, device iPhone 15, OS 18.2, 1 check."), "\(walk.stdout)")
        try record(folder, build: "311", os: "17.5", ["--expected", "1=pass"])
        let sessions = try Checkrun.run(["sessions"], in: folder.path)
        #expect(sessions.stdout.contains("device iPhone 15, OS 18.2,") && sessions.stdout.contains("device iPhone 15, OS 17.5,"), "\(sessions.stdout)")
        let json = try Checkrun.run(["sessions", "--json"], in: folder.path)
        #expect(json.stdout.contains("\"osVersion\": \"18.2\""), "\(json.stdout)")
    }
}

extension OSVersionTests {
    /// Testers update their phones between builds: the device is still compared with itself,
    /// so a time that grew fivefold is flagged across the update (it read "no longer run" and
    /// "new", and no regression).
    @Test func anOSUpdatedBetweenBuildsIsStillTheSameDeviceInACompare() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "310", os: "17.5", ["--expected", "1=pass", "--seconds", "10"])
        try record(folder, build: "311", os: "18.2", ["--expected", "1=pass", "--seconds", "60"])
        let compared = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(compared.status == 3 && compared.stdout.contains("REGRESSION (time +500%)"), "\(compared.stdout)\(compared.stderr)")
    }
}
