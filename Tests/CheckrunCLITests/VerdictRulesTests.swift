import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Words a compliance lead signs: conformance that counts its coverage, builds in build order,
/// comparisons that know which way is better.
@Suite struct VerdictRulesTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    func record(_ check: String, build: String = "311", _ extra: [String], in folder: TemporaryFolder) throws {
        let recorded = try checkrun(["record", "--release", "2.4", "--build", build, "--check", check] + extra, in: folder)
        #expect(recorded.status == 0, "\(check) \(extra): \(recorded.stderr)")
    }

    func criterion(_ number: String, in folder: TemporaryFolder) throws -> JSONNode? {
        let report = try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder)
        return try JSONParser.parse(report.stdout)["wcag"]?.arrayValue?.first { $0["criterion"]?.stringValue == number }
    }

    @Test func aCriterionSupportsOnlyWhenEveryMappedCheckPassed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record("tiny-target/touch-one-hand", ["--verdict", "pass"], in: folder)
        var row = try #require(try criterion("2.5.8", in: folder))
        let mapped = (row["checks"]?.arrayValue ?? []).compactMap { $0.stringValue }
        #expect(mapped.count > 1)
        #expect(row["conformance"]?.stringValue == "Incomplete")
        #expect(row["coverage"]?["sentence"]?.stringValue == "1 of \(mapped.count) mapped checks passed; \(mapped.count - 1) not run.")
        #expect(row["remarks"]?.stringValue?.hasPrefix("1 of \(mapped.count) mapped checks passed") == true)
        let markdown = try checkrun(["report", "--release", "2.4"], in: folder).stdout
        #expect(markdown.contains("| Incomplete | ") && markdown.contains("1 of \(mapped.count) mapped checks passed"))
        let openACR = try checkrun(["report", "--release", "2.4", "--format", "openacr"], in: folder).stdout
        #expect(openACR.contains("\"level\": \"\""), "no adherence level on incomplete evidence")
        for check in mapped where check != "tiny-target/touch-one-hand" { try record(check, ["--verdict", "pass"], in: folder) }
        row = try #require(try criterion("2.5.8", in: folder))
        #expect(row["conformance"]?.stringValue == "Supports", "\(row)")
        try record(mapped[0], ["--verdict", "skipped"], in: folder)
        row = try #require(try criterion("2.5.8", in: folder))
        #expect(row["conformance"]?.stringValue == "Incomplete", "a skipped check is no evidence: \(row)")
        try record(mapped[1], ["--verdict", "fail", "--notes", "too small"], in: folder)
        row = try #require(try criterion("2.5.8", in: folder))
        #expect(row["conformance"]?.stringValue == "Partially Supports")
        #expect(row["coverage"]?["sentence"]?.stringValue?.contains("1 failed") == true)
    }

    /// One check of 2.5.8 failed; another passed on one device and was skipped on the other.
    /// That pass is evidence of support: Partially Supports, as in every format, not the Does
    /// Not Support a lead would have pasted beside "1 of them passed on some devices".
    @Test func aFailureBesideACheckPassedOnSomeDevicesPartiallySupports() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record("tiny-target/touch-one-hand", ["--device", "X", "--expected", "2=fail", "--count", "hits=10", "--notes", "Delete fired"], in: folder)
        try record("tiny-target/voice-control-show-numbers", ["--device", "X", "--expected", "1=pass"], in: folder)
        try record("tiny-target/voice-control-show-numbers", ["--device", "Y", "--verdict", "skipped"], in: folder)
        let row = try #require(try criterion("2.5.8", in: folder))
        #expect(row["conformance"]?.stringValue == "Partially Supports", "\(row)")
        let markdown = try checkrun(["report", "--release", "2.4"], in: folder).stdout
        #expect(markdown.contains("| 2.5.8 Target Size (Minimum) | AA | Partially Supports |"), "\(markdown)")
        let openACR = try checkrun(["report", "--release", "2.4", "--format", "openacr"], in: folder).stdout
        #expect(!openACR.contains("does-not-support"), "\(openACR)")
    }

    /// The only check of 2.2.1 passed on one device and was skipped on another: the criterion
    /// read "no pass or fail behind it", a gap in coverage, though a pass stands behind it.
    @Test func aCheckPassedOnOneDeviceAndSetAsideOnAnotherIsIncompleteEvidence() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let check = "motor-accessibility/switch-control-checkout-time"
        try record(check, ["--device", "iPhone 15", "--expected", "1=pass", "--seconds", "50"], in: folder)
        try record(check, ["--device", "iPad Air", "--verdict", "skipped"], in: folder)
        let row = try #require(try criterion("2.2.1", in: folder))
        #expect(row["conformance"]?.stringValue == "Incomplete" && row["coverageGap"]?.value == .bool(false), "\(row)")
        #expect(row["coverage"]?["sentence"]?.stringValue == "0 of 1 mapped check passed; 1 skipped; 1 of them passed on some devices and was set aside on the others.")
        #expect(row["coverage"]?["partlyPassed"]?.intValue == 1, "a reader of the JSON sees the evidence behind Incomplete")
        let markdown = try checkrun(["report", "--release", "2.4"], in: folder).stdout
        // Listed among the criteria with evidence, before those without.
        let table = markdown.components(separatedBy: "\n").filter { $0.hasPrefix("| ") }
        let partly = table.firstIndex { $0.hasPrefix("| 2.2.1 ") }, gap = table.firstIndex { $0.contains("| Not Evaluated |") }
        #expect(partly != nil && gap != nil && partly! < gap!, "\(table)")
        #expect(markdown.contains("| 2.2.1 Timing Adjustable | A | Incomplete |") && markdown.contains("Passed on some devices, set aside on others: \(check) (skipped)."))
        let attention = markdown.components(separatedBy: "no pass or fail behind them").dropFirst().first?.components(separatedBy: "\n").first ?? ""
        #expect(!attention.contains("2.2.1"), "\(attention)")
        let openACR = try checkrun(["report", "--release", "2.4", "--format", "openacr"], in: folder).stdout
        #expect(openACR.contains("To be decided by the compliance lead (incomplete evidence: passes, none failed, some checks not run or set aside): 2.2.1"), "\(openACR)")
    }

    @Test func aBuildTestedLateIsStillTheOlderOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let check = "tiny-target/voice-control-show-numbers"
        try record(check, build: "311", ["--verdict", "fail", "--notes", "numbers overlap"], in: folder)
        try record(check, build: "310", ["--verdict", "pass"], in: folder)
        let report = try JSONParser.parse(try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder).stdout)
        let entry = report["checks"]?.arrayValue?.first { $0["check"]?.stringValue == check }
        #expect(entry?["status"]?.stringValue == "failed", "311 is the newest build and it fails")
        #expect(report["builds"]?.arrayValue?.compactMap(\.stringValue) == ["310", "311"])
        let compared = try checkrun(["compare", "--release", "2.4"], in: folder)
        #expect(compared.stdout.contains("builds 310 → 311"), "\(compared.stdout)")
        #expect(compared.stdout.contains("REGRESSION") && compared.stdout.contains("regressed") && !compared.stdout.contains("fixed"))
        let gate = try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder)
        #expect(gate.status == 3)
    }

    @Test func comparisonsKnowWhichWayIsBetter() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record("tiny-target/touch-one-hand", build: "310", ["--count", "hits=9", "--expected", "2=pass", "--notes", "missed once"], in: folder)
        try record("tiny-target/touch-one-hand", build: "311", ["--count", "hits=10", "--expected", "2=pass"], in: folder)
        try record("motor-accessibility/switch-control-stops-to-pay", build: "310", ["--verdict", "pass", "--count", "stops=10"], in: folder)
        try record("motor-accessibility/switch-control-stops-to-pay", build: "311", ["--verdict", "pass", "--count", "stops=12"], in: folder)
        let compared = try checkrun(["compare", "--release", "2.4", "--fail-on-regression"], in: folder)
        let lines = compared.stdout.split(separator: "\n")
        let hits = lines.filter { $0.contains("hits") }
        #expect(!hits.isEmpty && hits.allSatisfy { !$0.contains("REGRESSION") }, "more hits is better: \(hits)")
        #expect(lines.allSatisfy { !($0.contains("REGRESSION") && $0.contains("fixed")) })
        #expect(lines.contains { $0.contains("REGRESSION") && $0.contains("stops +2") }, "\(compared.stdout)")
        #expect(compared.status == 3, "the growth in stops is a regression")
    }
}

extension VerdictRulesTests {
    @Test func openACRNamesWhatWasRunAndWhoRanIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record("tiny-target/touch-one-hand", build: "310", ["--verdict", "pass", "--tester", "Ana", "--device", "iPhone 15, iOS 18"], in: folder)
        try record("tiny-target/voice-control-show-numbers", build: "312", ["--verdict", "fail", "--notes", "overlap", "--tester", "Ben"], in: folder)
        let yaml = try checkrun(["report", "--release", "2.4", "--format", "openacr", "--product", "Acme Pay"], in: folder).stdout
        #expect(yaml.contains("\"name\": \"Acme Pay\""), "\(yaml.prefix(600))")
        #expect(yaml.contains("\"version\": \"310 to 312\""))
        #expect(yaml.contains("\"name\": \"Ana; Ben\""))
        #expect(yaml.contains("Manual testing on an unnamed device; iPhone 15, iOS 18 with these assistive technologies and settings: “touch, one hand”; “Voice Control, \\\"Show numbers\\\"”."), "\(yaml.prefix(1200))")
        let notes = yaml.split(separator: "\n").first { $0.contains("Generated by checkrun from") } ?? ""
        #expect(notes.components(separatedBy: " checks: ").count == 2, "the count of checks said once: \(notes)")
        for format in ["markdown", "html", "json", "junit", "csv"] {
            #expect(try checkrun(["report", "--release", "2.4", "--format", format, "--product", "Acme Pay"], in: folder).stdout.contains("Acme Pay"), "\(format)")
        }
    }
}

extension VerdictRulesTests {
    @Test func theReportGroupsByAssistiveTechnology() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record("motor-accessibility/switch-control-stops-to-pay", ["--verdict", "pass", "--count", "stops=10"], in: folder)
        let report = try JSONParser.parse(try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder).stdout)
        let rows = (report["profiles"]?.arrayValue ?? []).compactMap { $0["profile"]?.stringValue }
        #expect(rows.filter { $0.hasPrefix("Switch Control") } == ["Switch Control"], "one row for every Switch Control profile: \(rows)")
        #expect(Set(rows).isSubset(of: Set(AssistiveTechnology.allCases.map(\.rawValue))))
        #expect(rows.count == Set(rows).count)
    }
}

extension VerdictRulesTests {
    /// Every format says the same term and coverage for a criterion.
    @Test func everyFormatAgreesOnTermsAndCoverage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try record("tiny-target/touch-one-hand", ["--verdict", "pass"], in: folder)
        try record("tiny-target/voice-control-show-numbers", ["--verdict", "fail", "--notes", "overlap"], in: folder)
        let json = try JSONParser.parse(try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder).stdout)
        // The criteria of the checks with results: every format shows those (CSV on the results' rows).
        let tested: Set<String> = ["tiny-target/touch-one-hand", "tiny-target/voice-control-show-numbers"]
        let rows = (json["wcag"]?.arrayValue ?? []).filter { !tested.isDisjoint(with: ($0["checks"]?.arrayValue ?? []).compactMap(\.stringValue)) }
        #expect(!rows.isEmpty)
        let outputs = try ["markdown", "html", "csv", "junit", "openacr"].map { ($0, try checkrun(["report", "--release", "2.4", "--format", $0], in: folder).stdout) }
        for row in rows {
            let term = try #require(row["conformance"]?.stringValue), sentence = try #require(row["coverage"]?["sentence"]?.stringValue)
            for (format, output) in outputs {
                #expect(output.contains(sentence), "\(format) states the coverage of \(row["criterion"]?.stringValue ?? "")")
                if format != "openacr" { #expect(output.contains(term), "\(format) names \(term)") }
            }
        }
    }
}
