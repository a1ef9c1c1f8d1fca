import CheckrunTestSupport
import Foundation
import Testing

/// Builds labelled with a version and a commit hash, from the built binary: the failure on
/// the commit tested last stands, whatever its hash's characters. Before, 2.4.0-1a2b3c4 sorted
/// before 2.4.0-9f3c2d1, so the older commit's pass hid the newer one's failure: the report
/// said "0 failed", the gate exited 0, and `compare` called the failure fixed.
@Suite struct BuildHashTests {
    let protocols = Repository.path("protocols")
    let check = "tiny-target/voice-control-show-numbers"

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    @Test(arguments: [("2.4.0-9f3c2d1", "2.4.0-1a2b3c4"), ("311 (9f3c2d1)", "311 (1a2b3c4)"), ("main-9f3c2d1", "main-1a2b3c4")])
    func theFailureOnTheCommitTestedLastStands(older: String, newer: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (build, answer) in [(older, ["--expected", "1=pass"]), (newer, ["--expected", "1=fail", "--notes", "numbers overlap"])] {
            let recorded = try checkrun(["record", "--release", "2.4", "--build", build, "--check", check, "--device", "iPhone 15"] + answer, in: folder)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let report = try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder)
        #expect(report.status == 3 && report.stdout.contains("Builds: \(older); \(newer)"), "\(report.stdout)")
        let compared = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        #expect(compared.status == 3 && compared.stdout.contains("\(older) → \(newer): REGRESSION (verdict pass → fail)"), "\(compared.stdout)")
    }
}
