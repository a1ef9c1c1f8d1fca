/// The list items a line of a page stands in, as CommonMark reads them: the column where each
/// open item's content begins, innermost last. A fence opened inside an item ends where the
/// item ends, and a fence line indented four columns past its item's content (or the margin)
/// is a line of indented code, no fence. Read otherwise, a fence left open at the end of an
/// item, or a line of indented code holding ```` ``` ````, paired with the page's next fence
/// and hid every check between them.
///
/// Only lines outside quotes open items here; a quote's own fences are paired by quote depth
/// (`LongestClosers`).
struct ListItems {
    private(set) var columns: [Int] = []
    /// Whether the last line read was paragraph text, which a less indented line continues
    /// (a lazy continuation) without ending the item.
    private var afterParagraph = false

    /// The content column of the innermost open item; 0 outside every item.
    var innermost: Int { columns.last ?? 0 }

    /// Takes in a line outside code and comments: a blank line keeps the items open, a line
    /// indented less than an item's content ends that item unless it continues a paragraph,
    /// and a list item opens one (nested when indented as far as the item it follows).
    /// `opensFence`: the line is a fence line, which never continues a paragraph.
    mutating func read(_ line: String, quoted: Bool, opensFence: Bool) {
        guard quoted || !Self.isBlank(line) else {
            afterParagraph = false
            return
        }
        let indent = Self.indentColumns(line)
        let item = quoted ? nil : Self.start(of: line)
        let startsBlock = item != nil || quoted || opensFence || Self.dropIndent(line).hasPrefix("#")
        if !(afterParagraph && !startsBlock) {
            while let column = columns.last, indent < column { columns.removeLast() }
        }
        if let item { columns.append(item.column) }
        afterParagraph = !opensFence && !Self.dropIndent(line).hasPrefix("#") && !(item.map { $0.content.isEmpty } ?? false)
    }

    /// Where the content of the list item `line` opens begins, and that content; nil when the
    /// line opens no item. CommonMark's markers only (`-`, `*`, `+`, or up to nine digits and
    /// `.` or `)`), followed by white space or the line's end; one to four columns after the
    /// marker are the item's, five or more begin indented code (the content then begins one
    /// column after the marker).
    static func start(of line: String) -> (column: Int, content: Substring)? {
        let indent = indentColumns(line)
        var rest = dropIndent(line)
        var column = indent
        if let first = rest.first, "-*+".contains(first) {
            rest = rest.dropFirst()
            column += 1
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1...9).contains(digits.count), let mark = rest.dropFirst(digits.count).first, mark == "." || mark == ")" else { return nil }
            rest = rest.dropFirst(digits.count + 1)
            column += digits.count + 1
        }
        if rest.isEmpty { return (column + 1, rest) }
        guard rest.first == " " || rest.first == "\t" else { return nil }
        let after = advance(column, over: rest.prefix { $0 == " " || $0 == "\t" })
        let content = rest.drop { $0 == " " || $0 == "\t" }
        return content.isEmpty || after - column > 4 ? (column + 1, content) : (after, content)
    }

    /// Columns of spaces and tabs before a line's text, a tab reaching the next multiple of four.
    static func indentColumns(_ line: String) -> Int {
        advance(0, over: line.prefix { $0 == " " || $0 == "\t" })
    }

    /// The column reached from `column` over spaces and tabs.
    private static func advance(_ column: Int, over whitespace: Substring) -> Int {
        whitespace.reduce(column) { reached, character in character == "\t" ? reached + 4 - reached % 4 : reached + 1 }
    }

    /// Whether a line holds nothing but white space.
    static func isBlank(_ line: String) -> Bool {
        line.allSatisfy(\.isWhitespace)
    }

    private static func dropIndent(_ line: String) -> Substring {
        line.drop { $0 == " " || $0 == "\t" }
    }
}
