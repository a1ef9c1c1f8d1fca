/// Text typed by a tester is stored exactly as typed, but shown neutralised: control characters
/// and terminal escape sequences become visible `\u{…}` marks, so a pasted escape can never
/// move the cursor, change colours or retitle a tester's terminal.
package enum DisplayText {
    package static func neutralised(_ text: String) -> String {
        if isPlain(text) { return text }
        var result = ""
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { afterCarriageReturn = scalar.value == 0x0D }
            switch scalar.value {
            case 0x09: result += " "
            // A line break, CR LF (a Windows paste) and a lone CR as much as LF: one " / ".
            case 0x0A where afterCarriageReturn: break
            case 0x0A, 0x0D: result += " / "
            case _ where isMarked(scalar):
                result += mark(scalar)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text for a terminal that keeps its line breaks and tabs (a report, a list, a message of
    /// several lines) and shows every other control character, escape sequence, C1 control and
    /// line or bidirectional mark as a visible `\u{…}` mark. `keepingCarriageReturns` keeps CR
    /// as well, for a CSV cell, where a note's CRLF is a line break a spreadsheet reads.
    package static func terminalSafe(_ text: String, keepingCarriageReturns: Bool = false) -> String {
        let kept = { (byte: UInt32) in byte == 0x0A || byte == 0x09 || keepingCarriageReturns && byte == 0x0D }
        let needsPass = text.utf8.contains { ($0 < 0x20 && !kept(UInt32($0))) || $0 == 0x7F || isMarkLead($0) }
        if !needsPass { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case _ where kept(scalar.value): result.unicodeScalars.append(scalar)
            case _ where isMarked(scalar):
                result += mark(scalar)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// True when no byte of the text can start a control character, a C1 control or a
    /// line or bidirectional mark: such text is shown as it is, without a per-character pass.
    package static func isPlain(_ text: String) -> Bool {
        !text.utf8.contains { $0 < 0x20 || $0 == 0x7F || isMarkLead($0) }
    }

    /// True when the text is one line of plain text, shown as it is: no line break, control
    /// character or direction control, the characters `neutralised` would mark. A label, a
    /// product name: text that stands inside a line checkrun writes, never a line of its own.
    package static func isOneLinePlain(_ text: String) -> Bool {
        isPlain(text) || !text.unicodeScalars.contains(where: isMarked)
    }

    /// The visible `\u{…}` mark shown in place of a character.
    private static func mark(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }

    /// The direction controls that reorder the text after them: embeddings, overrides, isolates.
    static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// What is shown as a `\u{…}` mark: control characters (C0, DEL, C1), line and paragraph
    /// separators, and the direction controls that reorder text (embeddings, overrides,
    /// isolates). The left-to-right, right-to-left and Arabic letter marks are left as they
    /// are: they belong to correct Hebrew and Arabic text and move nothing across them.
    package static func isMarked(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029: true
        default: isDirectionControl(scalar)
        }
    }

    /// The UTF-8 lead bytes of the marked characters above U+007F (C2: C1 controls; E2: U+2028
    /// to U+2069).
    @inline(__always) private static func isMarkLead(_ byte: UInt8) -> Bool {
        byte == 0xC2 || byte == 0xE2
    }

    /// A neutralised text cut to `limit` characters, saying how much was left out.
    package static func preview(_ text: String, limit: Int = 200) -> String {
        let safe = neutralised(text)
        guard safe.count > limit else { return safe }
        return String(safe.prefix(limit)) + "… (\(text.count) characters in all)"
    }
}
