import CheckrunModel
import Testing

/// The writer copies text whole when no byte needs escaping and looks at eight bytes at a
/// time to decide: every character that must be escaped is escaped at every position of a
/// word, and everything else is kept as typed.
@Suite struct JSONEscapeTests {
    /// What `JSONWriter.quoted` must give, one character at a time.
    static func reference(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static let needingEscape: [String] = ["\"", "\\", "\n", "\u{00}", "\u{1F}", "\u{1B}", "\u{7F}", "\u{2028}", "\u{2029}", "\t"]
    /// Near misses: bytes beside the escaped ones that must be kept as they are.
    static let keptAsTyped: [String] = [" ", "!", "#", "[", "]", "~", "é", "€", "\u{2027}", "\u{202A}", "😀", "\u{80}", "\u{FF}"]

    @Test func escapesEveryCharacterAtEveryPositionOfAWord() {
        for special in Self.needingEscape + Self.keptAsTyped {
            for length in 0..<20 {
                for position in 0...length {
                    let text = String(repeating: "a", count: position) + special + String(repeating: "b", count: length - position)
                    #expect(JSONWriter.quoted(text) == Self.reference(text), "\(text.unicodeScalars.map { $0.value })")
                }
            }
        }
    }

    @Test func plainTextOfEveryLengthIsCopiedWhole() {
        for length in 0..<40 {
            let text = String((0..<length).map { Character(Unicode.Scalar(UInt8(0x20 + ($0 * 7) % 0x5E))) }).replacing("\"", with: "'").replacing("\\", with: "/")
            #expect(JSONWriter.quoted(text) == "\"" + text + "\"")
        }
    }
}

/// JSON for reading: the characters a person's screen would act on, escaped; nothing else.
@Suite struct JSONForReadingTests {
    @Test func everyMarkedCharacterAboveASCIIIsEscapedAndTheRestKept() throws {
        let marked: [UInt32] = [0x80, 0x85, 0x9B, 0x9F, 0x2028, 0x2029, 0x202A, 0x202E, 0x2066, 0x2069]
        let kept: [UInt32] = [0xA0, 0xE9, 0x200E, 0x200F, 0x2027, 0x202F, 0x2065, 0x206A, 0x201C, 0x1F600]
        for value in marked + kept {
            let scalar = try #require(Unicode.Scalar(value))
            let text = "a" + String(Character(scalar)) + "b"
            let json = JSONWriter.forReading(JSONWriter.write(.object([JSONMember("notes", JSONNode(.string(text)))])))
            #expect(json.unicodeScalars.contains(scalar) == !marked.contains(value), "U+\(String(value, radix: 16))")
            #expect(try JSONParser.parse(json)["notes"]?.stringValue == text, "reads back as typed")
        }
        let plain = JSONWriter.write(.array([JSONNode(.string("“Close”, button — ×"))]))
        #expect(JSONWriter.forReading(plain) == plain)
    }
}
