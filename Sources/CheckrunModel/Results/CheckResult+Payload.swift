import Foundation

extension CheckResult {
    /// The result's canonical JSON: every field, keys in a fixed order, laid out as
    /// `JSONWriter` lays out any value (Schemas/canonical-forms.md), so the same result always
    /// gives the same text and the same hash.
    ///
    /// Written straight to bytes rather than through a `JSONValue` tree: every answer saved and
    /// every result `verify` compares with its record is written here, and building the tree
    /// cost more than writing the text. A test holds it to the tree's output.
    package var payload: String {
        String(decoding: payloadBytes, as: UTF8.self)
    }

    /// The payload's bytes, for comparing without making a string of them.
    package var payloadBytes: [UInt8] {
        var writer = CanonicalJSONBuilder()
        writer.open("{")
        writer.member("id", string: id.lowercasedText)
        writer.member("check", string: check)
        writer.member("protocolHash", string: protocolHash)
        writer.member("attempt", integer: attempt)
        writer.member("verdict", string: verdict?.rawValue)
        writer.member("blockedReason", string: blockedReason)
        writer.member("tally", integer: tally)
        writer.member("notes", string: notes)
        writer.member("notesAnsweredAt", number: notesAnsweredAt?.timeIntervalSince1970)
        writer.member("startedAt", number: startedAt.timeIntervalSince1970)
        writer.member("updatedAt", number: updatedAt.timeIntervalSince1970)
        writer.key("outcomes")
        writeOutcomes(into: &writer)
        writer.key("counters")
        writer.open("{")
        for (name, counter) in counters.sorted(by: { $0.key < $1.key }) {
            writer.key(name)
            writer.open("{")
            writer.member("value", integer: counter.value)
            writer.member("answeredAt", number: counter.answeredAt.timeIntervalSince1970)
            writer.close("}")
        }
        writer.close("}")
        writer.key("stopwatch")
        writer.open("[")
        for event in stopwatch {
            writer.item()
            writer.open("{")
            writer.member("kind", string: event.kind.rawValue)
            writer.member("at", number: event.at)
            writer.member("typedSeconds", number: event.typedSeconds)
            writer.member("recordedAt", number: event.recordedAt.timeIntervalSince1970)
            writer.close("}")
        }
        writer.close("]")
        // Written only when there are any, so every payload recorded before attachments
        // existed is still exactly the text its hash covers.
        if !attachments.isEmpty { writeAttachments(into: &writer) }
        writer.close("}")
        return writer.finished()
    }

    private func writeAttachments(into writer: inout CanonicalJSONBuilder) {
        writer.key("attachments")
        writer.open("[")
        for attachment in attachments {
            writer.item()
            writer.open("{")
            writer.member("hash", string: attachment.hash)
            writer.member("name", string: attachment.name)
            writer.member("mediaType", string: attachment.mediaType)
            writer.member("size", integer: attachment.size)
            writer.member("description", string: attachment.description)
            writer.member("outcome", integer: attachment.outcome)
            writer.member("attachedAt", number: attachment.attachedAt.timeIntervalSince1970)
            writer.close("}")
        }
        writer.close("]")
    }

    private func writeOutcomes(into writer: inout CanonicalJSONBuilder) {
        // An array of nothing but nulls is a short array: one line, as `JSONWriter` keeps it
        // when it fits in 80 columns less the indentation ("null" and ", " are 6 columns each).
        if !outcomes.isEmpty, outcomes.allSatisfy({ $0 == nil }), outcomes.count * 6 <= 80 - 2 {
            writer.raw("[" + Array(repeating: "null", count: outcomes.count).joined(separator: ", ") + "]")
            return
        }
        writer.open("[")
        for answer in outcomes {
            writer.item()
            guard let answer else { writer.raw("null"); continue }
            writer.open("{")
            writer.member("verdict", string: answer.verdict.rawValue)
            writer.member("value", integer: answer.value)
            writer.member("note", string: answer.note)
            writer.member("answeredAt", number: answer.answeredAt.timeIntervalSince1970)
            writer.close("}")
        }
        writer.close("]")
    }
}

/// Appends JSON in `JSONWriter`'s layout one member at a time: an opening bracket, members or
/// items each on a line of their own indented two spaces a level, and the closing bracket on
/// a line of its own (`{}` and `[]` when empty).
struct CanonicalJSONBuilder {
    private var output: [UInt8] = []
    /// How many brackets are open.
    private var depth = 0
    /// Bit n is set while the bracket opened at depth n has nothing in it yet. Payloads nest
    /// three deep; a bit per level in one word, not an array, since every member asks.
    private var emptyLevels: UInt64 = 0

    init() { output.reserveCapacity(1024) }

    mutating func open(_ bracket: Unicode.Scalar) {
        output.append(UInt8(ascii: bracket))
        emptyLevels |= 1 << UInt64(depth)
        depth += 1
    }

    mutating func close(_ bracket: Unicode.Scalar) {
        depth = max(0, depth - 1)
        let level: UInt64 = 1 << UInt64(depth)
        if emptyLevels & level == 0 {
            output.append(UInt8(ascii: "\n"))
            pad()
        }
        emptyLevels &= ~level
        output.append(UInt8(ascii: bracket))
    }

    /// Starts the next item of an array.
    mutating func item() {
        if depth > 0 {
            let level: UInt64 = 1 << UInt64(depth - 1)
            if emptyLevels & level == 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "\n"))
            emptyLevels &= ~level
        }
        pad()
    }

    /// A key given by a user (a counter's name), escaped as any text is.
    mutating func key(_ name: String) {
        item()
        JSONWriter.appendQuoted(name, to: &output)
        output.append(UInt8(ascii: ":"))
        output.append(UInt8(ascii: " "))
    }

    /// One of the format's own keys: plain ASCII, copied without a look.
    mutating func key(_ name: StaticString) {
        item()
        output.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { output.append(contentsOf: $0) }
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
        output.append(UInt8(ascii: " "))
    }

    mutating func raw(_ text: String) { output.append(contentsOf: text.utf8) }

    mutating func member(_ name: StaticString, string: String?) {
        key(name)
        if let string { JSONWriter.appendQuoted(string, to: &output) } else { raw("null") }
    }

    mutating func member(_ name: StaticString, integer: Int?) {
        key(name)
        raw(integer.map(String.init) ?? "null")
    }

    mutating func member(_ name: StaticString, number: Double?) {
        key(name)
        if let number { JSONWriter.appendNumber(number, to: &output) } else { raw("null") }
    }

    /// The text's bytes, with the line end `JSONWriter.write` ends a document with.
    mutating func finished() -> [UInt8] {
        output.append(UInt8(ascii: "\n"))
        return output
    }

    private mutating func pad() {
        let count = depth * 2
        Self.spaces.withUTF8Buffer { spaces in
            if count <= spaces.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: spaces.prefix(count)))
            } else {
                output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
            }
        }
    }

    private static let spaces: StaticString = "                                "
}
