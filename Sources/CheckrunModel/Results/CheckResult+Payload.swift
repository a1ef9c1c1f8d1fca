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
