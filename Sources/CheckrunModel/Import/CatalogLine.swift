import Foundation

/// One line of a catalog page with its Markdown decoration taken apart: heading marks, list
/// markers and bold labels, so that plain-text and Markdown pages read alike.
struct CatalogLine {
    enum Label: String {
        case profile, task, expected, check, status
    }

    /// 1-based line number in the page.
    var number: Int
    /// The line without surrounding white space, heading marks or quote marks.
    var plain: String
    /// `plain` without a list marker.
    var text: String
    var isIndented: Bool
    var isListItem: Bool
    var isHeading: Bool
    /// How many quote marks (`>`) the line begins with: a code block opened inside a quote
    /// ends with the quote, and a fence in a quote never closes one outside it.
    var quoteDepth = 0
    var label: Label?
    /// What follows the label's colon.
    var value: String = ""

    var isBlank: Bool { text.isEmpty }

    private static let labelPattern = try? NSRegularExpression(
        pattern: #"^[*_]{0,2}(profile|task|expected(?: outcomes?)?|check|status)[*_]{0,2}\s*:[*_]{0,2}\s*(.*)$"#,
        options: [.caseInsensitive])
    private static let listPattern = try? NSRegularExpression(pattern: #"^(?:[-*+•‣◦]|\d{1,3}[.)])\s+"#)

    init(number: Int, raw: String) {
        self.number = number
        // Any space indents, a no-break or an ideographic one too (text copied from the web):
        // an outcome indented with one was read as prose, and left out without a word.
        isIndented = raw.unicodeScalars.first.map(CharacterSet.whitespaces.contains) ?? false
        // Quote marks are dropped in place: a copy of the rest for each, a line of 20,000 took 20 s.
        var unquoted = Self.trimmed(Substring(raw))
        while unquoted.first == ">" {
            unquoted = unquoted.dropFirst().drop(while: Self.isSpace)
            quoteDepth += 1
        }
        var line = String(unquoted)
        isHeading = line.hasPrefix("#")
        if isHeading {
            line = String(line.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces)
            line = line.replacingOccurrences(of: #"\s+#+$"#, with: "", options: .regularExpression)
        }
        plain = line
        let range = NSRange(line.startIndex..., in: line)
        // Each pattern only where it can match: run on every line, they were most of a long page's time.
        let mayBeListItem = line.first.map { "-*+•‣◦".contains($0) || $0.isNumber } ?? false
        if mayBeListItem, let match = Self.listPattern?.firstMatch(in: line, range: range), let markerRange = Range(match.range, in: line) {
            isListItem = true
            line = String(line[markerRange.upperBound...])
        } else {
            isListItem = false
        }
        text = line
        let textRange = NSRange(line.startIndex..., in: line)
        if line.contains(":"), let match = Self.labelPattern?.firstMatch(in: line, range: textRange),
           let nameRange = Range(match.range(at: 1), in: line), let valueRange = Range(match.range(at: 2), in: line) {
            let name = line[nameRange].lowercased()
            label = Label(rawValue: name.hasPrefix("expected") ? "expected" : name)
            var value = String(line[valueRange]).trimmingCharacters(in: .whitespaces)
            // `**Profile: VoiceOver**` closes its emphasis after the value.
            if line.hasPrefix("**") && value.hasSuffix("**") { value = String(value.dropLast(2)) }
            if line.hasPrefix("__") && value.hasSuffix("__") { value = String(value.dropLast(2)) }
            self.value = value.trimmingCharacters(in: .whitespaces)
        }
    }

    /// Whether a character is white space on a line (a no-break or ideographic space too).
    static func isSpace(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy(CharacterSet.whitespaces.contains)
    }

    /// `text` without white space at either end, read in place: Foundation's trimming, which
    /// copies the line through an NSString, was a fifth of a long page's time.
    static func trimmed(_ text: Substring) -> Substring {
        var text = text.drop(while: isSpace)
        while let last = text.last, isSpace(last) { text = text.dropLast() }
        return text
    }

    /// Splits a page into lines, whatever its line ends (LF, CRLF or CR) and with or without a BOM.
    static func rawLines(of page: String) -> [String] {
        var text = page
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return normalized.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
