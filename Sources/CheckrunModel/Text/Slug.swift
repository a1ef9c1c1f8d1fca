import Foundation

/// Ids for protocols and checks: lower-case ASCII letters and digits joined by single hyphens.
package enum Slug {
    /// The slug of a title, e.g. `Voice Control, "Show numbers"` → `voice-control-show-numbers`.
    /// Accents are folded (é → e) so that ids stay stable and typeable.
    /// Only visible text counts: a terminal escape sequence in a page (`ESC [31m`) adds nothing.
    package static func make(_ text: String) -> String {
        let folded = visible(text).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if pendingHyphen && !slug.isEmpty { slug += "-" }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingHyphen = true
            }
        }
        return slug.lowercased()
    }

    package static func isValid(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix("-") && !text.hasSuffix("-") && !text.contains("--")
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// The text without terminal escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL or
    /// ESC \\`, and two-character `ESC x`) and without other control characters.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }) else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                guard let kind = scalars.next() else { break }
                if kind == "[" {
                    while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
                } else if kind == "]" {
                    var previous: Unicode.Scalar?
                    while let next = scalars.next(), next.value != 0x07, !(previous == "\u{1B}" && next == "\\") { previous = next }
                }
            case 0x00..<0x20, 0x7F..<0xA0:
                result.append(" ")
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }
}
