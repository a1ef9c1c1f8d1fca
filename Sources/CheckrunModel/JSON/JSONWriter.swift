/// Writes JSON the way a person would lay it out by hand: two-space indentation, `"key": value`,
/// keys in the order given, non-ASCII text as itself. Output is stable, so diffs stay small.
///
/// Text is gathered as UTF-8 bytes and made a `String` once at the end: every saved answer's
/// record and every JSON report goes through here, and appending many small strings to a
/// `String` cost more than the rest of a save.
package enum JSONWriter {
    package static func write(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        write(value, indent: 0, into: &output)
        output.append(newline)
        return String(decoding: output, as: UTF8.self)
    }

    /// The value on one line, without a line end: compact JSON for one-line layouts and messages.
    package static func compact(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        writeCompact(value, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// A JSON string literal; control characters are escaped, everything else is kept as typed.
    package static func quoted(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static let newline = UInt8(ascii: "\n")
    private static let quote = UInt8(ascii: "\"")

    /// Indentation, made once: building it per value dominated writing large documents.
    private static let pads: [[UInt8]] = (0...64).map { Array(String(repeating: "  ", count: $0).utf8) }

    static func appendPadding(_ level: Int, to output: inout [UInt8]) {
        if level < pads.count {
            output.append(contentsOf: pads[level])
        } else {
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
        }
    }

    private static func append(_ text: StaticString, to output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    private static func appendScalar(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: append("null", to: &output)
        case .bool(let flag): append(flag ? "true" : "false", to: &output)
        case .integer(let number): output.append(contentsOf: String(number).utf8)
        case .number(let number): appendNumber(number, to: &output)
        case .string(let text): appendQuoted(text, to: &output)
        case .array, .object: break
        }
    }

    /// A whole number without a fraction (`12`, not `12.0`), anything else as Swift prints it.
    /// JSON has no NaN or infinity: Swift would print `nan` or `inf` and leave a document no
    /// reader can parse, so a non-finite number is written as `null`, a missing value. (Every
    /// number a user types is checked before it gets here: `t nan`, `--seconds inf` and
    /// `--threshold nan` are refused where they are typed.)
    static func appendNumber(_ number: Double, to output: inout [UInt8]) {
        output.append(contentsOf: numberText(number).utf8)
    }

    /// A number as JSON writes it: whole numbers without a fraction, the rest in the shortest
    /// form that reads back the same, and `null` for what JSON cannot hold.
    static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        return number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    private static func write(_ value: JSONValue, indent: Int, into output: inout [UInt8]) {
        switch value {
        case .array(let items):
            if items.isEmpty { append("[]", to: &output); return }
            if items.allSatisfy(isShortScalar) {
                let start = output.count
                output.append(UInt8(ascii: "["))
                for (offset, item) in items.enumerated() {
                    if offset > 0 { append(", ", to: &output) }
                    appendScalar(item.value, to: &output)
                }
                output.append(UInt8(ascii: "]"))
                // The limit is in characters; bytes only overcount, so count characters when bytes exceed it.
                let limit = 80 - indent * 2
                if output.count - start <= limit || String(decoding: output[start...], as: UTF8.self).count <= limit { return }
                output.removeSubrange(start...)
            }
            append("[\n", to: &output)
            for (offset, item) in items.enumerated() {
                appendPadding(indent + 1, to: &output)
                write(item.value, indent: indent + 1, into: &output)
                if offset < items.count - 1 { output.append(UInt8(ascii: ",")) }
                output.append(newline)
            }
            appendPadding(indent, to: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { append("{}", to: &output); return }
            append("{\n", to: &output)
            for (offset, member) in members.enumerated() {
                appendPadding(indent + 1, to: &output)
                appendQuoted(member.key, to: &output)
                append(": ", to: &output)
                write(member.value.value, indent: indent + 1, into: &output)
                if offset < members.count - 1 { output.append(UInt8(ascii: ",")) }
                output.append(newline)
            }
            appendPadding(indent, to: &output)
            output.append(UInt8(ascii: "}"))
        default:
            appendScalar(value, to: &output)
        }
    }

    private static func writeCompact(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                writeCompact(item.value, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                appendQuoted(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                writeCompact(member.value.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        default:
            appendScalar(value, to: &output)
        }
    }

    private static func isShortScalar(_ node: JSONNode) -> Bool {
        switch node.value {
        case .string(let text): return text.utf8.count <= 12 || text.count <= 12
        case .integer, .number, .bool, .null: return true
        case .array, .object: return false
        }
    }

    /// Appends `text` as a JSON string literal.
    static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(quote)
        var text = text
        let clean = text.withUTF8 { bytes -> Bool in
            // Most text needs no escape at all: check the bytes once and copy it whole.
            guard isPlain(UnsafeRawBufferPointer(bytes)) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if !clean {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": append("\\\"", to: &output)
                case "\\": append("\\\\", to: &output)
                case "\n": append("\\n", to: &output)
                case "\r": append("\\r", to: &output)
                case "\t": append("\\t", to: &output)
                case "\u{08}": append("\\b", to: &output)
                case "\u{0C}": append("\\f", to: &output)
                case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: output.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        output.append(quote)
    }

    /// Whether no byte needs a look: none below 0x20, no quote, backslash or DEL, and no 0xE2
    /// (which starts U+2028 and U+2029, escaped for JavaScript's sake). Eight bytes at a time:
    /// `verify` writes every result's text to compare it with its record, and a byte-by-byte
    /// scan was the larger part of that. A flagged word always holds such a byte, so the
    /// answer is exact, not a guess.
    static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let below = (word &- ones &* 0x20) & ~word & highs
            if below != 0 || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
                || hasZero(word ^ (ones &* 0x7F)) || hasZero(word ^ (ones &* 0xE2)) {
                return false
            }
            offset += 8
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2 { return false }
            offset += 1
        }
        return true
    }
}
