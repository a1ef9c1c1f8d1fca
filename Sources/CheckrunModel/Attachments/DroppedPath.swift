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
        } else if let quote = text.first, quote == "'" || quote == "\"", text.count >= 2, text.last == quote {
            text = String(text.dropFirst().dropLast())
        } else if text.contains("\\") {
            text = unescaped(text)
        }
        if text == "~" || text.hasPrefix("~/"), let home, !home.isEmpty {
            text = home + text.dropFirst()
        }
        return text.isEmpty ? nil : text
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

    /// A backslash keeps the character after it as it is (`\ ` is a space, `\\` a backslash).
    private static func unescaped(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        if escaping { result.append("\\") }
        return result
    }
}
