import Foundation

/// A page's lines as its readers see them, each keeping its number so messages still point at
/// the page: fenced code marked as code, and HTML comments (`<!-- … -->`) outside it taken out,
/// as a Markdown page shows nothing of them. A block left in a comment (a check put aside)
/// became a check no reader saw; a note in one became an expected outcome.
///
/// As CommonMark reads them: a comment that starts a line (at most three spaces in) runs to
/// the line holding `-->`, and what follows that on its line is shown; one further in a line
/// is a comment only when it closes within its paragraph (that line, or a later one before a
/// blank line or a new block), outside code spans and not after a backslash. Anything else is
/// text, never dropped on a guess.
struct VisibleLines {
    var lines: [String] = []
    /// The numbers of the lines of closed code blocks, fences included.
    var code = Set<Int>()
    /// Where a comment opened and was never closed, if one did (while reading: where the one
    /// now open opened).
    var unclosedComment: Int?
    /// Fences never closed: read as text.
    var unclosedFences: [(line: Int, marker: String)] = []

    /// Comments that start a line from line `textFrom` on are read as text: after one never
    /// closed there is no "-->" at all, so none of them is closed either.
    init(_ raw: [String], textFrom: Int = .max) {
        let read = raw.enumerated().map { CatalogLine(number: $0.offset + 1, raw: $0.element) }
        let plains = read.map(\.plain)
        // For each line, the next line that ends its paragraph and the next holding "-->",
        // known in one pass from the end: looked for line by line, a page of many took minutes.
        var nextBreak = Array(repeating: raw.count, count: raw.count + 1), nextCloser = nextBreak
        for index in raw.indices.reversed() {
            let line = read[index]
            let ends = line.isBlank || line.isListItem || line.isHeading || line.label != nil || PageScan.fenceMarker(plains[index]) != nil
            nextBreak[index] = ends ? index : nextBreak[index + 1]
            nextCloser[index] = Self.holdsCommentEnd(raw[index]) ? index : nextCloser[index + 1]
        }
        let depths = read.map(\.quoteDepth)
        // Markdown opens a fence or a comment only after spaces or tabs, and closes a fence only
        // within three columns of where it opened (inside a list item, further in): after a
        // no-break space a fence line is text, and indented four under a fence at the margin a
        // closing line is a line of the code. Either taken for a fence paired the wrong lines.
        let marked = raw.map(Self.marksMarkdown)
        let closing = raw.indices.map { marked[$0] && Self.indentWidth(raw[$0]) <= 3 }
        var reading = Reading(raw: raw, plains: plains, depths: depths, marked: marked, closing: closing,
                              closers: LongestClosers(plains, depths: depths, closing: closing),
                              indentedClosers: LongestClosers(plains, depths: depths, closing: marked), textFrom: textFrom,
                              headings: read.map(\.isHeading), nextBreak: nextBreak, nextCloser: nextCloser)
        for index in raw.indices { lines.append(reading.visible(index, into: &self)) }
        unclosedComment = [reading.inComment ? unclosedComment : nil, reading.commentEndedByQuote].compactMap { $0 }.min()
    }

    /// Where a page's reading stands: in code, in a comment that started a line, or in one
    /// that opened inside a paragraph's line and closes on a later line of it.
    private struct Reading {
        let raw: [String], plains: [String], depths: [Int], marked: [Bool], closing: [Bool]
        /// Where fences close: those opened at the margin, and those opened indented (in a list item).
        let closers: LongestClosers, indentedClosers: LongestClosers
        let textFrom: Int
        let headings: [Bool], nextBreak: [Int], nextCloser: [Int]
        /// The open code block's fence, the quote depth it opened at, and whether it was indented.
        var fence: (marker: String, depth: Int, indented: Bool)?
        var inComment = false
        /// The quote depth the open comment began at: a quote's end ends it, as Markdown reads it.
        var commentDepth = 0
        /// Where the first comment opened that its quote ended before any "-->": never closed.
        var commentEndedByQuote: Int?
        var paragraphCommentCloses: Int?

        mutating func visible(_ index: Int, into page: inout VisibleLines) -> String {
            let line = raw[index], number = index + 1, plain = plains[index]
            if let open = fence {
                // Code shows a comment as it is written; a fence line deeper or shallower in
                // quotes is a line of the code, not its end (`LongestClosers`).
                page.code.insert(number)
                if depths[index] == open.depth && (open.indented ? marked[index] : closing[index]) && PageScan.closes(plain, open.marker) { fence = nil }
                return line
            }
            var rest = Substring(line)
            if let closes = paragraphCommentCloses {
                guard index == closes, let end = rest.range(of: "-->") else { return "" }
                paragraphCommentCloses = nil
                // The paragraph goes on: read as a line that continues it.
                return " " + VisibleLines.withoutInlineComments(rest[end.upperBound...].drop(while: \.isWhitespace)).text
            }
            if inComment, depths[index] < commentDepth {
                // Ended with its quote, unclosed: read again as text, with a warning.
                commentEndedByQuote = commentEndedByQuote ?? page.unclosedComment
                inComment = false
            }
            if inComment {
                guard let end = rest.range(of: "-->") else { return "" }
                rest = rest[end.upperBound...]
                inComment = false
            } else if marked[index], let marker = PageScan.fenceMarker(plain) {
                // A comment in a fence's info string (~~~ <!-- html -->) is the code's.
                let indented = VisibleLines.indentWidth(line) > 0
                if (indented ? indentedClosers : closers).closes(marker, after: index) {
                    fence = (marker, depths[index], indented)
                    page.code.insert(number)
                    return line
                }
                page.unclosedFences.append((number, marker))
            } else if number < textFrom, marked[index], plain.hasPrefix("<!--"), VisibleLines.indentWidth(line) <= 3,
                      let start = rest.range(of: "<!--"), rest[rest.index(start.lowerBound, offsetBy: 2)...].range(of: "-->") == nil {
                page.unclosedComment = number
                commentDepth = depths[index]
                inComment = true
                return ""
            }
            let (visible, unclosed) = VisibleLines.withoutInlineComments(rest)
            var shown = visible + (unclosed ?? "")
            if unclosed != nil, let closes = paragraphClose(after: index) {
                paragraphCommentCloses = closes
                shown = visible
            }
            return shown == line || !VisibleLines.isMarkerOnly(shown) ? shown : ""
        }

        /// The line, within the paragraph `index` is in, holding the "-->" that closes a comment
        /// opened inside a line of it: none past a blank line or a line that starts a block of
        /// its own (a list item, a heading, a label), where the paragraph has ended, nor after a
        /// heading's line.
        func paragraphClose(after index: Int) -> Int? {
            // A heading is a paragraph of one line.
            guard !headings[index] else { return nil }
            let closer = nextCloser[index + 1]
            return closer < raw.count && closer < nextBreak[index + 1] ? closer : nil
        }
    }

    /// `text` without the comments that open and close within it, outside code spans and
    /// escapes. "<!-->" and "<!--->" are whole comments. Spaces on both sides of one become one
    /// ("WCAG <!-- 2.2 --> mapping" is "WCAG mapping").
    /// - Returns: the text, and what follows a "<!--" that does not close within it (nil when
    ///   every one closes).
    static func withoutInlineComments(_ text: Substring) -> (text: String, unclosed: String?) {
        // Without an opener there is nothing to take out, and code spans need no reading: a line
        // of many backtick runs took seconds to pair them.
        guard text.utf8.count >= 4, text.contains("<!--") else { return (String(text), nil) }
        var out = ""
        var rest = text
        while let first = rest.first {
            if first == "\\" {
                out += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if first == "`" {
                let run = rest.prefix { $0 == "`" }
                let after = rest.dropFirst(run.count)
                let span = Self.closingRun(of: run.count, in: after).map { rest[rest.startIndex..<$0] } ?? run
                out += span
                rest = rest[span.endIndex...]
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.dropFirst(2).range(of: "-->") else { return (out, String(rest)) }
                rest = rest[end.upperBound...]
                if out.last?.isWhitespace == true { rest = rest.drop(while: \.isWhitespace) }
            } else {
                out.append(first)
                rest = rest.dropFirst()
            }
        }
        return (out, nil)
    }

    /// Where a code span that opened with `count` backticks ends in `text`: after the next run
    /// of exactly that many.
    private static func closingRun(of count: Int, in text: Substring) -> String.Index? {
        var rest = text
        while let start = rest.firstIndex(of: "`") {
            let run = rest[start...].prefix { $0 == "`" }
            if run.count == count { return run.endIndex }
            rest = rest[run.endIndex...]
        }
        return nil
    }

    /// Whether a line holds "-->", looked for in its bytes (Foundation's search was a fifth of a
    /// long page's time).
    static func holdsCommentEnd(_ line: String) -> Bool {
        var dashes = 0
        for byte in line.utf8 {
            if byte == UInt8(ascii: ">") && dashes >= 2 { return true }
            dashes = byte == UInt8(ascii: "-") ? dashes + 1 : 0
        }
        return false
    }

    /// Whether the white space before a line's text (and its quote marks) is spaces and tabs
    /// alone, as Markdown's block marks need.
    static func marksMarkdown(_ line: String) -> Bool {
        line.unicodeScalars.prefix { $0 == ">" || CharacterSet.whitespaces.contains($0) }.allSatisfy { $0 == " " || $0 == "\t" || $0 == ">" }
    }

    /// Columns of white space before a line's text, a tab counting four.
    static func indentWidth(_ line: String) -> Int {
        line.prefix { $0 == " " || $0 == "\t" }.reduce(0) { $0 + ($1 == "\t" ? 4 : 1) }
    }

    /// A line a comment was taken out of that holds nothing else: spaces, quote marks or a
    /// list marker ("- <!-- a note -->") are no outcome.
    static func isMarkerOnly(_ text: String) -> Bool {
        text.range(of: #"^[\s>]*(?:[-*+•‣◦]|\d{1,3}[.)])?\s*$"#, options: .regularExpression) != nil
    }
}
