import CheckrunTestSupport
import Foundation
import Testing

/// `compare` sets a check's time and counts aside only where that check's own text changed
/// between builds: a typo fixed in another check of the same protocol once silenced a real
/// regression (stops 14 to 40, time 60 s to 300 s) with exit 0.
@Suite struct CompareChangedCheckTests {
    let check = "motor-accessibility/switch-control-stops-to-pay"

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", folder.path("protocols")], in: folder.path)
    }

    func record(build: String, stops: Int, seconds: Int, in folder: TemporaryFolder) throws {
        let recorded = try checkrun(["record", "--release", "2.4", "--build", build, "--check", check, "--device", "iPhone 15",
                                     "--expected", "1=pass", "--expected", "2=pass", "--count", "stops=\(stops)", "--seconds", String(seconds)], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    /// Rewrites one check of the protocol file in the folder, as a maintainer's edit would.
    func edit(_ folder: TemporaryFolder, check id: String, _ change: (inout [String: Any]) -> Void) throws {
        let path = folder.path("protocols/motor-accessibility.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var checks = try #require(document["checks"] as? [[String: Any]])
        let index = try #require(checks.firstIndex { $0["id"] as? String == id })
        change(&checks[index])
        document["checks"] = checks
        try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted]).write(to: URL(fileURLWithPath: path))
    }

    func folderWithProtocols() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: Repository.path("protocols"), toPath: folder.path("protocols"))
        return folder
    }

    /// Stops 14 in 60 s on build 310, the edit, stops 40 in 300 s on 311: what the comparison's
    /// gate then says.
    func compareAcross(edit id: String, _ change: (inout [String: Any]) -> Void) throws -> ProcessResult {
        let folder = try folderWithProtocols()
        defer { folder.remove() }
        try record(build: "310", stops: 14, seconds: 60, in: folder)
        try edit(folder, check: id, change)
        try record(build: "311", stops: 40, seconds: 300, in: folder)
        return try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
    }

    @Test func anotherChecksEditDoesNotSilenceARegression() throws {
        let compared = try compareAcross(edit: "hit-area-audit") { $0["notes"] = "Decision 1: Small icon, 44 pt hit area (typo fixed)." }
        #expect(compared.status == 3, "\(compared.stdout)\(compared.stderr)")
        #expect(compared.stdout.contains("stops +26") && !compared.stdout.contains("check changed"), "\(compared.stdout)")
    }

    @Test func aNewWCAGMappingOrNoteDoesNotSilenceARegression() throws {
        let compared = try compareAcross(edit: "switch-control-stops-to-pay") {
            $0["wcag"] = ["2.1.1"]
            $0["notes"] = "Count from the first scan."
        }
        #expect(compared.status == 3, "\(compared.stdout)\(compared.stderr)")
        #expect(compared.stdout.contains("stops +26"), "\(compared.stdout)")
    }

    @Test func theChecksOwnEditSetsItsTimeAndCountsAside() throws {
        let compared = try compareAcross(edit: "switch-control-stops-to-pay") {
            $0["task"] = "pay for the basket with Switch Control, item scanning, from the new checkout"
        }
        #expect(compared.status == 0, "\(compared.stdout)\(compared.stderr)")
        #expect(compared.stdout.contains("check changed, time and counts not compared"), "\(compared.stdout)")
    }

    @Test func buildsGivenOutOfBuildOrderAreSaid() throws {
        let folder = try folderWithProtocols()
        defer { folder.remove() }
        try record(build: "310", stops: 14, seconds: 60, in: folder)
        try record(build: "311", stops: 40, seconds: 300, in: folder)
        let backwards = try checkrun(["compare", "--release", "2.4", "--builds", "311,310"], in: folder)
        #expect(backwards.stderr.contains("warning: --builds 311,310 is not in build order (310, 311)"), "\(backwards.stderr)")
        let forwards = try checkrun(["compare", "--release", "2.4", "--builds", "310,311"], in: folder)
        #expect(!forwards.stderr.contains("warning"), "\(forwards.stderr)")
        // The same two builds named by --from and --to: said too, or a mistyped gate passes a regression.
        let reversed = try checkrun(["compare", "--from", "2.4:311", "--to", "2.4:310"], in: folder)
        #expect(reversed.stderr.contains("warning: --from 2.4:311 is newer than --to 2.4:310"), "\(reversed.stderr)")
        #expect(!(try checkrun(["compare", "--from", "2.4:310", "--to", "2.4:311"], in: folder)).stderr.contains("warning"))
    }

    /// Without --release, the newest release by its label: a hotfix of 2.9.1 begun after 2.10
    /// took the gate off the current release.
    @Test func theDefaultReleaseIsTheNewestByItsLabel() throws {
        let folder = try folderWithProtocols()
        defer { folder.remove() }
        for (release, build) in [("2.10", "1"), ("2.10", "2"), ("2.9.1", "1"), ("2.9.1", "2")] {
            let recorded = try checkrun(["record", "--release", release, "--build", build, "--check", check, "--device", "A",
                                         "--expected", "1=pass", "--expected", "2=pass", "--count", "stops=14"], in: folder)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let compared = try checkrun(["compare"], in: folder)
        #expect(compared.stdout.hasPrefix("Comparing release 2.10,"), "\(compared.stdout)")
        let across = try checkrun(["compare", "--from", "2.10:2", "--to", "2.9.1:2"], in: folder)
        #expect(across.stderr.contains("warning: --from 2.10:2 is newer than --to 2.9.1:2"), "\(across.stderr)")
    }
}
