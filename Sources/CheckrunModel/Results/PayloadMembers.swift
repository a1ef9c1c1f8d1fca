import Foundation

/// Where a payload's last members lie in its canonical layout, found without parsing it: a
/// top-level member's line is a line end, exactly two spaces and a quote (a string never holds
/// a raw line end, and members nested deeper are indented further).
///
/// A check that needs only some of a result's fields compares those stretches byte for byte
/// with the same stretches of the payload rebuilt from the tables, and leaves the rest unread:
/// a report rests on every result's own fields, counters and active time, but shows the
/// outcomes, stopwatch and attachments of the latest results only (`VerificationDepth`).
package struct PayloadMembers: Equatable, Sendable {
    /// The offsets of the line ends that open the `outcomes`, `counters`, `stopwatch` and
    /// (when there is one) `attachments` lines, and of the one before the closing brace (the
    /// payload's text ends with that brace and a line end).
    package var outcomes: Int
    package var counters: Int
    package var stopwatch: Int
    package var attachments: Int?
    package var end: Int

    /// nil unless the payload ends with the members `outcomes`, `counters`, `stopwatch` and
    /// perhaps `attachments`, in that order and nothing after them, closed by a line with "}".
    /// Looks back from the end, so the result's own fields before them are not read; given
    /// where the outcomes' line should be (where another payload's is, when the two hold the
    /// same own fields), the outcomes are not read either, only that their line is there.
    package init?(_ bytes: UnsafeRawBufferPointer, outcomesAt expected: Int? = nil) {
        guard bytes.count >= 3, bytes[bytes.count - 3] == Self.lineEnd, bytes[bytes.count - 2] == UInt8(ascii: "}"),
              bytes[bytes.count - 1] == Self.lineEnd else { return nil }
        end = bytes.count - 3
        var before = end
        var attachments: Int?
        var found: [Int] = []
        let wanted = expected == nil ? 3 : 2
        while found.count < wanted, let line = Self.previousMemberLine(in: bytes, before: before) {
            before = line
            // From the last: perhaps attachments, then stopwatch, counters and outcomes.
            if found.isEmpty, attachments == nil, Self.opens(bytes, at: line, member: Self.keys[3]) {
                attachments = line
                continue
            }
            guard Self.opens(bytes, at: line, member: Self.keys[2 - found.count]) else { return nil }
            found.append(line)
        }
        if let expected {
            guard found.count == 2, expected < found[1], Self.opens(bytes, at: expected, member: Self.keys[0]) else { return nil }
            found.append(expected)
        }
        guard found.count == 3 else { return nil }
        stopwatch = found[0]
        counters = found[1]
        outcomes = found[2]
        self.attachments = attachments
    }

    /// Everything before the outcomes: the result's own fields, each line ending with its comma.
    package var ownFields: Range<Int> { 0..<outcomes }

    /// The counters' line through the comma that ends their value.
    package var countersMember: Range<Int> { counters..<stopwatch }

    /// The stopwatch's value alone (a JSON array), without the comma that may follow it.
    package var stopwatchValue: Range<Int> {
        let start = stopwatch + Self.keys[2].count
        let stop = attachments.map { $0 - 1 } ?? end
        return start..<max(start, stop)
    }

    /// Whether two payloads hold the same own fields and counters, byte for byte; nil when
    /// either is not in the canonical layout.
    package static func sameFieldsAndCounters(_ one: UnsafeRawBufferPointer, _ other: UnsafeRawBufferPointer) -> Bool? {
        guard let mine = PayloadMembers(one), let theirs = PayloadMembers(other) else { return nil }
        return mine.sameFieldsAndCounters(in: one, as: theirs, in: other)
    }

    /// Whether this payload's own fields and counters are, byte for byte, the other's.
    package func sameFieldsAndCounters(in bytes: UnsafeRawBufferPointer, as other: PayloadMembers, in otherBytes: UnsafeRawBufferPointer) -> Bool {
        UnsafeRawBufferPointer(rebasing: bytes[ownFields]).hasSameBytes(as: UnsafeRawBufferPointer(rebasing: otherBytes[other.ownFields]))
            && UnsafeRawBufferPointer(rebasing: bytes[countersMember]).hasSameBytes(as: UnsafeRawBufferPointer(rebasing: otherBytes[other.countersMember]))
    }

    /// The stopwatch events the payload lists, read from its stopwatch member alone; nil when
    /// that member is not a list. Read line by line in the canonical layout (parsing the
    /// member for every result a report rests on cost a tenth of its time), else parsed.
    package func stopwatchEvents(in bytes: UnsafeRawBufferPointer) -> [StopwatchEvent]? {
        let value = UnsafeRawBufferPointer(rebasing: bytes[stopwatchValue])
        if let events = CanonicalStopwatch.events(value) { return events }
        guard let list = (try? JSONParser.parse(String(decoding: value, as: UTF8.self)))?.arrayValue else { return nil }
        return CheckResult.decodeEvents(list)
    }

    private static let lineEnd = UInt8(ascii: "\n")
    /// Each member's line as it opens, from its line end to the space before its value.
    private static let keys = ["outcomes", "counters", "stopwatch", "attachments"].map { Array("\n  \"\($0)\": ".utf8) }

    /// The offset of the last line end before `limit` that opens a top-level member.
    private static func previousMemberLine(in bytes: UnsafeRawBufferPointer, before limit: Int) -> Int? {
        var line = limit - 1
        while line >= 0 {
            if bytes[line] == lineEnd, line + 3 < bytes.count, bytes[line + 1] == 0x20, bytes[line + 2] == 0x20,
               bytes[line + 3] == UInt8(ascii: "\"") { return line }
            line -= 1
        }
        return nil
    }

    private static func opens(_ bytes: UnsafeRawBufferPointer, at line: Int, member key: [UInt8]) -> Bool {
        guard line + key.count <= bytes.count else { return false }
        return key.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: bytes[line..<line + key.count]).hasSameBytes(as: $0) }
    }
}
