import Foundation

/// A page's lines as its readers see them: every HTML comment (`<!-- … -->`) outside fenced
/// code taken out, as a Markdown page shows nothing of one. A block left in a comment (a check
/// put aside, a draft) became a check no reader of the page saw; a note in one became an
/// expected outcome. Each line keeps its number, so messages still point at the page.
enum VisibleLines {
    /// The lines with their comments taken out, and the line of a comment that opened and was
    /// never closed, if one did (it and what follows are then as `raw` has them). Openers on
    /// the lines in `ignoring` are read as text: they are comments never closed.
    static func of(_ raw: [String], ignoring: Set<Int> = []) -> (lines: [String], unclosed: Int?) {
        var lines: [String] = []
        var fence: String?
        var comment: Int?
        for (index, line) in raw.enumerated() {
            let number = index + 1
            let plain = CatalogLine(number: number, raw: line).plain
            if let marker = fence {
                // Code shows a comment as it is written.
                lines.append(line)
                if PageScan.closes(plain, marker) { fence = nil }
                continue
            }
            var rest = Substring(line)
            var visible = ""
            if comment != nil {
                guard let end = rest.range(of: "-->") else {
                    lines.append("")
                    continue
                }
                rest = rest[end.upperBound...]
                comment = nil
            }
            while !ignoring.contains(number), let start = rest.range(of: "<!--") {
                visible += rest[..<start.lowerBound]
                // "<!-->" and "<!--->" are whole comments, as Markdown reads them.
                let searched = rest[rest.index(start.lowerBound, offsetBy: 2)...]
                guard let end = searched.range(of: "-->") else {
                    comment = number
                    rest = ""
                    break
                }
                rest = rest[end.upperBound...]
            }
            visible += rest
            lines.append(visible == line || !isMarkerOnly(visible) ? visible : "")
            if comment == nil, visible == line, let marker = PageScan.fenceMarker(plain), closedLater(marker, after: index, in: raw) {
                fence = marker
            }
        }
        guard let open = comment else { return (lines, nil) }
        return (lines, open)
    }

    /// Whether a fence opened at `index` is closed further down: one never closed is text
    /// (see `PageScan.codeLines`), so a comment after it is still a comment.
    private static func closedLater(_ marker: String, after index: Int, in raw: [String]) -> Bool {
        raw.indices.dropFirst(index + 1).contains { PageScan.closes(CatalogLine(number: $0 + 1, raw: raw[$0]).plain, marker) }
    }

    /// A line a comment was taken out of that holds nothing else: spaces, quote marks or a
    /// list marker ("- <!-- a note -->") are no outcome.
    private static func isMarkerOnly(_ text: String) -> Bool {
        text.range(of: #"^[\s>]*(?:[-*+•‣◦]|\d{1,3}[.)])?\s*$"#, options: .regularExpression) != nil
    }
}
