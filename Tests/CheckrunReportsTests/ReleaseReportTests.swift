import CheckrunModel
import CheckrunReports
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct ReleaseReportTests {
    /// Release 2.4: build 310 then 311, two devices, a failure with hostile notes, a blocked
    /// check, a result for a check that no longer exists.
    func makeFixture() throws -> ReportFixture {
        var fixture = try ReportFixture()
        try fixture.add("tiny-target/touch-one-hand", build: "310", verdict: .pass, seconds: 40, counters: ["hits": 10])
        try fixture.add("tiny-target/touch-one-hand", build: "311", verdict: .fail, outcomes: [.fail, .pass], seconds: 55, counters: ["hits": 9], notes: ReportFixture.hostileNote)
        try fixture.add("tiny-target/touch-one-hand", build: "311", device: "iPad", verdict: .pass, seconds: 30, counters: ["hits": 10])
        try fixture.add("tiny-target/accessibility-inspector", build: "311", verdict: .pass, seconds: 20)
        try fixture.add("tiny-target/voice-control-show-numbers", build: "311", verdict: .fail, seconds: 12, notes: "numbers 3 and 4 overlap")
        try fixture.add("over-grouped-control/voiceover", build: "311", verdict: .fail, seconds: 90)
        try fixture.add("over-grouped-control/switch-control", build: "311", verdict: .fail, seconds: 80)
        try fixture.add("system-gesture-safe-zone/voiceover", build: "311", verdict: .pass, seconds: 10)
        try fixture.add("system-gesture-safe-zone/larger-text-ax3", build: "311", verdict: .blocked)
        try fixture.add("tiny-target/retired-check", build: "311", verdict: .fail, seconds: 5, notes: "kept, never dropped")
        return fixture
    }

    @Test func theSummaryCountsEveryCheckInTheProtocolsIncludingNotRun() throws {
        let fixture = try makeFixture()
        defer { fixture.folder.remove() }
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        #expect(report.checks.count == 22)
        #expect(report.summary[.passed] == 2)
        #expect(report.summary[.failed] == 5, "touch-one-hand fails on iPhone 15 even though it passes on iPad; the retired check's failure counts too")
        #expect(report.summary[.blocked] == 1)
        #expect(report.summary[.notRun] == 15)
        #expect(report.builds == ["310", "311"])
        #expect(report.devices == ["iPad", "iPhone 15"])
        #expect(report.removed.map(\.result.check) == ["tiny-target/retired-check"])
        let touch = try #require(report.checks.first { $0.reference.name == "tiny-target/touch-one-hand" })
        #expect(touch.results.count == 2, "the latest result per device")
        // Attempts are numbered per build: 310's attempt is not counted beside 311's first.
        #expect(touch.results.first { $0.device == "iPhone 15" }?.attempts == 1, "finished attempts in the result's build on that device")
        #expect(touch.results.first { $0.device == "iPhone 15" }?.result.attempt == 1, "the first attempt of build 311")
        #expect(touch.results.first { $0.device == "iPhone 15" }?.build == "311")
        #expect(report.hasFailures)
    }

    @Test func conformanceTermsFollowTheMappedChecks() throws {
        let fixture = try makeFixture()
        defer { fixture.folder.remove() }
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        func row(_ number: String) -> ReleaseReport.CriterionRow? { report.criteria.first { $0.criterion.number == number } }
        #expect(row("2.5.8")?.conformance == .partiallySupports, "tiny-target passes one check, fails two")
        #expect(row("2.1.1")?.conformance == .doesNotSupport, "both over-grouped checks fail")
        #expect(row("2.5.7")?.conformance == .incomplete, "system-gesture-safe-zone: one pass, one blocked, one not run: never Supports")
        #expect(row("2.5.7")?.coverage.sentence == "1 of 3 mapped checks passed; 1 blocked; 1 not run.")
        #expect(row("2.2.1")?.conformance == .notEvaluated)
        #expect(row("2.2.1")?.isCoverageGap == true)
        #expect(row("1.1.1")?.isCoverageGap == true && row("1.1.1")?.remarks == "No mapped checks. No protocol maps this criterion.")
        #expect(row("2.5.5")?.criterion.level == .aaa, "AAA criteria a protocol maps are listed")
        #expect(row("2.5.5")?.isCoverageGap == false)
        #expect(row("1.2.6") == nil, "AAA criteria nobody maps are left out")
        #expect(report.criteria.filter { $0.criterion.level != .aaa }.count == 55, "every A and AA criterion of WCAG 2.2")
        #expect(row("2.5.8")?.remarks.contains("tiny-target/voice-control-show-numbers fails on iPhone 15 (build 311): numbers 3 and 4 overlap") == true)
        let voiceOver = report.profiles.first { $0.profile == "VoiceOver" }
        #expect(voiceOver?.counts[.passed] == 1 && voiceOver?.counts[.failed] == 1)
    }

    @Test func readingOnlyTheLastTwoBuildsGivesTheSameChanges() throws {
        var fixture = try makeFixture()
        defer { fixture.folder.remove() }
        try fixture.add("tiny-target/touch-one-hand", build: "312", verdict: .pass, seconds: 70, counters: ["hits": 10])
        let full = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil, history: .allBuilds)
        let short = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil, history: .lastTwoBuilds)
        #expect(full.history?.scopes.count == 3 && short.history?.scopes.count == 2)
        #expect(ReportFormat.markdown.render(full).replacingOccurrences(of: generatedLine(full), with: "")
                == ReportFormat.markdown.render(short).replacingOccurrences(of: generatedLine(short), with: ""))
        #expect(full.changes?.labels == ["311", "312"])
        #expect(full.changes?.checks.first { $0.check == "tiny-target/touch-one-hand" && $0.device == "iPhone 15" }?.changes.first?.verdictChange == .fixed)
    }

    private func generatedLine(_ report: ReleaseReport) -> String {
        "generated " + Timestamps.iso8601(report.generatedAt)
    }

    @Test func oneBuildOnlyAndUnknownScopes() throws {
        let fixture = try makeFixture()
        defer { fixture.folder.remove() }
        let only310 = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: "310")
        #expect(only310.summary[.passed] == 1 && only310.summary[.failed] == nil)
        #expect(only310.changes == nil)
        #expect { try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.5", build: nil) } throws: {
            "\($0)".contains("no release \"2.5\" in the database. Did you mean \"2.4\"? Known releases: 2.4")
        }
        #expect { try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: "999") } throws: {
            "\($0)".contains("release 2.4 has no build \"999\". Its builds: 310, 311")
        }
    }

    @Test func theJSONReportFollowsItsSchema() throws {
        let fixture = try makeFixture()
        defer { fixture.folder.remove() }
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        let schemaNode = try JSONParser.parse(try Repository.text("Schemas/report.schema.json"))
        #expect(JSONSchema.keywordsUsed(in: schemaNode).subtracting(JSONSchema.supportedKeywords).isEmpty)
        let document = try JSONParser.parse(ReportFormat.json.render(report))
        let violations = JSONSchema(schemaNode).validate(document)
        #expect(violations.isEmpty, "\(violations.prefix(5).map { "\($0.pointer): \($0.message)" })")
        #expect(document["summary"]?["notRun"]?.intValue == 15)
        let changes = try #require(document["changes"]?["checks"]?.arrayValue)
        #expect(changes.contains { $0["check"]?.stringValue == "tiny-target/touch-one-hand" })
        // The validator is not a rubber stamp: a wrong field is caught.
        var broken = document
        if case .object(var members) = broken.value {
            members.append(JSONMember("extra", JSONNode(.bool(true))))
            broken = JSONNode(.object(members))
        }
        #expect(!JSONSchema(schemaNode).validate(broken).isEmpty)
    }

    @Test func junitStaysValidXMLWhateverTheNotesHold() throws {
        let fixture = try makeFixture()
        defer { fixture.folder.remove() }
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        let xml = ReportFormat.junit.render(report)
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        let criteria = report.criteria.filter { !$0.checks.isEmpty }
        let failingCriteria = criteria.filter { $0.conformance == .doesNotSupport || $0.conformance == .partiallySupports }.count
        #expect(collector.elements["testsuite"] == 5 + 1 + 1, "a suite per protocol, one of checks no longer in the protocols and one of the WCAG criteria")
        #expect(collector.elements["testcase"] == 23 + 1 + criteria.count, "one per check and device, one for each check not run, the retired check's, and a criterion each")
        #expect(collector.elements["failure"] == 4 + 1 + failingCriteria)
        // What junit-10.xsd (Jenkins xunit) allows inside a testcase, and properties only on a suite.
        let allowed: Set<String> = ["testcase > failure", "testcase > error", "testcase > skipped", "testcase > system-out", "testcase > system-err"]
        #expect(collector.nesting.filter { $0.hasPrefix("testcase >") }.isSubset(of: allowed), "\(collector.nesting)")
        #expect(collector.nesting.filter { $0.hasSuffix("> properties") } == ["testsuite > properties"])
        #expect(collector.attributes.contains { $0.key == "name" && $0.value.contains(" on ") }, "a testcase is named by its check and where it was tested")
        #expect(collector.elements["error"] == 1, "blocked")
        #expect(collector.text.contains("<script>alert('x')</script> ]]>"), "the notes come back as text")
        #expect(collector.attributes.contains { $0.key == "time" && $0.value == "55.000" })
    }

    @Test func csvParsesBackAndNeutralisesFormulas() throws {
        var fixture = try makeFixture()
        defer { fixture.folder.remove() }
        try fixture.add("over-grouped-control/voiceover", build: "311", device: "iPad", verdict: .fail, notes: "=HYPERLINK(\"x\")\nsecond line, with comma")
        // "\r\n" and a comma with a combining accent are each one Swift character, but two
        // scalars a CSV reader splits on.
        try fixture.add("over-grouped-control/voiceover", build: "311", device: "iPhone,\u{301} mini", verdict: .fail,
                        notes: "Delete fired\r\n=1+2\r\n@SUM(1+9)")
        try fixture.add("over-grouped-control/voiceover", build: "311", device: "iPad mini", verdict: .fail, notes: "beep\u{7}\u{1B}]52;c;eA==\u{7} \u{9B}2J")
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        let rows = CSV.parse(ReportFormat.csv.render(report))
        #expect(rows.first?.count == 28)
        #expect(rows.first?.suffix(7) == ["product", "criteria", "attachments", "failed_earlier", "counted_as", "os_version", "over_time_limit"])
        #expect(rows.dropFirst().allSatisfy { $0.count == 28 })
        #expect(rows.count == 1 + 12, "one row per latest result, the removed check included")
        let notes = rows.dropFirst().map { $0[14] }
        #expect(notes.contains("'=HYPERLINK(\"x\")\nsecond line, with comma"))
        #expect(notes.contains { $0.unicodeScalars.elementsEqual("Delete fired\r\n=1+2\r\n@SUM(1+9)".unicodeScalars) })
        #expect(rows.contains { $0[2].unicodeScalars.elementsEqual("iPhone,\u{301} mini".unicodeScalars) }, "the device stays one cell")
        #expect(notes.contains(DisplayText.terminalSafe(ReportFixture.hostileNote)))
        #expect(notes.contains("beep\\u{7}\\u{1B}]52;c;eA==\\u{7} \\u{9B}2J"), "control characters are marks, as in every format: \(notes)")
        let cells: [String] = rows.dropFirst().reduce([], +)
        #expect(!cells.contains { cell in cell.first.map { "=+@".contains($0) } ?? false })
        #expect(rows.contains { $0[5] == "tiny-target/retired-check" && $0[16] == "removed" })
    }

    @Test func htmlIsSelfContainedAccessibleAndHoldsNoTagFromData() throws {
        let fixture = try makeFixture()
        defer { fixture.folder.remove() }
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        let html = ReportFormat.html.render(report)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("\u{1B}") && !html.contains("\u{0}"))
        // Noncharacters are forbidden in HTML: shown as marks, as control characters are.
        var named = report
        named.product = "App" + String(String.UnicodeScalarView([UInt32(0xFFFE), 0xFDD0, 0x10FFFF].compactMap(Unicode.Scalar.init)))
        let page = ReportFormat.html.render(named)
        #expect(!page.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0xFDD0 || $0.value == 0x10FFFF } && page.contains("App\\u{FFFE}"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; ]]&gt; &quot;quoted&quot;"))
        #expect(html.contains("<caption>Conformance by success criterion</caption>"))
        // Reflow at 320 px: every table scrolls inside its own labelled, focusable region, and
        // the regions' names are unique on the page.
        let regions = html.components(separatedBy: "role=\"region\" tabindex=\"0\" aria-label=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(regions.count == html.components(separatedBy: "<table>").count - 1, "every table is in a region")
        #expect(Set(regions).count == regions.count, "\(regions)")
        #expect(html.contains(".scroll{overflow-x:auto") && html.contains("@media print{") && html.contains("thead{display:table-header-group}"))
        // A long word (a build "2024.12.01+sha.a1b2c3d", a product's bundle id) breaks anywhere
        // in every element that shows one, headings included: a heading 352 px wide failed reflow.
        #expect(html.contains("td,th,li,p,h1,h2,h3,h4,caption,dt,dd,figcaption{overflow-wrap:anywhere}"))
        #expect(html.contains("<td dir=\"auto\">"), "tester text in right-to-left scripts keeps its punctuation")
        #expect(html.contains("<th scope=\"col\">Conformance</th>"))
        #expect(html.contains("<td class=\"partially-supports\">Partially Supports</td>"), "the verdict is in words; colour only adds")
        #expect(html.contains("<svg role=\"img\" aria-labelledby=\"chart-tiny-target-touch-one-hand-title"))
        #expect(html.contains("Median active time per build on iPhone 15: build 310 40 seconds, build 311 55 seconds."), "per device, never pooled")
        let links = html.components(separatedBy: "http").count - 1
        #expect(links == html.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count - 1, "no link but the SVG namespace")
        #expect(!html.contains("src=") && !html.contains("<link"))
    }

    @Test func openACRValidatesAgainstItsSchemaAndLeavesGapsToTheLead() throws {
        let fixture = try makeFixture()
        defer { fixture.folder.remove() }
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        let schemaNode = try JSONParser.parse(try Repository.text("Tests/Fixtures/openacr-0.1.0.json"))
        #expect(JSONSchema.keywordsUsed(in: schemaNode).subtracting(JSONSchema.supportedKeywords).isEmpty)
        let yaml = ReportFormat.openacr.render(report)
        let document = try JSONParser.parse(YAMLSubset.toJSON(yaml))
        let violations = JSONSchema(schemaNode).validate(document)
        #expect(violations.isEmpty, "\(violations.prefix(5).map { "\($0.pointer): \($0.message)" })")
        let levelA = try #require(document["chapters"]?["success_criteria_level_a"])
        let criteria = try #require(levelA["criteria"]?.arrayValue)
        let keyboard = try #require(criteria.first { $0["num"]?.stringValue == "2.1.1" })
        #expect(keyboard["components"]?.arrayValue?.first?["adherence"]?["level"]?.stringValue == "does-not-support")
        let nonText = try #require(criteria.first { $0["num"]?.stringValue == "1.1.1" })
        #expect(nonText["components"]?.arrayValue?.first?["adherence"] == nil, "no evidence: left for the lead")
        #expect(levelA["notes"]?.stringValue?.contains("To be completed by the compliance lead") == true)
        #expect(document["catalog"]?.stringValue == "2.5-edition-wcag-2.2-en")
    }

    /// YAML refuses DEL, the C1 controls and U+FFFE/U+FFFF raw, and folds U+0085, U+2028 and
    /// U+2029 in a quoted scalar into a space. Controls and line separators are shown as marks,
    /// as in every format a person reads; the noncharacters are escaped and read back as themselves.
    @Test func openACRHoldsEveryCharacterAYAMLReaderWouldRefuseOrFold() throws {
        var fixture = try makeFixture()
        defer { fixture.folder.remove() }
        let hostile = "App\u{7F}\u{85}\u{9B}\u{2028}\u{2029}\u{FFFE}\u{FFFF} é"
        try fixture.add("over-grouped-control/voiceover", build: "311", verdict: .fail, notes: "Delete fired \(hostile)")
        var report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        report.product = hostile
        let yaml = ReportFormat.openacr.render(report)
        #expect(!yaml.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || [0x2028, 0x2029, 0xFFFE, 0xFFFF].contains($0.value) })
        let shown = "App\\u{7F}\\u{85}\\u{9B}\\u{2028}\\u{2029}\u{FFFE}\u{FFFF} é"
        #expect(yaml.contains("App\\\\u{7F}\\\\u{85}\\\\u{9B}\\\\u{2028}\\\\u{2029}\\uFFFE\\uFFFF é"), "\(yaml)")
        let document = try JSONParser.parse(YAMLSubset.toJSON(yaml))
        #expect(document["product"]?["name"]?.stringValue?.unicodeScalars.elementsEqual(shown.unicodeScalars) == true, "\(document["product"]?["name"]?.stringValue ?? "")")
    }

    @Test func markdownShowsEveryPartOfTheReport() throws {
        let fixture = try makeFixture()
        defer { fixture.folder.remove() }
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        let markdown = ReportFormat.markdown.render(report)
        #expect(markdown.contains("- Summary: 23 checks (1 no longer in the protocols): 2 passed, 5 failed, 1 blocked, 0 skipped, 15 not run"))
        #expect(markdown.contains("| 2.5.8 Target Size (Minimum) | AA | Partially Supports |"))
        #expect(markdown.contains("| 2.2.1 Timing Adjustable | A | Not Evaluated (gap in coverage) |"))
        #expect(markdown.contains("#### tiny-target/touch-one-hand: failed"))
        #expect(markdown.contains("- Counters: hits 9"))
        #expect(markdown.contains("## Results for checks no longer in the protocols"))
        #expect(markdown.contains("## Changes since build 310"))
        #expect(markdown.contains("- tiny-target/touch-one-hand on iPhone 15: 310 → 311: REGRESSION (verdict pass → fail"))
        #expect(!markdown.contains("<script>"))
    }
}
