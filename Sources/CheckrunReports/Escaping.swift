import CheckrunModel

/// Escaping for each output format. Data from testers is never trusted to be plain text.
enum Escaping {
    /// HTML text and attribute values: every markup character becomes an entity, control
    /// characters and the noncharacters HTML forbids (U+FFFE, U+FDD0 …) become visible marks.
    static func html(_ text: String) -> String {
        // Lead bytes 0xEF and 0xF0… begin every noncharacter; the rest is plain or neutralised.
        if DisplayText.isPlain(text), !text.utf8.contains(where: { [0x26, 0x3C, 0x3E, 0x22, 0x27, 0xEF].contains($0) || $0 >= 0xF0 }) { return text }
        var result = ""
        for character in DisplayText.neutralised(text).unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case _ where isNoncharacter(character): result += "\\u{\(String(character.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// U+FDD0 to U+FDEF and the last two code points of every plane: never text, and forbidden in HTML.
    private static func isNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
    }

    /// Markdown (GFM): tester text renders literally. `<` and `&` become the only character
    /// references (so no HTML passes through, and quotes and `>` stay as typed for tickets and
    /// e-mail), and every character GFM would read as markup, the backslash included, is
    /// escaped with a backslash; control characters and line breaks become visible marks.
    /// A web address is written as an autolink (`<https://…>`), whose content GFM takes
    /// literally but for character references, so its `&` is the one reference in it.
    static func markdown(_ text: String) -> String {
        let safe = DisplayText.neutralised(text)
        guard safe.utf8.contains(where: { Self.markdownSpecial.contains($0) }) else { return safe }
        var result = ""
        var rest = Substring(safe)
        while let link = WebLink.first(in: rest) {
            result += markdownText(rest[..<link.lowerBound])
            result += "<" + rest[link].replacingOccurrences(of: "&", with: "&amp;") + ">"
            rest = rest[link.upperBound...]
        }
        return result + markdownText(rest)
    }

    /// Text outside an address: every character GFM would read as markup escaped.
    private static func markdownText(_ text: Substring) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case "\\", "|", "*", "_", "`", "[", "]", "~", "#", "!":
                result.unicodeScalars.append("\\")
                result.unicodeScalars.append(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static let markdownSpecial: Set<UInt8> = Set("&<\\|*_`[]~#!".utf8)

    /// XML text and attributes. Characters XML 1.0 cannot hold at all (NUL, most C0 controls,
    /// lone surrogates, U+FFFE/U+FFFF) are replaced by visible marks, so the file always parses.
    static func xml(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: result += "&amp;"
            case 0x3C: result += "&lt;"
            case 0x3E: result += "&gt;"
            case 0x22: result += "&quot;"
            case 0x27: result += "&apos;"
            case 0x09: result += "&#9;"
            case 0x0A: result += "&#10;"
            case 0x0D: result += "&#13;"
            case 0x00..<0x20, 0x7F, 0xFFFE, 0xFFFF:
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// One RFC 4180 field. A text cell that a spreadsheet would run as a formula (starting with
    /// = + - @, tab or CR) is prefixed with an apostrophe; line breaks (CR, LF) and tabs are kept, and
    /// every other control character is shown as a `\u{…}` mark. Read by Unicode scalars, not
    /// characters: "\r\n", or a comma followed by a combining accent, is one Swift character,
    /// equal to none of the separators, yet a CSV reader splits on its first scalar.
    static func csv(_ text: String, isNumber: Bool = false) -> String {
        // Control characters and escape sequences become visible marks, as in every other
        // format: a file shown with `cat`, or a spreadsheet cell, is no place for them.
        var value = DisplayText.terminalSafe(text, keepingCarriageReturns: true)
        if !isNumber, let first = value.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
            value = "'" + value
        }
        guard value.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in value.unicodeScalars {
            if scalar == "\"" { quoted.append("\"") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }
}
