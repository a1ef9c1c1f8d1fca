import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A check removed from the protocols after it failed: the gate trips on its failure, so the
/// WCAG terms must count it too. It was left out of them, and the criterion it was mapped to
/// read Supports in Markdown and OpenACR while the same report exited 3.
@Suite struct RemovedCheckTests {
    static func document(checks: [String]) -> String {
        let all = [
            "a": #"{"id": "a", "profile": "VoiceOver", "task": "do a", "expected": ["x works", "y works"]}"#,
            "b": #"{"id": "b", "profile": "VoiceOver", "task": "do b", "expected": ["z works"]}"#,
        ]
        return #"{"id": "demo", "title": "Demo", "status": "ready", "source": "demo.txt", "wcag": ["1.1.1"], "checks": ["#
            + checks.compactMap { all[$0] }.joined(separator: ", ") + "]}"
    }

    /// checkrun run in `folder`, with the demo protocol (both checks) as its protocol folder.
    static func runner(in folder: TemporaryFolder) throws -> ([String]) throws -> ProcessResult {
        try folder.write("protocols/demo.json", document(checks: ["a", "b"]))
        return { arguments in try Checkrun.run(arguments + ["--protocols", folder.path("protocols")], in: folder.path) }
    }

    /// demo/a failed (expected 1, with a note) and demo/b passed in release 1, build 1; then
    /// demo/a was taken out of the protocol.
    static func failedThenRemoved(in folder: TemporaryFolder) throws -> ([String]) throws -> ProcessResult {
        let run = try runner(in: folder)
        #expect(try run(["record", "--release", "1", "--build", "1", "--check", "demo/a", "--expected", "1=fail", "--expected", "2=pass", "--notes", "x broken"]).status == 0)
        #expect(try run(["record", "--release", "1", "--build", "1", "--check", "demo/b", "--expected", "1=pass"]).status == 0)
        try folder.write("protocols/demo.json", document(checks: ["b"]))
        return run
    }

    @Test func aRemovedChecksFailureBearsOnItsCriteria() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Self.failedThenRemoved(in: folder)

        let markdown = try run(["report", "--release", "1", "--fail-on-failure"])
        #expect(markdown.status == 3)
        #expect(markdown.stdout.contains("| 1.1.1 Non-text Content | A | Partially Supports |"), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("demo/a (no longer in the protocols) fails on an unnamed device (build 1): x broken"))
        #expect(markdown.stdout.contains("- Expected 1, x works: fail"), "the removed result keeps the text it was answered against")
        let openACR = try run(["report", "--release", "1", "--format", "openacr"])
        let criterion = try #require(openACR.stdout.components(separatedBy: "\"num\": \"1.1.1\"").dropFirst().first)
        #expect(criterion.contains("\"level\": \"partially-supports\""), "\(criterion.prefix(400))")
        // Every format names the failure where the WCAG rows count it: the CSV row its profile
        // and criterion, JSON its criteria, the table by assistive technology its failure.
        let csv = try run(["report", "--release", "1", "--format", "csv"]).stdout
        let row = try #require(csv.split(separator: "\n").first { $0.contains("demo/a") })
        #expect(row.contains(",VoiceOver,fail,") && row.contains("1.1.1 Partially Supports: ") && row.contains("(mapped here by the version it failed against)"), "\(row)")
        let json = try run(["report", "--release", "1", "--format", "json"]).stdout
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let removed = try #require((report["removed"] as? [[String: Any]])?.first)
        #expect(removed["criteriaAsAnswered"] as? [String] == ["1.1.1"], "\(removed)")
        #expect((report["profiles"] as? [[String: Any]])?.first?["failed"] as? Int == 1, "\(report["profiles"] ?? "")")
        #expect(markdown.stdout.contains("| VoiceOver | 1 | 1 |"), "\(markdown.stdout)")
    }

    /// A removed check answered not applicable throughout is skipped in JUnit, as a current one
    /// is, not a green testcase: the report counts it as not applicable.
    @Test func aRemovedCheckThatDidNotApplyIsSkippedInJUnit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Self.runner(in: folder)
        #expect(try run(["record", "--release", "1", "--build", "1", "--check", "demo/a", "--expected", "1=na", "--expected", "2=na"]).status == 0)
        try folder.write("protocols/demo.json", Self.document(checks: ["b"]))
        let junit = try run(["report", "--release", "1", "--format", "junit"]).stdout
        let suite = try #require(junit.components(separatedBy: "<testsuite name=\"no longer in the protocols\"").dropFirst().first?.components(separatedBy: "</testsuite>").first)
        #expect(suite.contains("skipped=\"1\"") && suite.contains("<skipped message=\"not applicable"), "\(suite)")
    }

    /// A removed check that failed, whose answered version the database does not keep (deleted
    /// here, as a tamperer would; or recorded before checkrun kept texts): the WCAG terms could
    /// not count its failure, and read "Not Evaluated" where it failed. The report refuses, and
    /// with --unverified says so at its top.
    @Test func aFailureWhoseCriteriaAreUnknownIsNotReportedAsIfTheyWereMet() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Self.failedThenRemoved(in: folder)
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("DELETE FROM protocol_versions")
        raw.close()

        let refused = try run(["report", "--release", "1", "--out", "report.md"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("demo/a failed and is no longer in the protocols, and the database keeps no text of the version it was answered against"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was written") && !FileManager.default.fileExists(atPath: folder.path("report.md")))
        let marked = try run(["report", "--release", "1", "--unverified"])
        #expect(marked.status == 0 && marked.stdout.contains("UNVERIFIED: 1 failed check whose WCAG criteria are unknown"), "\(marked.stdout.prefix(600))")
        let json = try run(["report", "--release", "1", "--unverified", "--format", "json"]).stdout
        #expect(json.contains("\"verified\": false") && json.contains("demo/a failed and is no longer in the protocols"), "\(json.prefix(900))")
        // With the check's text at hand, its failure bears on its criterion again.
        try folder.write("protocols/demo.json", Self.document(checks: ["a", "b"]))
        let named = try run(["report", "--release", "1"])
        #expect(named.status == 0 && named.stdout.contains("| 1.1.1 Non-text Content | A | Partially Supports |"), "\(named.stderr)")
    }
}

/// A check's `wcag` list edited after it failed: the failure counts against the criteria of the
/// version it was found against. Emptying the list turned 2.5.5 from Partially Supports into
/// Supports, and the failed check left the OpenACR, with `lint` and `verify` content.
@Suite struct RemappedCheckTests {
    @Test func aFailureCountsAgainstTheCriteriaOfTheVersionItWasAnsweredAgainst() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let mapped = #"{"id": "demo", "title": "Demo", "status": "ready", "source": "demo.txt", "wcag": [], "checks": [{"id": "a", "profile": "VoiceOver", "task": "do a", "expected": ["x works"], "wcag": ["WCAG"]}, {"id": "b", "profile": "VoiceOver", "task": "do b", "expected": ["z works"], "wcag": ["2.5.5"]}]}"#
        try folder.write("protocols/demo.json", mapped.replacingOccurrences(of: "\"WCAG\"", with: "\"2.5.5\""))
        let run = { (arguments: [String]) in try Checkrun.run(arguments + ["--protocols", folder.path("protocols")], in: folder.path) }
        #expect(try run(["record", "--release", "1", "--build", "1", "--check", "demo/a", "--expected", "1=fail", "--notes", "x broken"]).status == 0)
        #expect(try run(["record", "--release", "1", "--build", "1", "--check", "demo/b", "--expected", "1=pass"]).status == 0)
        // demo/a now maps 1.1.1 instead of 2.5.5.
        try folder.write("protocols/demo.json", mapped.replacingOccurrences(of: "\"WCAG\"", with: "\"1.1.1\""))
        let acr = try run(["report", "--release", "1", "--format", "openacr"])
        #expect(acr.status == 0, "\(acr.stderr)")
        let criterion = acr.stdout.components(separatedBy: "\"num\": \"2.5.5\"").dropFirst().first?.components(separatedBy: "\"num\":").first ?? ""
        #expect(criterion.contains("\"level\": \"partially-supports\"") && criterion.contains("demo/a (mapped here by the version it failed against) fails"), "\(criterion)")
        let markdown = try run(["report", "--release", "1"])
        #expect(markdown.stdout.contains("| 2.5.5 Target Size (Enhanced) | AAA | Partially Supports |"), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("| 1.1.1 Non-text Content | A | Does Not Support |"), "the current mapping counts it too")
        // The failure's own row names both, so a spreadsheet filtered by 2.5.5 finds it.
        let csv = try run(["report", "--release", "1", "--format", "csv"]).stdout
        #expect(csv.contains("1.1.1 Does Not Support") && csv.contains("2.5.5 Partially Supports: ") && csv.contains("(mapped here by the version it failed against)"), "\(csv)")
        let json = try JSONParser.parse(try run(["report", "--release", "1", "--format", "json"]).stdout)
        let failed = json["checks"]?.arrayValue?.first { $0["check"]?.stringValue == "demo/a" }?["results"]?.arrayValue?.first
        #expect(failed?["criteriaAsAnswered"]?.arrayValue?.map { $0.stringValue } == ["2.5.5"], "\(String(describing: failed))")
        // Skipped since, against the current version: the failure behind the skip still counts
        // by the version it was answered against.
        #expect(try run(["record", "--release", "1", "--build", "2", "--check", "demo/a", "--verdict", "skipped"]).status == 0)
        let skipped = try run(["report", "--release", "1"])
        #expect(skipped.stdout.contains("| 2.5.5 Target Size (Enhanced) | AAA | Partially Supports |"), "\(skipped.stdout)")
    }
}
