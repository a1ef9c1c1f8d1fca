import CheckrunModel
import CheckrunTestSupport
import Foundation
import Testing

/// `report` and `compare` from the built binary, on results recorded by `record`.
@Suite struct ReportCommandTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    func seed(_ folder: TemporaryFolder) throws {
        let records: [[String]] = [
            ["--build", "310", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--seconds", "40", "--count", "hits=10"],
            ["--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "fail", "--seconds", "55", "--count", "hits=9", "--notes", "<b>bold</b> =SUM(A1)"],
            ["--build", "311", "--check", "tiny-target/accessibility-inspector", "--verdict", "pass", "--seconds", "20"],
        ]
        for record in records {
            let result = try checkrun(["record", "--release", "2.4", "--device", "iPhone 15"] + record, in: folder)
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    @Test func reportWritesEveryFormatAndGatesOnFailures() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try seed(folder)
        let markdown = try checkrun(["report", "--release", "2.4"], in: folder)
        #expect(markdown.status == 0)
        #expect(markdown.stdout.hasPrefix("# Accessibility compliance report: release 2.4"))
        #expect(markdown.stdout.contains("&lt;b>bold&lt;/b>"), "only < and & become references; > reads as typed")
        for format in ["html", "json", "csv", "junit", "openacr"] {
            let out = folder.path("report.\(format)")
            let result = try checkrun(["report", "--release", "2.4", "--format", format, "--out", out], in: folder)
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("Wrote \(out)."))
            #expect((try? String(contentsOfFile: out, encoding: .utf8))?.isEmpty == false)
        }
        let gate = try checkrun(["report", "--release", "2.4", "--format", "junit", "--fail-on-failure"], in: folder)
        #expect(gate.status == 3)
        let passing = try checkrun(["report", "--release", "2.4", "--build", "310", "--fail-on-failure"], in: folder)
        #expect(passing.status == 0)
    }

    @Test func reportRefusesBadScopesAndFolders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try seed(folder)
        let release = try checkrun(["report", "--release", "2.5"], in: folder)
        #expect(release.status == 1)
        #expect(release.stderr.contains("no release \"2.5\" in the database. Did you mean \"2.4\"? Known releases: 2.4"))
        let build = try checkrun(["report", "--release", "2.4", "--build", "999"], in: folder)
        #expect(build.stderr.contains("Its builds: 310, 311"))
        let format = try checkrun(["report", "--release", "2.4", "--format", "pdf"], in: folder)
        #expect(format.status == 2)
        let out = try checkrun(["report", "--release", "2.4", "--out", "/no/such/folder/r.md"], in: folder)
        #expect(out.status == 1)
        #expect(out.stderr.contains("the folder /no/such/folder does not exist"))
        let missing = try checkrun(["report"], in: folder)
        #expect(missing.status == 2)
    }

    /// A verdict given without answering the expected outcomes lists each of them "not
    /// answered", in every format that lists outcomes: a lead sees the pass rests on the
    /// tester's word alone.
    @Test func outcomesNotAnsweredAreListedAsSuch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "over-grouped-control/voiceover", "--verdict", "pass"], in: folder).status == 0)
        let markdown = try checkrun(["report", "--release", "2.4"], in: folder).stdout
        #expect(markdown.components(separatedBy: ": not answered\n").count - 1 == 5, "\(markdown)")
        let html = try checkrun(["report", "--release", "2.4", "--format", "html"], in: folder).stdout
        #expect(html.components(separatedBy: ": not answered</li>").count - 1 == 5)
        let json = try JSONParser.parse(try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder).stdout)
        let check = json["checks"]?.arrayValue?.first { $0["check"]?.stringValue == "over-grouped-control/voiceover" }
        let outcomes = check?["results"]?.arrayValue?.first?["outcomes"]?.arrayValue
        #expect(outcomes?.count == 5 && outcomes?.allSatisfy { $0["verdict"]?.value == .null } == true, "\(String(describing: check))")
        let csv = try checkrun(["report", "--release", "2.4", "--format", "csv"], in: folder).stdout
        #expect(csv.contains(",1=;2=;3=;4=;5=,"), "\(csv)")
    }

    @Test func aReleaseWithNoFinishedResultsIsExplained() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let walk = try Checkrun.run(["run", "--release", "3.0", "--build", "1", "--protocols", protocols], in: folder.path, input: "q\n")
        #expect(walk.status == 0)
        let report = try checkrun(["report", "--release", "3.0"], in: folder)
        #expect(report.status == 1)
        #expect(report.stderr.contains("release 3.0 has no finished results yet"))
    }

    @Test func compareFlagsRegressionsAndGates() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try seed(folder)
        let text = try checkrun(["compare", "--release", "2.4"], in: folder)
        #expect(text.status == 0)
        #expect(text.stdout.contains("Comparing release 2.4, builds 310 → 311 (time threshold 20%)"))
        #expect(text.stdout.contains("REGRESSION (verdict pass → fail, time +38%, hits -1)"), "fewer hits is worse against \"at least 10\"")
        let gate = try checkrun(["compare", "--from", "2.4:310", "--to", "2.4:311", "--fail-on-regression", "--format", "json"], in: folder)
        #expect(gate.status == 3)
        #expect(try JSONParser.parse(gate.stdout)["builds"]?.arrayValue?.count == 2)
        let one = try checkrun(["compare", "--release", "2.4", "--builds", "311"], in: folder)
        #expect(one.status == 2)
        #expect(one.stderr.contains("--builds names 1 build (311); a comparison needs two"), "\(one.stderr)")
        let unknown = try checkrun(["compare", "--release", "2.4", "--builds", "310,312"], in: folder)
        #expect(unknown.stderr.contains("release 2.4 has no build \"312\". Its builds: 310, 311"))
        let threshold = try checkrun(["compare", "--threshold", "lots"], in: folder)
        #expect(threshold.status == 2)
    }
}
