import Foundation

/// A page's lines as its readers see them: every HTML comment (`<!-- … -->`) outside fenced
/// code taken out, as a Markdown page shows nothing of one. A block left in a comment (a check
/// put aside, a draft) became a check no reader of the page saw; a note in one became an
/// expected outcome. Each line keeps its number, so messages still point at the page.
enum VisibleLines {
    /// The lines with their comments taken out, and the line of a comment that opened and was
    /// never closed, if one did. Openers from line `textFrom` on are read as text: after a
    /// comment never closed there is no "-->" at all, so none of them is closed either.
    static func of(_ raw: [String], textFrom: Int = .max) -> (lines: [String], unclosed: Int?) {
        var lines: [String] = []
        var fence: String?
        var comment: Int?
        let plains = raw.enumerated().map { CatalogLine(number: $0.offset + 1, raw: $0.element).plain }
        let closers = LongestClosers(plains)
        for (index, line) in raw.enumerated() {
            let number = index + 1
            let plain = plains[index]
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
            while number < textFrom, let start = rest.range(of: "<!--") {
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
            if comment == nil, visible == line, let marker = PageScan.fenceMarker(plain), closers.closes(marker, after: index) {
                fence = marker
            }
        }
        guard let open = comment else { return (lines, nil) }
        return (lines, open)
    }

    /// Whether a fence opened on a line is closed further down: one never closed is text (see
    /// `PageScan.codeLines`), so a comment after it is still a comment. Known for every line in
    /// one pass from the end: looked for line by line, a page of many fences took minutes.
    private struct LongestClosers {
        /// For each line, the longest run of backticks and of tildes alone on a line at or after it.
        private var backticks: [Int]
        private var tildes: [Int]

        init(_ plains: [String]) {
            backticks = Array(repeating: 0, count: plains.count + 1)
            tildes = backticks
            for index in plains.indices.reversed() {
                backticks[index] = backticks[index + 1]
                tildes[index] = tildes[index + 1]
                let text = plains[index]
                guard let mark = text.first, mark == "`" || mark == "~" else { continue }
                let run = text.prefix { $0 == mark }
                guard text.dropFirst(run.count).allSatisfy(\.isWhitespace) else { continue }
                if mark == "`" { backticks[index] = max(backticks[index], run.count) } else { tildes[index] = max(tildes[index], run.count) }
            }
        }

        func closes(_ marker: String, after index: Int) -> Bool {
            (marker.first == "`" ? backticks : tildes)[index + 1] >= marker.count
        }
    }

    /// A line a comment was taken out of that holds nothing else: spaces, quote marks or a
    /// list marker ("- <!-- a note -->") are no outcome.
    private static func isMarkerOnly(_ text: String) -> Bool {
        text.range(of: #"^[\s>]*(?:[-*+•‣◦]|\d{1,3}[.)])?\s*$"#, options: .regularExpression) != nil
    }
}
