import CheckrunModel
import Foundation
import Testing

/// `CheckResult.payload` writes its text directly; here it is held to what `JSONWriter` makes
/// of the same result as a `JSONValue` tree, the layout every stored record was hashed in.
@Suite struct PayloadLayoutTests {
    @Test(arguments: 0..<200) func theDirectTextIsTheTreesText(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let result = try Self.result(&random)
        #expect(result.payload == JSONWriter.write(Self.tree(result)))
    }

    @Test(arguments: [0, 1, 12, 13, 14, 30]) func outcomesLeftUnansweredFitOnOneLineWhileTheyFit(count: Int) throws {
        var result = CheckResult(id: UUID(), sessionID: UUID(), check: "c", protocolHash: "h", attempt: 1, outcomeCount: count,
                                 startedAt: Date(timeIntervalSince1970: 1))
        result.updatedAt = result.startedAt
        #expect(result.payload == JSONWriter.write(Self.tree(result)))
        #expect(result.payload.contains("\"outcomes\": [null") == (1...13).contains(count))
    }

    static let texts = ["", "plain", "Ünïcode ✓ → ×", "quote \" and \\ backslash", "line\nbreak\ttab", "\u{1B}[31mred", "\u{2028}", "long " + String(repeating: "x", count: 90)]

    static func result(_ random: inout SeededRandom) throws -> CheckResult {
        let date = { (random: inout SeededRandom) in Date(timeIntervalSince1970: Double(random.next() % 2_000_000_000) / [1, 2, 1000][Int(random.next() % 3)]) }
        var result = CheckResult(id: UUID(), sessionID: UUID(), check: texts[Int(random.next() % 8)], protocolHash: "abc", attempt: Int(random.next() % 5) + 1,
                                 outcomeCount: Int(random.next() % 16), startedAt: date(&random))
        result.updatedAt = date(&random)
        result.tally = Int(random.next() % 7)
        if random.next() % 2 == 0 { result.notes = texts[Int(random.next() % 8)]; result.notesAnsweredAt = date(&random) }
        if random.next() % 2 == 0 { result.verdict = Verdict.allCases[Int(random.next() % UInt64(Verdict.allCases.count))] }
        if random.next() % 4 == 0 { result.blockedReason = texts[Int(random.next() % 8)] }
        for index in result.outcomes.indices where random.next() % 3 != 0 {
            result.outcomes[index] = OutcomeAnswer(OutcomeVerdict.allCases[Int(random.next() % UInt64(OutcomeVerdict.allCases.count))],
                                                   value: random.next() % 2 == 0 ? Int(random.next() % 100) - 50 : nil,
                                                   note: random.next() % 2 == 0 ? texts[Int(random.next() % 8)] : nil, answeredAt: date(&random))
        }
        for _ in 0..<Int(random.next() % 3) {
            result.counters[texts[Int(random.next() % 8)]] = CounterValue(Int(random.next() % 20), answeredAt: date(&random))
        }
        for _ in 0..<Int(random.next() % 4) {
            let kind = StopwatchEvent.Kind.allCases[Int(random.next() % 5)]
            result.stopwatch.append(StopwatchEvent(kind, at: Double(random.next() % 10_000) / 7, typedSeconds: kind == .typed ? 12.5 : nil,
                                                   recordedAt: date(&random)))
        }
        for _ in 0..<Int(random.next() % 3) {
            result.attachments.append(CheckrunModel.Attachment(hash: String(repeating: "ab", count: 32), name: texts[Int(random.next() % 8)], mediaType: "image/png",
                                                 size: Int(random.next() % 1_000_000), description: texts[Int(random.next() % 8)],
                                                 outcome: random.next() % 2 == 0 ? Int(random.next() % 4) + 1 : nil, attachedAt: date(&random)))
        }
        return result
    }

    /// The payload as a tree, member for member as Schemas/canonical-forms.md lists it.
    static func tree(_ result: CheckResult) -> JSONValue {
        func member(_ key: String, _ value: JSONValue) -> JSONMember { JSONMember(key, JSONNode(value)) }
        func number(_ date: Date?) -> JSONValue { date.map { .number($0.timeIntervalSince1970) } ?? .null }
        return .object([
            member("id", .string(result.id.lowercasedText)), member("check", .string(result.check)),
            member("protocolHash", .string(result.protocolHash)), member("attempt", .integer(result.attempt)),
            member("verdict", result.verdict.map { .string($0.rawValue) } ?? .null),
            member("blockedReason", result.blockedReason.map(JSONValue.string) ?? .null), member("tally", .integer(result.tally)),
            member("notes", result.notes.map(JSONValue.string) ?? .null), member("notesAnsweredAt", number(result.notesAnsweredAt)),
            member("startedAt", number(result.startedAt)), member("updatedAt", number(result.updatedAt)),
            member("outcomes", .array(result.outcomes.map { answer in
                JSONNode(answer.map { answer in .object([
                    member("verdict", .string(answer.verdict.rawValue)), member("value", answer.value.map(JSONValue.integer) ?? .null),
                    member("note", answer.note.map(JSONValue.string) ?? .null), member("answeredAt", number(answer.answeredAt)),
                ]) } ?? .null)
            })),
            member("counters", .object(result.counters.sorted { $0.key < $1.key }.map { name, counter in
                member(name, .object([member("value", .integer(counter.value)), member("answeredAt", number(counter.answeredAt))]))
            })),
            member("stopwatch", .array(result.stopwatch.map { event in
                JSONNode(.object([
                    member("kind", .string(event.kind.rawValue)), member("at", .number(event.at)),
                    member("typedSeconds", event.typedSeconds.map(JSONValue.number) ?? .null), member("recordedAt", number(event.recordedAt)),
                ]))
            })),
        ] + (result.attachments.isEmpty ? [] : [
            member("attachments", .array(result.attachments.map { attachment in
                JSONNode(.object([
                    member("hash", .string(attachment.hash)), member("name", .string(attachment.name)),
                    member("mediaType", .string(attachment.mediaType)), member("size", .integer(attachment.size)),
                    member("description", .string(attachment.description)),
                    member("outcome", attachment.outcome.map(JSONValue.integer) ?? .null), member("attachedAt", number(attachment.attachedAt)),
                ]))
            })),
        ]))
    }
}

/// A small deterministic generator (SplitMix64), so a failing case can be run again by its seed.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
