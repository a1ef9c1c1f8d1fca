import CheckrunModel

/// A PostgreSQL server's address as a user gives it (`postgresql://user:password@host/db?…`),
/// and as checkrun shows it: never with its password.
package enum ServerAddressText {
    package static func isServer(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// Whether `text` is written in libpq's key=value form ("host=db dbname=team password=…"),
    /// which checkrun does not take: without this it would be a file name, and a `record`
    /// would say "Recorded" into a new SQLite file named after the password.
    package static func isKeyValueConnectionString(_ text: String) -> Bool {
        guard !isServer(text) else { return false }
        let keys = ["host", "hostaddr", "port", "dbname", "user", "password", "passfile", "sslmode", "service", "options", "connect_timeout", "application_name"]
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.contains { word in keys.contains { word.lowercased() == $0 || word.lowercased().hasPrefix($0 + "=") } }
            && text.contains("=")
    }

    /// The address with any password left out (anything else is returned as it is), for a
    /// command checkrun suggests: libpq then reads the password from PGPASSWORD or ~/.pgpass.
    /// The passwords are those `passwordOffsets` finds, the one place that knows where they
    /// lie: the user part's loses its colon, a parameter its key and one "&" or "?".
    package static func withoutPassword(_ text: String) -> String {
        guard isServer(text) else { return text }
        let ampersand = UInt8(ascii: "&"), question = UInt8(ascii: "?")
        var bytes = Array(text.utf8)
        for range in passwordOffsets(in: bytes).reversed() where range.lowerBound > 0 {
            if bytes[range.lowerBound - 1] == UInt8(ascii: ":") {
                bytes.removeSubrange(range.lowerBound - 1..<range.upperBound)
                continue
            }
            let start = bytes[..<range.lowerBound].lastIndex { $0 == ampersand || $0 == question }.map { $0 + 1 } ?? 0
            if range.upperBound < bytes.count, bytes[range.upperBound] == ampersand {
                bytes.removeSubrange(start..<range.upperBound + 1)
            } else {
                bytes.removeSubrange(max(0, start - 1)..<range.upperBound)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The address with every password replaced by "…" (in the user part and as a parameter),
    /// its control characters made visible.
    package static func masked(_ uri: String) -> String {
        var bytes = Array(uri.utf8)
        for range in passwordOffsets(in: bytes).reversed() { bytes.replaceSubrange(range, with: Array("…".utf8)) }
        return DisplayText.neutralised(String(decoding: bytes, as: UTF8.self))
    }
}

extension ServerAddressText {
    /// Where the passwords are in `bytes` (an argument that holds a server address, perhaps
    /// after `--db=`, even with a mistyped scheme): the user part's password after any
    /// `scheme://`, and the value of every `password=` (a URI parameter or libpq's key=value
    /// form), as byte offsets.
    package static func passwordOffsets(in bytes: [UInt8]) -> [Range<Int>] {
        guard let start = authorityStart(in: bytes) else { return keyValuePasswords(in: bytes) }
        var found: [Range<Int>] = []
        let end = queryStart(in: bytes, from: start) ?? bytes.count
        // The user part ends at the last "@" before the parameters: a password typed without
        // percent-encoding may hold "/", "?" or "@" itself, and a parameter's value may too.
        if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) {
            if let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at { found.append(colon + 1..<at) }
        } else if let slash = bytes[start..<end].firstIndex(of: UInt8(ascii: "/")) ?? Optional(end),
                  let colon = bytes[start..<slash].lastIndex(of: UInt8(ascii: ":")), colon + 1 < slash,
                  !bytes[start..<colon].contains(UInt8(ascii: "[")),
                  !bytes[colon + 1..<slash].allSatisfy({ $0 >= 48 && $0 <= 57 || $0 == UInt8(ascii: ",") }) {
            // No "@": libpq reads "user:secret" as a host and a port; a port that is not a
            // number was meant as a password (an IPv6 host's colons are in brackets).
            found.append(colon + 1..<slash)
        }
        // password=… as a URI parameter, its key perhaps percent-encoded (libpq decodes "pass%77ord").
        var segment = end + 1
        while segment < bytes.count {
            let next = bytes[segment...].firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "?") } ?? bytes.count
            if let equals = bytes[segment..<next].firstIndex(of: UInt8(ascii: "=")), equals + 1 < next,
               String(decoding: bytes[segment..<equals], as: UTF8.self).removingPercentEncoding?.lowercased() == "password" {
                found.append(equals + 1..<next)
            }
            segment = next + 1
        }
        return found
    }

    /// Where a URI's parameters begin: the first "?" whose first parameter is `key=value`. A "?"
    /// typed in a password is followed by more of it and the "@", not by a key and "=".
    private static func queryStart(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while let question = bytes[index...].firstIndex(of: UInt8(ascii: "?")) {
            let parameter = bytes[(question + 1)...].prefix { $0 != UInt8(ascii: "&") }
            if let equals = parameter.firstIndex(of: UInt8(ascii: "=")), !parameter[..<equals].contains(UInt8(ascii: "@")) { return question }
            index = question + 1
        }
        return nil
    }

    /// The value of every `password` in libpq's key=value form, which allows spaces around
    /// "=" and a value in single quotes (with \' and \\ inside).
    private static func keyValuePasswords(in bytes: [UInt8]) -> [Range<Int>] {
        let key = Array("password".utf8), space: (UInt8) -> Bool = { $0 == 32 || ($0 >= 9 && $0 <= 13) }
        var found: [Range<Int>] = [], index = 0
        while index + key.count <= bytes.count {
            defer { index += 1 }
            guard index == 0 || space(bytes[index - 1]) || bytes[index - 1] == UInt8(ascii: "="),
                  zip(bytes[index..<index + key.count], key).allSatisfy({ $0 | 0x20 == $1 }) else { continue }
            var cursor = index + key.count
            while cursor < bytes.count, space(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else { continue }
            cursor += 1
            while cursor < bytes.count, space(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count else { continue }
            var valueEnd = cursor
            if bytes[cursor] == UInt8(ascii: "'") {
                valueEnd += 1
                while valueEnd < bytes.count, bytes[valueEnd] != UInt8(ascii: "'") { valueEnd += bytes[valueEnd] == UInt8(ascii: "\\") ? 2 : 1 }
                valueEnd = min(valueEnd + 1, bytes.count)
            } else {
                while valueEnd < bytes.count, !space(bytes[valueEnd]) { valueEnd += 1 }
            }
            found.append(cursor..<valueEnd)
            index = valueEnd
        }
        return found
    }

    /// The address's password when it holds "/", "?", "#" or "@" as it is: libpq reads such an
    /// address otherwise than it was meant (part of the password as a host or a port) and
    /// quotes pieces of it back, so it is refused before libpq reads it.
    package static func unencodedCharacter(inPasswordOf text: String) -> Character? {
        let bytes = Array(text.utf8)
        guard let start = authorityStart(in: bytes), let range = passwordOffsets(in: bytes).first, range.lowerBound > start,
              bytes[range.lowerBound - 1] == UInt8(ascii: ":") else { return nil }
        return String(decoding: bytes[range], as: UTF8.self).first { "/?#@".contains($0) }
    }

    /// Where the part after `scheme:` and its slashes begins, for any scheme (a mistyped one
    /// too, and one slash as well as two); nil when the text names no scheme.
    private static func authorityStart(in bytes: [UInt8]) -> Int? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 1 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/") else { return nil }
        let scheme = bytes[..<colon].split(separator: UInt8(ascii: "=")).last ?? []
        guard !scheme.isEmpty, scheme.allSatisfy({ ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) else {
            return nil
        }
        var start = colon + 1
        while start < bytes.count, bytes[start] == UInt8(ascii: "/") { start += 1 }
        return start
    }

    /// Every password `text` holds, as typed and percent-decoded, longest first; those of fewer
    /// than four characters are left out (replacing every "ab" in a message would garble it;
    /// addresses are masked whole anyway).
    package static func passwords(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        var found: [String] = []
        for range in passwordOffsets(in: bytes) {
            let raw = String(decoding: bytes[range], as: UTF8.self)
            found.append(raw)
            if let decoded = raw.removingPercentEncoding, decoded != raw { found.append(decoded) }
        }
        return Set(found.filter { $0.count >= 4 }).sorted { $0.count > $1.count }
    }

    /// `message` with every password of `addresses` shown as "…": for text that came from
    /// elsewhere (libpq's messages, a path echoed back) and might repeat one.
    package static func scrubbed(_ message: String, passwordsOf addresses: [String]) -> String {
        scrubbed(message, hiding: addresses.flatMap(passwords(in:)))
    }

    /// `message` with each of `passwords` (found once with `passwords(in:)`) shown as "…".
    package static func scrubbed(_ message: String, hiding passwords: [String]) -> String {
        passwords.reduce(message) { $0.replacingOccurrences(of: $1, with: "…") }
    }
}
