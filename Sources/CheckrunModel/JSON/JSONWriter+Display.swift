extension JSONWriter {
    /// JSON a person may read (a report, a list printed at a terminal or opened in an editor):
    /// the C1 controls (U+009B starts an escape sequence on many terminals) and the direction
    /// controls that reorder text (U+202E …) are written as `\u` escapes too, so the file shows
    /// them as escapes and a JSON reader gets the same text back. Only the output is rewritten:
    /// the canonical form records are hashed over (`write`) keeps every character as it was.
    /// Such characters stand only inside string literals, so each is replaced wherever it is
    /// (the line ends between members are the layout's, and any in a string is escaped already).
    package static func forReading(_ json: String) -> String {
        guard json.utf8.contains(where: { $0 == 0xC2 || $0 == 0xE2 }),
              json.unicodeScalars.contains(where: escapedForReading) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard escapedForReading(scalar) else {
                result.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(result)
    }

    private static func escapedForReading(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x80 && DisplayText.isMarked(scalar)
    }
}
