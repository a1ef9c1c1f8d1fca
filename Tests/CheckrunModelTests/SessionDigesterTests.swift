import CheckrunModel
import Foundation
import Testing

/// The digester gives every session the digest its chain was started from, byte for byte as
/// `Session.digest`, whatever its plan: empty, short enough for one line, long, shared with
/// other sessions, or holding text that reads like the layout itself.
@Suite struct SessionDigesterTests {
    static let plans: [[String]] = [
        [], ["a/b"], ["tiny-target/touch-one-hand", "tiny-target/voice-control-show-numbers"],
        (1...130).map { "bench-screen-\($0)/check-\($0 % 7)" },
        ["x\", \"plan\": [],\n", "é\u{301}", "\u{1B}[2J", "tab\there", "一二三", String(repeating: "w", count: 79)],
        [String(repeating: "a", count: 30), String(repeating: "b", count: 30)],
        [String(repeating: "a", count: 36), String(repeating: "b", count: 36)],
    ]

    @Test func everyDigestIsTheSessionsOwn() {
        var digester = SessionDigester()
        for (index, plan) in Self.plans.enumerated() {
            for release in ["2.4", "\"plan\": [],", "r\n2"] {
                let session = Session(id: UUID(), release: release, build: "31\(index)", device: "iPhone \"15\"", osVersion: "18.1", tester: "Ana",
                                      plan: plan, startedAt: Date(timeIntervalSince1970: 1_800_000_000.123456 + Double(index)))
                let stored = JSONWriter.compact(.array(plan.map { JSONNode(.string($0)) }))
                #expect(digester.plan(stored: stored) == plan)
                #expect(digester.digest(of: session, storedPlan: stored) == session.digest, "\(plan.prefix(3)) \(release)")
            }
        }
    }
}
