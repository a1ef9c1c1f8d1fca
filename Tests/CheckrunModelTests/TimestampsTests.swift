import CheckrunModel
import Foundation
import Testing

@Suite struct TimestampsTests {
    @Test func writesUTCWithZeroPadding() {
        #expect(Timestamps.iso8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(Timestamps.iso8601(Date(timeIntervalSince1970: 1_796_000_133.9)) == "2026-11-30T00:55:33Z", "seconds are cut, not rounded")
        #expect(Timestamps.day(Date(timeIntervalSince1970: 1_796_000_133)) == "2026-11-30")
        #expect(Timestamps.iso8601(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
    }

    /// Matches Foundation's own ISO 8601 formatter across many dates.
    @Test func agreesWithFoundation() {
        let formatter = ISO8601DateFormatter()
        for step in 0..<500 {
            let date = Date(timeIntervalSince1970: Double(step) * 7_654_321.0)
            #expect(Timestamps.iso8601(date) == formatter.string(from: date))
        }
    }
}
