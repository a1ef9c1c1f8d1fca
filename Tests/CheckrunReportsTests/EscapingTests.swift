@testable import CheckrunReports
import Testing

/// Markdown that reads right in tickets and e-mail and renders literally in GFM.
@Suite struct MarkdownEscapingTests {
    @Test func testerTextRendersLiterallyInGFM() {
        #expect(Escaping.markdown(#"Settings > Accessibility, "Show numbers", Xcode's"#) == #"Settings > Accessibility, "Show numbers", Xcode's"#)
        #expect(Escaping.markdown(##"\*x\* | <b> & [link](u) ~~s~~ #1 ![i]"##) == ##"\\\*x\\\* \| &lt;b> &amp; \[link\](u) \~\~s\~\~ \#1 \!\[i\]"##)
    }
}
