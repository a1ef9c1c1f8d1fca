@testable import CheckrunCLI
import CheckrunTestSupport
import Foundation
import Testing

/// `compare`'s selectors against labels holding a comma or a colon. `--builds 1,2` with builds
/// "1", "2" and "1,2" compared 1 with 2 without a word, and a build "2.4,hotfix" could not be
/// named at all; `--from 2.4:ios:311` read release "2.4".
@Suite struct BuildSelectorTests {
    @Test func aListIsReadAsTheLabelsTheReleaseHas() {
        #expect(BuildSelector.readings(ofList: "310,2.4,hotfix", known: ["310", "2.4,hotfix"]) == [["310", "2.4,hotfix"]])
        #expect(BuildSelector.readings(ofList: "310, 311", known: ["310", "311"]) == [["310", "311"]])
        #expect(BuildSelector.readings(ofList: "1,2", known: ["1", "2", "1,2"]).count == 2, "two readings: ambiguous")
        #expect(BuildSelector.readings(ofList: "310,,311", known: ["310", "311"]).isEmpty)
        #expect(BuildSelector.readings(ofList: "310,999", known: ["310", "311"]).isEmpty)
        // Forty commas that almost read: each start is tried once, not every split of the rest.
        let labels = (0..<40).map(String.init)
        #expect(BuildSelector.readings(ofList: labels.joined(separator: ",") + ",x", known: Set(labels)).isEmpty)
        // Thousands of pieces: a reading never joins more than the longest label holds.
        let many = Array(repeating: "1", count: 5000).joined(separator: ",") + ",2"
        let started = Date()
        #expect(BuildSelector.readings(ofList: many, known: ["1", "2", "1,2"]).count == 2)
        #expect(Date().timeIntervalSince(started) < 30, "it took minutes when every join was tried")
    }

    @Test func aScopeIsReadAtTheColonThatNamesABuildOfARelease() {
        let builds = ["2.4": ["ios:311"], "2.4:ios": ["311"], "2.3": ["298"]]
        let read = { (text: String) in BuildSelector.readings(ofScope: text, releases: Set(builds.keys)) { builds[$0] ?? [] } }
        #expect(read("2.3:298").map { "\($0.release) \($0.build)" } == ["2.3 298"])
        #expect(read("2.4:ios:311").count == 2)
        #expect(read("2.4:ios:312").isEmpty)
    }

    func record(_ folder: TemporaryFolder, release: String = "2.4", build: String, _ verdict: String) throws {
        let recorded = try Checkrun.run(["record", "--release", release, "--build", build, "--device", "iPhone 15", "--check", "tiny-target/voice-control-show-numbers",
                                         "--expected", "1=\(verdict)", "--protocols", Repository.path("protocols")] + (verdict == "fail" ? ["--notes", "numbers overlap"] : []),
                                        in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    @Test func compareNamesTheBuildsMeantOrSaysWhyItCannot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record(folder, build: "1", "pass")
        try record(folder, build: "2", "pass")
        try record(folder, build: "1,2", "fail")
        try record(folder, build: "3", "pass")
        let compare = { (arguments: [String]) in try Checkrun.run(["compare", "--protocols", Repository.path("protocols")] + arguments, in: folder.path) }
        let ambiguous = try compare(["--release", "2.4", "--builds", "1,2"])
        #expect(ambiguous.status == 2 && ambiguous.stdout.isEmpty, "\(ambiguous.stdout)")
        #expect(ambiguous.stderr.contains("could mean builds \"1\", \"2\" or builds \"1,2\""), "\(ambiguous.stderr)")
        let withComma = try compare(["--release", "2.4", "--builds", "1,2,3", "--fail-on-regression"])
        #expect(withComma.status == 2, "1,2,3 reads as 1 + 2 + 3 or 1,2 + 3: \(withComma.stderr)")
        let regression = try compare(["--from", "2.4:1", "--to", "2.4:1,2", "--fail-on-regression"])
        #expect(regression.status == 3, "the build named 1,2 failed: \(regression.stdout)\(regression.stderr)")
        let empty = try compare(["--release", "2.4", "--builds", "1,,3"])
        #expect(empty.status == 2 && empty.stderr.contains("has an empty name between commas"), "\(empty.stderr)")
        try record(folder, release: "2.4:ios", build: "7", "fail")
        try record(folder, release: "2.4", build: "ios:7", "pass")
        // Selectors that would leave one of them unread, or compare a build with itself.
        let both = try compare(["--release", "2.4", "--builds", "1,3", "--from", "2.4:1", "--to", "2.4:3"])
        #expect(both.status == 2 && both.stderr.contains("leave out --builds"), "\(both.stderr)")
        let twice = try compare(["--release", "2.4", "--builds", "3,3"])
        #expect(twice.status == 2 && twice.stderr.contains("names build 3 twice"), "\(twice.stderr)")
        let same = try compare(["--from", "2.4:3", "--to", "2.4:3"])
        #expect(same.status == 2 && same.stderr.contains("both name 2.4:3"), "\(same.stderr)")
        let colon = try compare(["--from", "2.4:1", "--to", "2.4:ios:7"])
        #expect(colon.status == 2 && colon.stderr.contains("could mean release \"2.4\" build \"ios:7\" or release \"2.4:ios\" build \"7\""), "\(colon.stderr)")
    }
}
