import CheckrunModel
@testable import CheckrunReports
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A lead reads failures and gaps first, a long note once, and attempt numbers that add up.
@Suite struct AttentionTests {
    static let longNote = "Delete fired on the 4th try. " + String(repeating: "The grabber overlaps the Delete button by 6 pt. ", count: 40) + "The end of the note."

    func makeReport() throws -> (ReportFixture, ReleaseReport) {
        var fixture = try ReportFixture()
        try fixture.add("tiny-target/touch-one-hand", build: "310", verdict: .pass, seconds: 40, counters: ["hits": 10])
        try fixture.add("tiny-target/touch-one-hand", build: "311", verdict: .pass, seconds: 50, counters: ["hits": 10])
        try fixture.add("tiny-target/touch-one-hand", build: "311", verdict: .fail, outcomes: [.fail, .pass], seconds: 55,
                        counters: ["hits": 9], notes: Self.longNote)
        try fixture.add("system-gesture-safe-zone/voiceover", build: "311", verdict: .pass, seconds: 10)
        try fixture.add("system-gesture-safe-zone/larger-text-ax3", build: "311", verdict: .blocked)
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        return (fixture, report)
    }

    @Test func markdownOpensWithFailuresAndGaps() throws {
        let (fixture, report) = try makeReport()
        defer { fixture.folder.remove() }
        let markdown = ReportFormat.markdown.render(report)
        let attention = try #require(markdown.range(of: "## Needs attention\n\n- 1 check failed:\n  - tiny-target/touch-one-hand fails on iPhone 15 (build 311): Delete fired"))
        let tables = try #require(markdown.range(of: "## Protocols"))
        #expect(attention.lowerBound < tables.lowerBound, "before every table")
        #expect(markdown.contains("A and AA criteria have no pass or fail behind them (Not Evaluated, a gap in coverage): 1.1.1, "))
        #expect(markdown.contains("- Checks without a pass or fail: 19 not run, 1 blocked, 0 skipped."))
    }

    @Test func evaluatedCriteriaComeBeforeTheGaps() throws {
        let (fixture, report) = try makeReport()
        defer { fixture.folder.remove() }
        for text in [ReportFormat.markdown.render(report), ReportFormat.html.render(report)] {
            let evaluated = try #require(text.range(of: "2.5.8 Target Size (Minimum)</th>") ?? text.range(of: "| 2.5.8 Target Size (Minimum) |"))
            let gap = try #require(text.range(of: "1.1.1 Non-text Content</th>") ?? text.range(of: "| 1.1.1 Non-text Content |"))
            #expect(evaluated.lowerBound < gap.lowerBound)
        }
    }

    @Test func aLongNoteIsShownInFullOnlyWithItsResult() throws {
        let (fixture, report) = try makeReport()
        defer { fixture.folder.remove() }
        let mapped = (report.criteria.filter { $0.checks.contains("tiny-target/touch-one-hand") && $0.coverage.failed > 0 })
        #expect(mapped.count >= 2, "the check maps to several criteria, each citing the failure")
        for row in mapped {
            #expect(!row.remarks.contains(Self.longNote))
            #expect(row.remarks.contains("… (the full notes are with the result)"), "\(row.remarks)")
        }
        for text in [ReportFormat.markdown.render(report), ReportFormat.html.render(report)] {
            #expect(text.components(separatedBy: "The end of the note.").count - 1 == 1, "the whole note appears once")
        }
        // OpenACR has no section of results to point to: its remarks keep the whole note.
        #expect(ReportFormat.openacr.render(report).contains("The end of the note."))
    }

    @Test func eachFailureLinksToItsResultInHTML() throws {
        let (fixture, report) = try makeReport()
        defer { fixture.folder.remove() }
        let html = ReportFormat.html.render(report)
        let anchor = try #require(html.firstMatch(of: /<li dir="auto"><a href="#(result-[0-9a-f-]{36})">tiny-target\/touch-one-hand fails on iPhone 15/)?.1)
        #expect(html.contains("<tr id=\"\(anchor)\">"), "the link lands on the failing result's row")
        #expect(html.components(separatedBy: "id=\"\(anchor)\"").count == 2, "ids are unique")
    }

    @Test func attemptsAreCountedInTheBuildTheyAreNumberedIn() throws {
        let (fixture, report) = try makeReport()
        defer { fixture.folder.remove() }
        let touch = try #require(report.checks.first { $0.reference.name == "tiny-target/touch-one-hand" }?.results.first)
        #expect(touch.result.attempt == 2 && touch.attempts == 2, "310's attempt is not counted beside 311's two")
        #expect(ReportFormat.markdown.render(report).contains("attempt 2; 2 finished results on this device in build 311"))
    }

    @Test func aFailureOfACheckNoLongerInTheProtocolsStillNeedsAttention() throws {
        var fixture = try ReportFixture()
        defer { fixture.folder.remove() }
        try fixture.add("tiny-target/retired-check", build: "311", verdict: .fail, seconds: 5, notes: "kept, never dropped")
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        let markdown = ReportFormat.markdown.render(report)
        #expect(markdown.contains("- 1 check failed:\n  - tiny-target/retired-check (no longer in the protocols) fails on iPhone 15 (build 311): kept, never dropped"), "\(markdown.prefix(900))")
    }

    /// The gate trips on such a failure, so every format counts it: a dashboard must not read
    /// "0 failed" beside a failed job.
    @Test func everyFormatCountsAFailureOfARemovedCheck() throws {
        var fixture = try ReportFixture()
        defer { fixture.folder.remove() }
        try fixture.add("tiny-target/retired-check", build: "311", verdict: .fail, seconds: 5, notes: "kept, never dropped")
        let report = try ReleaseReport.make(store: fixture.store, library: fixture.library, release: "2.4", build: nil)
        #expect(report.hasFailures)
        let checks = report.checks.count
        #expect(ReportFormat.markdown.render(report).contains("Summary: \(checks + 1) checks (1 no longer in the protocols): 0 passed, 1 failed"))
        let json = try #require(try JSONParser.parse(ReportFormat.json.render(report))["summary"])
        #expect(json["failed"]?.intValue == 1 && json["checks"]?.intValue == checks + 1)
        let junit = ReportFormat.junit.render(report)
        let top = String(junit.components(separatedBy: "<testsuites ").dropFirst().first?.prefix { $0 != ">" } ?? "")
        #expect(top.contains("failures=\"") && !top.contains("failures=\"0\""), "\(top)")
        #expect(junit.contains("<testsuite name=\"no longer in the protocols\" tests=\"1\" failures=\"1\""), "\(junit.prefix(600))")
        #expect(junit.contains("<testcase classname=\"tiny-target\" name=\"retired-check"), "named by the check, then where it was tested")
    }

    /// A note cut short in a row never ends in part of a web address: GFM made the part a link
    /// to a place no one typed ("https://example…"). The address is left out whole.
    @Test func aCutNoteKeepsNoPartOfAnAddress() {
        let padding = String(repeating: "x", count: 140)
        #expect(Attention.cut(padding + " see https://example.com/ticket/12345 now", limit: 160) == padding + " see … (the full notes are with the result)")
        #expect(Attention.cut(padding + " see www.example.com/ticket/12345 now", limit: 160) == padding + " see … (the full notes are with the result)")
        // One that ends where the cut falls is whole, and kept.
        let whole = padding + " see https://a.example/12"
        #expect(Attention.cut(whole + " and more after it", limit: whole.count) == whole + "… (the full notes are with the result)")
    }
}
