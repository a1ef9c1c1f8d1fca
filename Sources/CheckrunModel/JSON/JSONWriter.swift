/// Writes JSON the way a person would lay it out by hand: two-space indentation, `"key": value`,
/// keys in the order given, non-ASCII text as itself. Output is stable, so diffs stay small.
public enum JSONWriter {
    public static func write(_ value: JSONValue) -> String {
        var output = ""
        write(value, indent: 0, into: &output)
        output += "\n"
        return output
    }

    /// The value on one line, without a line end: compact JSON for one-line layouts and messages.
    public static func compact(_ value: JSONValue) -> String {
        switch value {
        case .array(let items): return "[" + items.map { compact($0.value) }.joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { quoted($0.key) + ":" + compact($0.value.value) }.joined(separator: ",") + "}"
        default:
            var output = ""
            write(value, indent: 0, into: &output)
            return output
        }
    }

    /// Indentation strings, made once: building them per value dominated writing large documents.
    private static let pads: [String] = (0...64).map { String(repeating: "  ", count: $0) }

    private static func padding(_ level: Int) -> String {
        level < pads.count ? pads[level] : String(repeating: "  ", count: level)
    }

    private static func write(_ value: JSONValue, indent: Int, into output: inout String) {
        let pad = padding(indent + 1)
        let closingPad = padding(indent)
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let number): output += String(number)
        case .number(let number):
            output += number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .string(let text): output += quoted(text)
        case .array(let items):
            if items.isEmpty { output += "[]"; return }
            if items.allSatisfy(isShortScalar) {
                let inline = "[" + items.map { write($0.value) .dropLast() }.joined(separator: ", ") + "]"
                if inline.count + indent * 2 <= 80 { output += inline; return }
            }
            output += "[\n"
            for (offset, item) in items.enumerated() {
                output += pad
                write(item.value, indent: indent + 1, into: &output)
                output += offset == items.count - 1 ? "\n" : ",\n"
            }
            output += closingPad + "]"
        case .object(let members):
            if members.isEmpty { output += "{}"; return }
            output += "{\n"
            for (offset, member) in members.enumerated() {
                output += pad + quoted(member.key) + ": "
                write(member.value.value, indent: indent + 1, into: &output)
                output += offset == members.count - 1 ? "\n" : ",\n"
            }
            output += closingPad + "}"
        }
    }

    private static func isShortScalar(_ node: JSONNode) -> Bool {
        switch node.value {
        case .string(let text): return text.count <= 12
        case .integer, .number, .bool, .null: return true
        case .array, .object: return false
        }
    }

    /// A JSON string literal; control characters are escaped, everything else is kept as typed.
    public static func quoted(_ text: String) -> String {
        // Most text needs no escape at all: check the bytes once and copy it whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
