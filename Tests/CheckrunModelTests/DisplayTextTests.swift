import CheckrunModel
import Testing

/// What a terminal is never handed raw: control characters, escape sequences, C1 controls,
/// line separators and the direction controls that reorder text, each shown as a `\u{…}` mark, in
/// one line (`neutralised`) or keeping line breaks and tabs (`terminalSafe`). Text without
/// them, Arabic and Hebrew with their direction marks included, is shown as it is.
@Suite struct DisplayTextTests {
    @Test(arguments: [
        ("a\u{1B}[2Jb", "a\\u{1B}[2Jb"), ("\u{9B}31m", "\\u{9B}31m"), ("x\u{7}", "x\\u{7}"),
        ("evil\u{202E}gnp.exe", "evil\\u{202E}gnp.exe"), ("\u{2067}isolate\u{2069}", "\\u{2067}isolate\\u{2069}"),
        ("line\u{2028}sep", "line\\u{2028}sep"),
    ])
    func everyControlAndDirectionMarkIsShownAsAMark(text: String, shown: String) {
        #expect(DisplayText.neutralised(text) == shown)
        #expect(DisplayText.terminalSafe(text) == shown)
    }

    @Test func plainTextOfAnyScriptIsShownAsItIs() {
        for text in ["Pay button 20 pt", "زر الدفع", "כפתור תשלום", "支払いボタン", "emoji 👩‍💻 with a joiner", "a\u{200C}b"] {
            #expect(DisplayText.neutralised(text) == text)
            #expect(DisplayText.terminalSafe(text) == text)
        }
        #expect(DisplayText.terminalSafe("two\nlines\tand a tab") == "two\nlines\tand a tab")
        #expect(DisplayText.neutralised("two\nlines") == "two / lines")
        // A Windows paste's CR LF, and a lone CR, are line breaks too, not "\u{D}" marks.
        #expect(DisplayText.neutralised("two\r\nlines\rthree\n\nfour") == "two / lines / three /  / four")
    }

    /// One rule for every label and product name, wherever it is checked (`run`, `record`,
    /// `merge`, `report --product`): one line of plain text is exactly what `neutralised` leaves as it is.
    @Test func oneLineOfPlainTextIsWhatNeutralisingLeavesAsItIs() {
        let plain = ["2.4", "Ana Lima", "כפתור\u{200F} 2", "支払い", "a\u{200C}b", "1️⃣", "\u{00E9}t\u{00E9}", "e\u{301}"]
        let notPlain = ["a\nb", "a\tb", "a\rb", "\u{1B}[2J", "x\u{202E}", "\u{2066}x", "a\u{2028}b", "a\u{85}b", "\u{7F}", "\u{0}"]
        for text in plain {
            #expect(DisplayText.isOneLinePlain(text), "\(DisplayText.neutralised(text))")
            #expect(DisplayText.neutralised(text).unicodeScalars.elementsEqual(text.unicodeScalars))
        }
        for text in notPlain {
            #expect(!DisplayText.isOneLinePlain(text), "\(DisplayText.neutralised(text))")
            #expect(!DisplayText.neutralised(text).unicodeScalars.elementsEqual(text.unicodeScalars))
        }
    }
}
