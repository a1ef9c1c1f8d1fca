/// A web address in a tester's text (a ticket, a recording): found so the Markdown report can
/// write it as an autolink, whose content GFM takes literally. Escaped as ordinary text, its
/// `_` became `\_` and its `&` `&amp;` inside the link GFM makes of it anyway, so the link led
/// elsewhere ("APP%5C_123?a=1&amp;amp;b=2").
enum WebLink {
    /// The first `http://` or `https://` address in `text`, wherever it starts (GFM finds one
    /// after a quote, a bracket or a colon as well), without the punctuation that ends a
    /// sentence or a bracket after it, as GFM leaves that out. One pass over the address.
    static func first(in text: Substring) -> Range<Substring.Index>? {
        guard text.contains("://") else { return nil }
        var searchFrom = text.startIndex
        while let scheme = schemeStart(in: text[searchFrom...]) {
            var end = text[scheme...].firstIndex(where: endsAddress) ?? text.endIndex
            var address = text[scheme..<end]
            var unmatched = address.reduce(0) { $0 + ($1 == ")" ? 1 : $1 == "(" ? -1 : 0) }
            while let last = address.last, trailing.contains(last) || last == ")" && unmatched > 0 {
                if last == ")" { unmatched -= 1 }
                end = text.index(before: end)
                address = text[scheme..<end]
            }
            if address.utf8.count > (address.hasPrefix("https://") ? 8 : 7) { return scheme..<end }
            searchFrom = text.index(after: scheme)
        }
        return nil
    }

    /// Where the next "http://" or "https://" starts.
    private static func schemeStart(in text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while let found = text[index...].firstIndex(of: "h") {
            let rest = text[found...]
            if rest.hasPrefix("http://") || rest.hasPrefix("https://") { return found }
            index = text.index(after: found)
        }
        return nil
    }

    /// A character no autolink holds (white space, `<`, `>`), or one a Markdown table or code
    /// span reads as its own (`|`, a backtick), or a quote: the address ends before it.
    private static func endsAddress(_ character: Character) -> Bool {
        character.isWhitespace || "<>|`\"".contains(character)
    }

    /// Ends of a sentence, of emphasis or of a bracket, left outside the address.
    private static let trailing: Set<Character> = [".", ",", ":", ";", "!", "?", "'", "*", "_", "~", "]"]
}
