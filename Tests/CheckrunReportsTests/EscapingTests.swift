@testable import CheckrunReports
import Testing

/// Markdown that reads right in tickets and e-mail and renders literally in GFM.
@Suite struct MarkdownEscapingTests {
    @Test func testerTextRendersLiterallyInGFM() {
        #expect(Escaping.markdown(#"Settings > Accessibility, "Show numbers", Xcode's"#) == #"Settings > Accessibility, "Show numbers", Xcode's"#)
        #expect(Escaping.markdown(##"\*x\* | <b> & [link](u) ~~s~~ #1 ![i]"##) == ##"\\\*x\\\* \| &lt;b> &amp; \[link\](u) \~\~s\~\~ \#1 \!\[i\]"##)
    }

    /// A ticket's address is a link to that ticket: written as an autolink, whose content GFM
    /// takes literally (a `\_` or an `&amp;` escaped as text stayed in the link and broke it).
    @Test func aWebAddressStaysTheAddressTyped() {
        #expect(Escaping.markdown("see https://jira.example.com/browse/APP_123?a=1&b=2.")
            == "see <https://jira.example.com/browse/APP_123?a=1&amp;b=2>.")
        // Sentence punctuation and an unbalanced parenthesis stay outside; a pipe ends it, escaped.
        #expect(Escaping.markdown("(ticket https://x.example/a_(b)), then http://y.example/c|d _e_")
            == "(ticket <https://x.example/a_(b)>), then <http://y.example/c>\\|d \\_e\\_")
        // Wherever it starts: after a quote, a bracket, emphasis, a colon, an angle bracket.
        #expect(Escaping.markdown(#""https://a.example/A_1" [https://a.example/A_2] *https://a.example/A_3* URL:https://a.example/A_4 <https://a.example/A_5>"#)
            == #""<https://a.example/A_1>" \[<https://a.example/A_2>\] \*<https://a.example/A_3>\* URL:<https://a.example/A_4> &lt;<https://a.example/A_5>>"#)
        // Not an address: nothing follows the scheme.
        #expect(Escaping.markdown("https:// _") == "https:// \\_")
        // Thousands of closing parentheses cost one pass, not one a parenthesis.
        let long = "a_b https://a" + String(repeating: ")", count: 200_000)
        #expect(Escaping.markdown(long) == "a\\_b <https://a>" + String(repeating: ")", count: 200_000))
        // A control character in it is shown as a mark, literally, inside the link.
        #expect(Escaping.markdown("https://a.example/\u{1B}[2J_x") == "<https://a.example/\\u{1B}[2J_x>")
    }
}

/// The lists of a report's header: one name each, however it is spelled.
@Suite struct ReportPhrasesTests {
    @Test func aNameHoldingTheSeparatorStaysOneName() {
        #expect(ReportPhrases.list(["O'Brien; Lee", "Ana", "iPhone 15, iOS 18"]) == "“O'Brien; Lee”; Ana; iPhone 15, iOS 18")
        #expect(ReportPhrases.list([]) == "none")
    }
}
