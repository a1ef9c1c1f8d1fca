#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Colour and emphasis as extras on top of words: every state is said in words, and colour is
/// off for `NO_COLOR`, `TERM=dumb`, accessible mode or output that is not a terminal.
public struct TextStyle: Sendable {
    public let colorEnabled: Bool

    public init(colorEnabled: Bool) {
        self.colorEnabled = colorEnabled
    }

    /// Decides colour for one output stream from the environment and the user's flags.
    public static func detect(fileDescriptor: Int32, environment: [String: String], accessible: Bool, noColorFlag: Bool) -> TextStyle {
        if noColorFlag || accessible { return TextStyle(colorEnabled: false) }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return TextStyle(colorEnabled: false) }
        if environment["TERM"] == "dumb" || environment["TERM"] == nil { return TextStyle(colorEnabled: false) }
        return TextStyle(colorEnabled: isatty(fileDescriptor) == 1)
    }

    public enum Color: String, Sendable {
        case red = "31", green = "32", yellow = "33", dim = "2", bold = "1"
    }

    /// The text, neutralised, in a colour when colour is on: the only place escape codes are made.
    public func paint(_ text: String, _ color: Color) -> TerminalText {
        colorEnabled ? TerminalText(styled: text, prefix: "\u{1B}[\(color.rawValue)m", suffix: "\u{1B}[0m") : TerminalText(text)
    }

    public func bold(_ text: String) -> TerminalText { paint(text, .bold) }
    public func error(_ text: String) -> TerminalText { paint(text, .red) }
    public func warning(_ text: String) -> TerminalText { paint(text, .yellow) }
    public func success(_ text: String) -> TerminalText { paint(text, .green) }
    public func dim(_ text: String) -> TerminalText { paint(text, .dim) }
}
