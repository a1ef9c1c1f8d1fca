import CheckrunModel

/// Text on its way to a terminal: the one door every line checkrun prints goes through.
///
/// It is made from plain strings, which are neutralised (control characters and escape
/// sequences from a tester, a protocol file or a database become visible `\u{…}` marks), and
/// from the styles `TextStyle` adds. So a value that reaches the screen by a new path is
/// neutralised without anyone remembering to, and colour still works.
package struct TerminalText: Sendable, Equatable, ExpressibleByStringInterpolation {
    /// What is written to the terminal: safe by construction.
    package private(set) var rendered: String

    /// Plain text from anywhere, neutralised.
    package init(_ text: String) {
        rendered = DisplayText.terminalSafe(text)
    }

    package init(stringLiteral value: String) {
        self.init(value)
    }

    /// Escape codes this program chose (colour, emphasis) around text that is neutralised.
    init(styled text: String, prefix: String, suffix: String) {
        rendered = prefix + DisplayText.terminalSafe(text) + suffix
    }

    package static func + (left: TerminalText, right: TerminalText) -> TerminalText {
        var joined = left
        joined.rendered += right.rendered
        return joined
    }

    package static func + (left: TerminalText, right: String) -> TerminalText {
        left + TerminalText(right)
    }

    package static func + (left: String, right: TerminalText) -> TerminalText {
        TerminalText(left) + right
    }
}
