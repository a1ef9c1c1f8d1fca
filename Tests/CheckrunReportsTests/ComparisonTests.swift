import CheckrunModel
@testable import CheckrunReports
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

@Suite struct ComparisonTests {
    let stops = "motor-accessibility/switch-control-stops-to-pay"
    let touch = "tiny-target/touch-one-hand"
    let inspector = "tiny-target/accessibility-inspector"

    func compare(_ fixture: ReportFixture, _ builds: [String], threshold: Double = 20) throws -> Comparison {
        try Comparison.make(store: fixture.store, scopes: builds.map { ResultStore.BuildScope(release: "2.4", build: $0) },
                            threshold: threshold, known: Set(fixture.library.allChecks.map(\.name)),
                            judge: CountFailureJudge(store: fixture.store, releases: ["2.4"], protocols: { fixture.library }))
    }

    @Test func mediansAcrossAttemptsAndTestersAndTheFlagsTheyRaise() throws {
        var fixture = try ReportFixture()
        defer { fixture.folder.remove() }
        for (seconds, count, tester) in [(10.0, 12, "Ana"), (20.0, 14, "Ben"), (60.0, 13, "Ana")] {
            try fixture.add(stops, build: "310", tester: tester, verdict: .pass, seconds: seconds, counters: ["stops": count])
        }
        for (seconds, count) in [(22.0, 14), (26.0, 16)] {
            try fixture.add(stops, build: "311", verdict: .pass, seconds: seconds, counters: ["stops": count])
        }
        let comparison = try compare(fixture, ["310", "311"])
        let row = try #require(comparison.checks.first { $0.check == stops })
        #expect(row.builds[0]?.medianSeconds == 20)
        #expect(row.builds[0]?.medianCounters["stops"] == 13)
        #expect(row.builds[1]?.medianSeconds == 24)
        #expect(row.builds[1]?.medianCounters["stops"] == 15)
        let change = try #require(row.changes.first)
        #expect(change.secondsDelta == 4)
        #expect(change.percentDelta == 20)
        #expect(change.flags == ["stops +2"], "20% is not more than the 20% threshold; a counter that grew is flagged")
        let stricter = try compare(fixture, ["310", "311"], threshold: 10)
        #expect(stricter.checks.first { $0.check == stops }?.changes.first?.flags == ["time +20%", "stops +2"])
    }

    @Test func verdictChangesFixedRegressedNewAndNoLongerRun() throws {
        var fixture = try ReportFixture()
        defer { fixture.folder.remove() }
        try fixture.add(touch, build: "310", verdict: .fail, seconds: 30)
        try fixture.add(touch, build: "311", verdict: .pass, seconds: 30)
        try fixture.add(inspector, build: "310", verdict: .pass, seconds: 30)
        try fixture.add(inspector, build: "311", verdict: .fail, seconds: 30)
        try fixture.add(stops, build: "310", verdict: .pass, seconds: 30)
        try fixture.add("tiny-target/voice-control-show-numbers", build: "311", verdict: .pass, seconds: 5)
        let comparison = try compare(fixture, ["310", "311"])
        func change(_ name: String) -> BuildChange? { comparison.checks.first { $0.check == name }?.changes.first }
        #expect(change(touch)?.verdictChange == .fixed && change(touch)?.flags.isEmpty == true)
        #expect(change(inspector)?.verdictChange == .regressed && change(inspector)?.flags == ["verdict pass → fail"])
        #expect(change(stops)?.verdictChange == .noLongerRun)
        #expect(change("tiny-target/voice-control-show-numbers")?.verdictChange == .new)
        #expect(comparison.regressions.count == 1)
    }

    /// A build label holding escape sequences and a line end, in every line of the text format
    /// (the heading too), can neither act on a terminal nor begin a line of its own.
    @Test func theTextFormatNeutralisesEveryLineTheHeadingToo() throws {
        var fixture = try ReportFixture()
        defer { fixture.folder.remove() }
        let hostile = "2\u{1B}]0;PWNED\u{07}\u{1B}[2J\nfake line"
        try fixture.add(touch, build: "1", verdict: .pass, seconds: 30)
        try fixture.add(touch, build: hostile, verdict: .fail, seconds: 30, notes: "x")
        let text = ComparisonFormat.text.render(try compare(fixture, ["1", hostile]))
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(text)")
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("fake line") }, "\(text)")
        #expect(text.split(separator: "\n").first?.contains("builds 1 → 2") == true)
    }

    @Test func aChangedProtocolIsShownInsteadOfATimingVerdict() throws {
        var fixture = try ReportFixture()
        defer { fixture.folder.remove() }
        try fixture.add(stops, build: "310", verdict: .pass, seconds: 10, counters: ["stops": 10], protocolHash: "old")
        try fixture.add(stops, build: "311", verdict: .pass, seconds: 30, counters: ["stops": 20])
        let comparison = try compare(fixture, ["310", "311"])
        let change = try #require(comparison.checks.first?.changes.first)
        #expect(change.protocolChanged)
        #expect(change.flags.isEmpty, "a slower time under a changed protocol is not a regression")
        #expect(ComparisonFormat.text.render(comparison).contains("310 → 311: check changed, time and counts not compared"))
    }

    @Test func everyFormatRendersAndTheCSVAndJSONParseBack() throws {
        var fixture = try ReportFixture()
        defer { fixture.folder.remove() }
        try fixture.add(touch, build: "310", verdict: .pass, seconds: 30, counters: ["hits": 10])
        try fixture.add(touch, build: "311", verdict: .fail, seconds: 45, counters: ["hits": 8])
        let comparison = try compare(fixture, ["310", "311"])
        let text = ComparisonFormat.text.render(comparison)
        // The terminal's text says times in words, as speech reads them; tables keep figures.
        #expect(text.contains("tiny-target/touch-one-hand on iPhone 15\n  310: median 30 seconds, hits 10, pass (1 result)\n  311: median 45 seconds, hits 8, fail (1 result)"), "\(text)")
        #expect(text.contains("310 → 311: REGRESSION (verdict pass → fail, time +50%): regressed, time 15 seconds longer (+50%), hits -2"), "without the protocols, only growth is flagged")
        #expect(text.hasSuffix("1 regression flagged.\n"))
        let markdown = ComparisonFormat.markdown.render(comparison)
        #expect(markdown.contains("| Check and device | 310 | 311 | Changes |"))
        #expect(markdown.contains("| median 30.0 s, hits 10, pass (1 result) |") && markdown.contains("time +15.0 s (+50%)"))
        let json = try JSONParser.parse(ComparisonFormat.json.render(comparison))
        #expect(json["checks"]?.arrayValue?.first?["changes"]?.arrayValue?.first?["regression"]?.value == .bool(true))
        let csv = CSV.parse(ComparisonFormat.csv.render(comparison))
        #expect(csv.count == 2)
        #expect(csv[1][0] == touch && csv[1][1] == "iPhone 15" && csv[1][7] == "50.00" && csv[1][13] == "yes")
    }
}


extension ComparisonTests {
    @Test func compareJSONFollowsItsSchema() throws {
        var fixture = try ReportFixture()
        defer { fixture.folder.remove() }
        try fixture.add(touch, build: "310", verdict: .pass, seconds: 30, counters: ["hits": 10])
        try fixture.add(touch, build: "311", verdict: .fail, seconds: 45, counters: ["hits": 8])
        let comparison = try compare(fixture, ["310", "311"])
        let schema = JSONSchema(try JSONParser.parse(try Repository.text("Schemas/compare.schema.json")))
        let document = try JSONParser.parse(ComparisonFormat.json.render(comparison))
        #expect(schema.validate(document).isEmpty, "\(schema.validate(document))")
    }

    /// Said in words, a time keeps the precision of the figures compared: a flagged change is
    /// never said to be no change.
    @Test func smallTimesAndChangesAreSaidAsPreciselyAsTheyWereMeasured() throws {
        var fixture = try ReportFixture()
        defer { fixture.folder.remove() }
        try fixture.add(touch, build: "310", verdict: .pass, seconds: 0.1, counters: ["hits": 10])
        try fixture.add(touch, build: "311", verdict: .pass, seconds: 0.14, counters: ["hits": 10])
        let text = ComparisonFormat.text.render(try compare(fixture, ["310", "311"]))
        #expect(text.contains("310: median 0.1 seconds") && text.contains("311: median 0.14 seconds"), "\(text)")
        #expect(text.contains("time 0.04 seconds longer (+40%)"), "\(text)")
        #expect(ReportPhrases.seconds(59.96) == "59.96 seconds" && ReportPhrases.seconds(65) == "1 minute 5 seconds")
        // A change too small for a whole percent is "under 1%", never "-0%".
        try fixture.add(touch, build: "312", verdict: .pass, seconds: 100.0, counters: ["hits": 10])
        try fixture.add(touch, build: "313", verdict: .pass, seconds: 99.96, counters: ["hits": 10])
        let small = ComparisonFormat.text.render(try compare(fixture, ["312", "313"]))
        #expect(small.contains("time 0.04 seconds shorter (under 1%)"), "\(small)")
        #expect(ReportPhrases.timeDelta(-0.04, inWords: false) == "-0.04 s" && ReportPhrases.timeDelta(0.004, inWords: false) == "+0.004 s")
        #expect(ReportPhrases.timeDelta(5, inWords: false) == "+5.0 s" && ReportPhrases.timeDelta(0.05, inWords: false) == "+0.1 s")
        #expect(ReportPhrases.percent(0) == "0%" && ReportPhrases.percent(-0.4) == "under 1%" && ReportPhrases.percent(-0.6) == "-1%")
    }
}
