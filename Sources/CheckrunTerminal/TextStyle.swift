#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Colour and emphasis as extras on top of words: every state is said in words, and colour is
/// off for `NO_COLOR`, `TERM=dumb`, accessible mode or output that is not a terminal.
package struct TextStyle: Sendable {
    package let colorEnabled: Bool

    package init(colorEnabled: Bool) {
        self.colorEnabled = colorEnabled
    }

    /// Decides colour for one output stream from the environment and the user's flags.
    package static func detect(fileDescriptor: Int32, environment: [String: String], accessible: Bool, noColorFlag: Bool) -> TextStyle {
        if noColorFlag || accessible { return TextStyle(colorEnabled: false) }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return TextStyle(colorEnabled: false) }
        if environment["TERM"] == "dumb" || environment["TERM"] == nil { return TextStyle(colorEnabled: false) }
        return TextStyle(colorEnabled: isatty(fileDescriptor) == 1)
    }

    package enum Color: String, Sendable {
        case red = "31", green = "32", yellow = "33", dim = "2", bold = "1"
    }

    /// The text, neutralised, in a colour when colour is on: the only place escape codes are made.
    package func paint(_ text: String, _ color: Color) -> TerminalText {
        colorEnabled ? TerminalText(styled: text, prefix: "\u{1B}[\(color.rawValue)m", suffix: "\u{1B}[0m") : TerminalText(text)
    }

    package func bold(_ text: String) -> TerminalText { paint(text, .bold) }
    package func error(_ text: String) -> TerminalText { paint(text, .red) }
    package func warning(_ text: String) -> TerminalText { paint(text, .yellow) }
    package func success(_ text: String) -> TerminalText { paint(text, .green) }
    package func dim(_ text: String) -> TerminalText { paint(text, .dim) }
}
