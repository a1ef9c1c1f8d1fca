import CheckrunModel
import Foundation
import Testing

/// `PayloadMembers` finds a payload's last members without parsing it; a cited verification
/// compares a result's own fields and counters through it and reads its active time from the
/// stopwatch member alone.
@Suite struct PayloadMembersTests {
    @Test(arguments: 0..<200) func theMembersAreFoundWhereverTheTextPutsThem(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let result = try PayloadLayoutTests.result(&random)
        let payload = result.payloadBytes
        try payload.withUnsafeBytes { bytes in
            let members = try #require(PayloadMembers(bytes))
            let text = { (range: Range<Int>) in String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            #expect(text(members.ownFields).hasSuffix(",") && !text(members.ownFields).contains("\"outcomes\""))
            #expect(text(members.countersMember).hasPrefix("\n  \"counters\": {") && text(members.countersMember).hasSuffix(","))
            #expect(try JSONParser.parse(text(members.stopwatchValue)).arrayValue?.count == result.stopwatch.count)
            #expect(members.stopwatchEvents(in: bytes) == result.stopwatch)
            #expect((members.attachments != nil) == !result.attachments.isEmpty)
            #expect(PayloadMembers(bytes, outcomesAt: members.outcomes) == members, "told where the outcomes are, it finds the same")
            #expect(PayloadMembers(bytes, outcomesAt: members.outcomes - 1) == nil && PayloadMembers(bytes, outcomesAt: members.counters) == nil)
        }
    }

    @Test(arguments: 0..<100) func onlyTheOwnFieldsAndCountersAreCompared(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let result = try PayloadLayoutTests.result(&random)
        var partsOnly = result
        partsOnly.outcomes = []
        partsOnly.stopwatch = []
        partsOnly.attachments = []
        #expect(Self.same(result, partsOnly) == true, "outcomes, stopwatch and attachments are left out")
        var edited = partsOnly
        edited.verdict = result.verdict == .pass ? .fail : .pass
        #expect(Self.same(result, edited) == false)
        edited = partsOnly
        edited.counters["stops"] = CounterValue((result.counters["stops"]?.value ?? 0) + 1, answeredAt: result.startedAt)
        #expect(Self.same(result, edited) == false)
        edited = partsOnly
        edited.updatedAt = result.updatedAt.addingTimeInterval(0.001)
        #expect(Self.same(result, edited) == false)
    }

    @Test func aPayloadOutOfTheCanonicalLayoutHasNoMembers() {
        for text in ["{}", "{\"id\":\"x\",\"outcomes\":[],\"counters\":{},\"stopwatch\":[]}", "",
                     "{\n  \"outcomes\": [],\n  \"counters\": {},\n  \"stopwatch\": [],\n  \"extra\": 1\n}\n",
                     "{\n  \"counters\": {},\n  \"outcomes\": [],\n  \"stopwatch\": []\n}\n",
                     "{\n  \"outcomes\": [],\n  \"counters\": {},\n  \"stopwatch\": []\n}"] {
            var text = text
            #expect(text.withUTF8 { PayloadMembers(UnsafeRawBufferPointer($0)) } == nil, "\(text)")
        }
        var bare = "{\n  \"outcomes\": [],\n  \"counters\": {},\n  \"stopwatch\": []\n}\n"
        #expect(bare.withUTF8 { PayloadMembers(UnsafeRawBufferPointer($0)) } != nil)
    }

    /// A counter named like a member is a line indented further, never taken for one.
    @Test func aCounterNamedLikeAMemberIsNotOne() throws {
        var result = CheckResult(id: UUID(), sessionID: UUID(), check: "c", protocolHash: "h", attempt: 1, outcomeCount: 1,
                                 startedAt: Date(timeIntervalSince1970: 1))
        result.counters["stopwatch"] = CounterValue(3, answeredAt: Date(timeIntervalSince1970: 2))
        result.notes = "line\n  \"stopwatch\": [] "
        try result.payloadBytes.withUnsafeBytes { bytes in
            let members = try #require(PayloadMembers(bytes))
            #expect(members.stopwatchEvents(in: bytes) == [])
            #expect(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[members.countersMember]), as: UTF8.self).contains("\"value\": 3"))
        }
    }

    @Test func aStopwatchInAnotherLayoutIsParsedAndAnythingButANumberIsRefused() throws {
        let compact = "[{\"kind\": \"typed\", \"at\": 1, \"typedSeconds\": 12.5, \"recordedAt\": 3}]"
        #expect(Self.events(compact) == [StopwatchEvent(.typed, at: 1, typedSeconds: 12.5, recordedAt: Date(timeIntervalSince1970: 3))])
        let canonical = "[\n    {\n      \"kind\": \"stop\",\n      \"at\": AT,\n      \"typedSeconds\": null,\n      \"recordedAt\": 2\n    }\n  ]"
        #expect(Self.events(canonical.replacingOccurrences(of: "AT", with: "30.8")) == [StopwatchEvent(.stop, at: 30.8, recordedAt: Date(timeIntervalSince1970: 2))])
        for number in ["0", "-0", "12.5", "1e+20", "2.5E-3", "-7"] {
            #expect(Self.events(canonical.replacingOccurrences(of: "AT", with: number))?.first?.at == Double(number), "\(number)")
        }
        for hostile in ["0x10", "inf", "nan", "1_0", "--1", "01", "1.", "-.5", ".5", "1e", "+1", ""] {
            #expect(Self.events(canonical.replacingOccurrences(of: "AT", with: hostile)) == nil, "\(hostile)")
        }
        // Valid JSON but not a number: refused as a whole payload's events are (`decodeEvents`),
        // never read as 0.
        #expect(Self.events(canonical.replacingOccurrences(of: "AT", with: "\"3\"")) == nil)
        #expect(Self.events(canonical.replacingOccurrences(of: "\"stop\"", with: "\"lap\"").replacingOccurrences(of: "AT", with: "3")) == nil)
    }

    /// The events a payload whose stopwatch member holds `value` gives.
    private static func events(_ value: String) -> [StopwatchEvent]? {
        var text = "{\n  \"outcomes\": [],\n  \"counters\": {},\n  \"stopwatch\": \(value)\n}\n"
        return text.withUTF8 { bytes in PayloadMembers(UnsafeRawBufferPointer(bytes))?.stopwatchEvents(in: UnsafeRawBufferPointer(bytes)) }
    }

    private static func same(_ one: CheckResult, _ other: CheckResult) -> Bool? {
        one.payloadBytes.withUnsafeBytes { first in other.payloadBytes.withUnsafeBytes { PayloadMembers.sameFieldsAndCounters(first, $0) } }
    }
}
