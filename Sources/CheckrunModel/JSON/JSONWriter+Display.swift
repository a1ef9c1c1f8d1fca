extension JSONWriter {
    /// JSON a person may read (a report, a list printed at a terminal or opened in an editor):
    /// the C1 controls (U+009B starts an escape sequence on many terminals), the line and
    /// paragraph separators and the direction controls that reorder text (U+202E …) are written
    /// as `\u` escapes too, so the file shows them as escapes and a JSON reader gets the same
    /// text back. Only the output is rewritten: the canonical form records are hashed over
    /// (`write`) keeps every character as it was. Such characters stand only inside string
    /// literals, so each is replaced wherever it is. Read as bytes: a report of a million
    /// results is tens of megabytes, nearly always without one.
    package static func forReading(_ json: String) -> String {
        var json = json
        let rewritten: String? = json.withUTF8 { bytes in
            guard var at = firstMarked(bytes, from: 0) else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 64)
            var start = 0
            while true {
                output.append(contentsOf: bytes[start..<at])
                let length = bytes[at] == 0xC2 ? 2 : 3
                let value = length == 2 ? UInt32(bytes[at + 1])
                    : (UInt32(bytes[at] & 0x0F) << 12) | (UInt32(bytes[at + 1] & 0x3F) << 6) | UInt32(bytes[at + 2] & 0x3F)
                let hex = String(value, radix: 16, uppercase: true)
                output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                start = at + length
                guard let next = firstMarked(bytes, from: start) else { break }
                at = next
            }
            output.append(contentsOf: bytes[start...])
            return String(decoding: output, as: UTF8.self)
        }
        return rewritten ?? json
    }

    /// The offset of the next such character's first byte: C2 80–9F (U+0080–009F), E2 80 A8–AE
    /// (U+2028–202E) or E2 81 A6–A9 (U+2066–2069).
    private static func firstMarked(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        let end = bytes.count
        while index < end {
            switch bytes[index] {
            case 0xC2 where index + 1 < end && (0x80...0x9F).contains(bytes[index + 1]):
                return index
            case 0xE2 where index + 2 < end && (bytes[index + 1] == 0x80 && (0xA8...0xAE).contains(bytes[index + 2])
                                                 || bytes[index + 1] == 0x81 && (0xA6...0xA9).contains(bytes[index + 2])):
                return index
            default:
                index += 1
            }
        }
        return nil
    }
}
