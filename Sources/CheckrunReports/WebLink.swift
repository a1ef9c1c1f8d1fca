/// A web address in a tester's text (a ticket, a recording): found so the Markdown report can
/// write it as an autolink, whose content GFM takes literally. Escaped as ordinary text, its
/// `_` became `\_` and its `&` `&amp;` inside the link GFM makes of it anyway, so the link led
/// elsewhere ("APP%5C_123?a=1&amp;amp;b=2").
enum WebLink {
    /// The first `http://` or `https://` address in `text` that begins a word, without the
    /// punctuation that ends a sentence after it (as GFM leaves that punctuation out).
    static func first(in text: Substring) -> Range<Substring.Index>? {
        guard text.contains("://") else { return nil }
        var searchFrom = text.startIndex
        while let scheme = schemeStart(in: text[searchFrom...]) {
            var end = text[scheme...].firstIndex(where: endsAddress) ?? text.endIndex
            while end > scheme, let last = text[..<end].last, trailing.contains(last) || last == ")" && unbalanced(text[scheme..<end]) {
                end = text.index(before: end)
            }
            let address = text[scheme..<end]
            if address.count > (address.hasPrefix("https://") ? 8 : 7) { return scheme..<end }
            searchFrom = text.index(after: scheme)
        }
        return nil
    }

    /// Where the next "http://" or "https://" starts at the beginning of a word.
    private static func schemeStart(in text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            if rest.hasPrefix("http://") || rest.hasPrefix("https://") {
                let before = index == text.startIndex ? nil : text[text.index(before: index)]
                if before.map({ $0.isWhitespace || $0 == "(" }) ?? true { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// A character no autolink holds (white space, `<`, `>`), or one a Markdown table or code
    /// span reads as its own (`|`, a backtick): the address ends before it.
    private static func endsAddress(_ character: Character) -> Bool {
        character.isWhitespace || "<>|`\"".contains(character)
    }

    private static let trailing: Set<Character> = [".", ",", ":", ";", "!", "?", "'", "*", "_", "~"]

    /// More closing parentheses than opening ones: the last closes the sentence's, not the address's.
    private static func unbalanced(_ address: Substring) -> Bool {
        address.filter { $0 == ")" }.count > address.filter { $0 == "(" }.count
    }
}
