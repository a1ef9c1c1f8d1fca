import CheckrunTestSupport
import Foundation
import Testing

/// A failure the tester saw and then set aside (skipped or blocked) stands: a count over its
/// ceiling as well as a failed outcome, in the report, at its gate and in `compare`'s
/// regressions. An unfinished attempt's failure is not counted behind a skip.
@Suite struct SetAsideFailureTests {
    static let document = """
        {"id": "demo", "title": "Demo", "status": "ready", "source": "x.txt", "wcag": ["2.5.8"], "checks": [
          {"id": "stops", "profile": "Switch Control", "task": "count stops", "expected": ["the card is one stop"],
           "counters": [{"id": "stops", "label": "stops", "ceiling": 5}]},
          {"id": "plain", "profile": "VoiceOver", "task": "t", "expected": ["a", "b"]}]}
        """

    func folder() throws -> (TemporaryFolder, ([String], String?) throws -> ProcessResult) {
        let folder = try TemporaryFolder()
        try folder.write("protocols/demo.json", Self.document)
        return (folder, { arguments, input in try Checkrun.run(arguments + ["--protocols", folder.path("protocols")], in: folder.path, input: input) })
    }

    @Test func aSkipHoldingACountOverItsCeilingCountsAsFailed() throws {
        let (folder, checkrun) = try folder()
        defer { folder.remove() }
        let walked = try checkrun(["run", "--release", "1", "--build", "1", "--device", "D", "--tester", "T", "--check", "demo/stops"], "t 10\np\n9\ns\ny\n")
        #expect(walked.stdout.contains("Something already failed, so the check still counts as failed once skipped"), "\(walked.stdout)")
        #expect(walked.stdout.contains("Result: skipped; it failed before it was set aside, so reports count it as failed"))
        #expect(walked.stdout.contains("Session ") && walked.stdout.contains("complete: 1 check, 1 failed."), "the closing line counts as the report does")
        let report = try checkrun(["report", "--release", "1", "--fail-on-failure"], nil)
        #expect(report.status == 3 && report.stdout.contains("it failed before the check was set aside"), "\(report.stdout)")
    }

    /// `record` and `sessions` count a skip holding a failed outcome as the report does.
    @Test func recordAndSessionsSayASkippedFailureCountsAsFailed() throws {
        let (folder, checkrun) = try folder()
        defer { folder.remove() }
        let recorded = try checkrun(["record", "--release", "1", "--build", "1", "--check", "demo/plain", "--verdict", "skipped", "--expected", "1=fail", "--notes", "a broke"], nil)
        #expect(recorded.stdout.contains("It holds a failure (1 of 2 expected outcomes failed), so reports count it as failed"), "\(recorded.stdout)")
        let sessions = try checkrun(["sessions"], nil).stdout
        #expect(sessions.contains("(1 failed)") && !sessions.contains("skipped"), "\(sessions)")
        #expect(try checkrun(["sessions", "--release", "1"], nil).stdout.contains("(1 failed)"), "one release's sessions are counted alike")
    }

    @Test func aPassThenASkipHoldingAFailureIsARegression() throws {
        let (folder, checkrun) = try folder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "1", "--build", "1", "--device", "D", "--check", "demo/plain", "--expected", "1=pass", "--expected", "2=pass"], nil).status == 0)
        #expect(try checkrun(["record", "--release", "1", "--build", "2", "--device", "D", "--check", "demo/plain", "--verdict", "skipped",
                              "--expected", "1=fail", "--notes", "VoiceOver skips Pay"], nil).status == 0)
        let compared = try checkrun(["compare", "--release", "1", "--fail-on-regression"], nil)
        #expect(compared.status == 3 && compared.stdout.contains("verdict pass → fail"), "\(compared.stdout)")
        // A count over its ceiling in a skip, likewise.
        #expect(try checkrun(["record", "--release", "1", "--build", "1", "--device", "D", "--check", "demo/stops", "--count", "stops=3", "--expected", "1=pass"], nil).status == 0)
        #expect(try checkrun(["record", "--release", "1", "--build", "2", "--device", "D", "--check", "demo/stops", "--verdict", "skipped",
                              "--count", "stops=9", "--notes", "nine stops, then the app closed"], nil).status == 0)
        let stops = try checkrun(["compare", "--release", "1"], nil).stdout
        #expect(stops.contains("demo/stops on D") && stops.contains("2: not timed, fail"), "\(stops)")
    }

    /// A failed answer in an attempt left unfinished is no result: behind a later skip it does
    /// not stand, as the README says unfinished attempts are not counted.
    @Test func anUnfinishedAttemptsFailureIsNotCountedBehindASkip() throws {
        let (folder, checkrun) = try folder()
        defer { folder.remove() }
        let plain = ["--release", "1", "--build", "1", "--device", "D", "--check", "demo/plain"]
        #expect(try checkrun(["record"] + plain + ["--expected", "1=pass", "--expected", "2=pass"], nil).status == 0)
        _ = try checkrun(["run", "--tester", "T"] + plain, "t 5\nf\nq\n")
        #expect(try checkrun(["record"] + plain + ["--verdict", "skipped"], nil).status == 0)
        let report = try checkrun(["report", "--release", "1", "--fail-on-failure"], nil)
        #expect(report.status == 0, "\(report.stdout)")
    }

    /// `sessions` judges a count inside a skip by its ceiling, in the version answered, as the
    /// report does: over it, the session counts a failure; under it, a skip.
    @Test func sessionsJudgeASetAsideCountByItsCeiling() throws {
        let (folder, checkrun) = try folder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "1", "--build", "1", "--device", "D", "--check", "demo/stops", "--verdict", "skipped",
                              "--count", "stops=7", "--notes", "seven stops"], nil).status == 0)
        #expect(try checkrun(["record", "--release", "1", "--build", "2", "--device", "D", "--check", "demo/stops", "--verdict", "blocked",
                              "--count", "stops=3", "--notes", "the app crashed"], nil).status == 0)
        // A ceiling raised since does not excuse the count answered against the old one.
        try folder.write("protocols/demo.json", Self.document.replacingOccurrences(of: #""ceiling": 5"#, with: #""ceiling": 10"#))
        for release in [[], ["--release", "1"]] {
            let lines = try checkrun(["sessions"] + release, nil).stdout.split(separator: "\n")
            #expect(lines.count == 2 && lines[0].contains("build 1") && lines[0].hasSuffix("1 of 1 checks done (1 failed), complete"), "\(lines)")
            #expect(lines.count == 2 && lines[1].contains("build 2") && lines[1].hasSuffix("(1 blocked), complete"), "\(lines)")
        }
        let json = try checkrun(["sessions", "--json"], nil).stdout
        #expect(json.contains("\"failed\": 1,\n    \"blocked\": 0,\n    \"skipped\": 0"), "\(json)")
        #expect(try checkrun(["report", "--release", "1", "--build", "1", "--fail-on-failure"], nil).status == 3, "the report counts it alike")
    }

    /// The ceiling a set-aside count is judged by is that of the version it was answered
    /// against, in `compare` as in the report, even once the check is gone from the protocols.
    @Test func compareJudgesASetAsideCountByTheVersionAnswered() throws {
        let (folder, checkrun) = try folder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "1", "--build", "2", "--device", "D", "--check", "demo/stops", "--verdict", "skipped",
                              "--count", "stops=7", "--notes", "seven stops"], nil).status == 0)
        try folder.write("protocols/demo.json", Self.document.replacingOccurrences(of: #""ceiling": 5"#, with: #""ceiling": 10"#))
        #expect(try checkrun(["report", "--release", "1", "--fail-on-failure"], nil).status == 3)
        #expect(try checkrun(["record", "--release", "1", "--build", "1", "--device", "D", "--check", "demo/plain", "--expected", "1=pass", "--expected", "2=pass"], nil).status == 0)
        let compared = try checkrun(["compare", "--release", "1", "--fail-on-regression"], nil)
        #expect(compared.status == 3 && compared.stdout.contains("new check fails"), "\(compared.stdout)")
    }

    /// A skip holding a count over its ceiling stands behind a later skip, in the report, in
    /// `compare` and in a report of the later build; and in a report of a build that did not
    /// test there, it is carried. Before, only a failed outcome was looked for behind a skip, so
    /// each of these read "no check failed" and exited 0 while the build's own report failed.
    @Test func aCountOverItsCeilingStandsBehindALaterSkipAndInLaterBuilds() throws {
        let (folder, checkrun) = try folder()
        defer { folder.remove() }
        let stops = ["--release", "1", "--device", "iPad Air", "--check", "demo/stops"]
        #expect(try checkrun(["record", "--build", "310", "--verdict", "skipped", "--count", "stops=14", "--notes", "ran out of time"] + stops, nil).status == 0)
        #expect(try checkrun(["record", "--release", "1", "--build", "311", "--device", "iPhone 15", "--check", "demo/plain",
                              "--expected", "1=pass", "--expected", "2=pass"], nil).status == 0)
        for format in ["markdown", "json", "junit"] {
            let carried = try checkrun(["report", "--release", "1", "--build", "311", "--format", format, "--fail-on-failure"], nil)
            #expect(carried.status == 3 && carried.stdout.contains("ran out of time"), "\(format): \(carried.stdout)")
        }
        #expect(try checkrun(["record", "--build", "311", "--verdict", "skipped", "--notes", "no time"] + stops, nil).status == 0)
        for build in [[], ["--build", "311"]] {
            let report = try checkrun(["report", "--release", "1", "--fail-on-failure"] + build, nil)
            #expect(report.status == 3 && report.stdout.contains("failed on iPad Air in build 310 and was skipped in build 311 since"), "\(build): \(report.stdout)")
        }
        let compared = try checkrun(["compare", "--release", "1"], nil).stdout
        #expect(compared.contains("311: not timed, fail") && compared.contains("310 → 311: no change"), "\(compared)")
    }

    /// A count under its ceiling is no failure: behind it the failure before still stands, and
    /// on its own it fails nothing.
    @Test func aCountUnderItsCeilingNeitherFailsNorHidesAFailure() throws {
        let (folder, checkrun) = try folder()
        defer { folder.remove() }
        let stops = ["--release", "1", "--device", "D", "--check", "demo/stops"]
        #expect(try checkrun(["record", "--build", "1", "--verdict", "skipped", "--count", "stops=2", "--notes", "two stops"] + stops, nil).status == 0)
        #expect(try checkrun(["report", "--release", "1", "--fail-on-failure"], nil).status == 0)
        #expect(try checkrun(["record", "--build", "2", "--expected", "1=fail", "--count", "stops=3", "--notes", "the card is two stops"] + stops, nil).status == 0)
        #expect(try checkrun(["record", "--build", "3", "--verdict", "skipped", "--count", "stops=4", "--notes", "four stops"] + stops, nil).status == 0)
        for build in [[], ["--build", "3"]] {
            let report = try checkrun(["report", "--release", "1", "--fail-on-failure"] + build, nil)
            #expect(report.status == 3 && report.stdout.contains("failed on D in build 2 and was skipped in build 3 since"), "\(build): \(report.stdout)")
        }
    }
}
