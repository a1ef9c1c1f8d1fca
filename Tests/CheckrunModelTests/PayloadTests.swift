import CheckrunModel
import Foundation
import Testing

/// A result's canonical payload is what its record's hash covers: the same result must give
/// the same text in every version of checkrun, or chains recorded earlier would stop verifying.
@Suite struct PayloadTests {
    static func sample() throws -> CheckResult {
        let id = try #require(UUID(uuidString: "0193A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B"))
        let session = try #require(UUID(uuidString: "6F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9"))
        var result = CheckResult(id: id, sessionID: session, check: "tiny-target/switch-control", protocolHash: "abc123",
                                 attempt: 2, outcomeCount: 3, startedAt: Date(timeIntervalSince1970: 1_700_000_000.25))
        result.stopwatch = [StopwatchEvent(.start, at: 0, recordedAt: Date(timeIntervalSince1970: 1_700_000_001)),
                            StopwatchEvent(.pause, at: 12.5, recordedAt: Date(timeIntervalSince1970: 1_700_000_013.5)),
                            StopwatchEvent(.typed, at: 40, typedSeconds: 40, recordedAt: Date(timeIntervalSince1970: 1_700_000_060))]
        result.outcomes = [OutcomeAnswer(.pass, answeredAt: Date(timeIntervalSince1970: 1_700_000_061)), nil,
                           OutcomeAnswer(.fail, value: 7, note: "said \"button\"\ttwice — ⚠︎\u{2028}", answeredAt: Date(timeIntervalSince1970: 1_700_000_062))]
        result.counters = ["stops": CounterValue(14, answeredAt: Date(timeIntervalSince1970: 1_700_000_063)),
                           "hits": CounterValue(9, answeredAt: Date(timeIntervalSince1970: 1_700_000_064))]
        result.tally = 14
        result.notes = "focus lands on the header first; ünïcödé kept as typed"
        result.notesAnsweredAt = Date(timeIntervalSince1970: 1_700_000_065)
        result.verdict = .fail
        result.updatedAt = Date(timeIntervalSince1970: 1_700_000_066.125)
        return result
    }

    /// Written by the first checkrun that recorded payloads (with its line end); it must never change.
    static let recordedPayload = #"""
{
  "id": "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
  "check": "tiny-target/switch-control",
  "protocolHash": "abc123",
  "attempt": 2,
  "verdict": "fail",
  "blockedReason": null,
  "tally": 14,
  "notes": "focus lands on the header first; ünïcödé kept as typed",
  "notesAnsweredAt": 1700000065,
  "startedAt": 1700000000.25,
  "updatedAt": 1700000066.125,
  "outcomes": [
    {
      "verdict": "pass",
      "value": null,
      "note": null,
      "answeredAt": 1700000061
    },
    null,
    {
      "verdict": "fail",
      "value": 7,
      "note": "said \"button\"\ttwice — ⚠︎\u2028",
      "answeredAt": 1700000062
    }
  ],
  "counters": {
    "hits": {
      "value": 9,
      "answeredAt": 1700000064
    },
    "stops": {
      "value": 14,
      "answeredAt": 1700000063
    }
  },
  "stopwatch": [
    {
      "kind": "start",
      "at": 0,
      "typedSeconds": null,
      "recordedAt": 1700000001
    },
    {
      "kind": "pause",
      "at": 12.5,
      "typedSeconds": null,
      "recordedAt": 1700000013.5
    },
    {
      "kind": "typed",
      "at": 40,
      "typedSeconds": 40,
      "recordedAt": 1700000060
    }
  ]
}
"""#

    @Test func payloadTextIsTheOneEarlierVersionsRecorded() throws {
        let payload = try Self.sample().payload
        #expect(payload == Self.recordedPayload + "\n")
        #expect(SHA256.hex(payload) == "e165db0ca86f7e22e4f36b1cf0cb839ae24ef9dc0178f5f1791d691d5118bb4a")
    }

    @Test func payloadReadsBackAsTheSameResult() throws {
        let sample = try Self.sample()
        #expect(CheckResult.decoding(payload: sample.payload, sessionID: sample.sessionID) == sample)
    }

    @Test func shortListsStayOnOneLineAndLongOnesBreak() throws {
        let short = JSONValue.array(["2.5.8", "4.1.2"].map { JSONNode(.string($0)) })
        #expect(JSONWriter.write(short) == "[\"2.5.8\", \"4.1.2\"]\n")
        let long = JSONValue.array((1...12).map { JSONNode(.string("criterion \($0)")) })
        #expect(JSONWriter.write(long).split(separator: "\n").count == 14)
        #expect(JSONWriter.compact(.object([JSONMember("a", JSONNode(short))])) == #"{"a":["2.5.8","4.1.2"]}"#)
    }
}
