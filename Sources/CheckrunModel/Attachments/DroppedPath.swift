import Foundation

/// A path as a terminal pastes it when a file is dragged onto the window: quoted
/// (`'/a/My Shot.png'`, GNOME and KDE), with backslash-escaped spaces (`/a/My\ Shot.png`,
/// macOS Terminal and iTerm2), or as a URL (`file:///a/My%20Shot.png`), often with a space
/// after it. Typed paths are read the same way, and `~/` is the home folder.
package enum DroppedPath {
    /// The path the text names; nil when nothing is left of it.
    package static func resolve(_ typed: String, home: String?) -> String? {
        var text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        if let url = fileURL(text) {
            text = url
        } else if text.contains(where: { $0 == "'" || $0 == "\"" || $0 == "\\" }), let word = shellWord(text) {
            text = word
        }
        if text == "~" || text.hasPrefix("~/"), let home, !home.isEmpty {
            text = home + text.dropFirst()
        }
        // A NUL would end the path where the system reads it, naming another file than the one recorded.
        return text.isEmpty || text.contains("\u{0}") ? nil : text
    }

    /// `file:///a/b%20c` and `file://localhost/a/b`: the path, percent-decoded.
    private static func fileURL(_ text: String) -> String? {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("file://") else { return nil }
        var rest = String(text.dropFirst("file://".count))
        if rest.lowercased().hasPrefix("localhost/") { rest = String(rest.dropFirst("localhost".count)) }
        guard rest.hasPrefix("/") else { return nil }
        return rest.removingPercentEncoding ?? rest
    }

    /// The text read as a shell reads one word: single quotes keep everything up to the next
    /// single quote, double quotes keep everything but a backslash before `"`, `\\`, `$` or a
    /// backquote, and outside quotes a backslash keeps the character after it. So GNOME's
    /// `'/a/it'\''s.png'` and macOS's `/a/My\ Shot.png` both name the file. Nil when a quote is
    /// left open: the text is then taken as it is (`/a/it's.png` typed by hand).
    static func shellWord(_ text: String) -> String? {
        var result = ""
        var quote: Character?
        var characters = text.makeIterator()
        while let character = characters.next() {
            switch quote {
            case "'":
                if character == "'" { quote = nil } else { result.append(character) }
            case "\"":
                if character == "\"" {
                    quote = nil
                } else if character == "\\", let next = characters.next() {
                    if !["\"", "\\", "$", "`"].contains(next) { result.append(character) }
                    result.append(next)
                } else {
                    result.append(character)
                }
            default:
                if character == "'" || character == "\"" {
                    quote = character
                } else if character == "\\" {
                    result.append(characters.next() ?? "\\")
                } else {
                    result.append(character)
                }
            }
        }
        return quote == nil ? result : nil
    }
}
