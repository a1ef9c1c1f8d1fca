import CheckrunModel

/// A PostgreSQL server's address as a user gives it (`postgresql://user:password@host/db?…`),
/// and as checkrun shows it: never with its password.
package enum ServerAddressText {
    package static func isServer(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
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
        var found: [Range<Int>] = []
        if let start = authorityStart(in: bytes) {
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "?") } ?? bytes.count
            // The user part ends at the last "@": a password typed without percent-encoding may
            // hold "/", "?" or "@" itself.
            if let at = bytes[start...].lastIndex(of: UInt8(ascii: "@")), let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at {
                found.append(colon + 1..<at)
            } else if let slash = bytes[start..<end].firstIndex(of: UInt8(ascii: "/")) ?? Optional(end),
                      let colon = bytes[start..<slash].lastIndex(of: UInt8(ascii: ":")), colon + 1 < slash,
                      !bytes[colon + 1..<slash].allSatisfy({ $0 >= 48 && $0 <= 57 || $0 == UInt8(ascii: ",") }) {
                // No "@": libpq reads "user:secret" as a host and a port; a port that is not a
                // number was meant as a password.
                found.append(colon + 1..<slash)
            }
        }
        // password=… as a URI parameter or in libpq's key=value form, its key perhaps
        // percent-encoded (libpq decodes "pass%77ord").
        var segment = 0
        while segment < bytes.count {
            let end = bytes[segment...].firstIndex { [UInt8(ascii: "&"), UInt8(ascii: "?"), UInt8(ascii: " ")].contains($0) } ?? bytes.count
            if let equals = bytes[segment..<end].firstIndex(of: UInt8(ascii: "=")), equals + 1 < end,
               String(decoding: bytes[segment..<equals], as: UTF8.self).removingPercentEncoding?.lowercased() == "password",
               !found.contains(where: { $0.overlaps(equals + 1..<end) }) {
                found.append(equals + 1..<end)
            }
            segment = end + 1
        }
        return found.sorted { $0.lowerBound < $1.lowerBound }
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
