@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// `--unverified` writes a report of a tampered store, marked as such; it never passes a gate.
/// Before, a verdict edited from fail to pass gave `failures="0"` and exit 0 with
/// `--fail-on-failure`, and JUnit's only mark was a comment no dashboard shows.
@Suite struct UnverifiedGateTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    @Test func anUnverifiedReportOrComparisonTripsItsGate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for build in ["310", "311"] {
            let recorded = try checkrun(["record", "--release", "2.4", "--build", build, "--check", "tiny-target/voice-control-show-numbers",
                                         "--expected", "1=fail", "--notes", "numbers overlap"], in: folder)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("UPDATE results SET verdict = 'pass'; UPDATE outcome_answers SET verdict = 'pass'")
        raw.close()
        let report = try checkrun(["report", "--release", "2.4", "--format", "junit", "--unverified", "--fail-on-failure"], in: folder)
        #expect(report.status == 3 && report.stderr.contains("The report is UNVERIFIED"), "\(report.stderr)")
        #expect(report.stdout.contains("<testcase classname=\"checkrun\" name=\"the records this report rests on verify\" time=\"0\">\n      <failure message=\"UNVERIFIED: "),
                "\(report.stdout)")
        #expect(report.stdout.contains("failures=\"1\""), "the suite of the verification counts in the totals")
        #expect(try checkrun(["report", "--release", "2.4", "--unverified"], in: folder).status == 0, "without a gate, written as asked")
        let compared = try checkrun(["compare", "--release", "2.4", "--unverified", "--fail-on-regression"], in: folder)
        #expect(compared.status == 3 && compared.stderr.contains("The comparison is UNVERIFIED"), "\(compared.stderr)")
    }
}
