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
    package static func withoutPassword(_ text: String) -> String {
        guard isServer(text) else { return text }
        var address = text
        if let schemeEnd = text.range(of: "://"), let at = text[schemeEnd.upperBound...].lastIndex(of: "@"),
           let colon = text[schemeEnd.upperBound..<at].firstIndex(of: ":") {
            address.removeSubrange(colon..<at)
        }
        if let question = address.firstIndex(of: "?") {
            let parameters = address[address.index(after: question)...].split(separator: "&").filter { !$0.lowercased().hasPrefix("password=") }
            address = String(address[..<question]) + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        }
        return address
    }

    /// The address with any password replaced by "…" (in the user part and as a parameter),
    /// its control characters made visible.
    package static func masked(_ uri: String) -> String {
        var shown = uri
        // The user part ends at the last "@": a password typed without percent-encoding may
        // hold "/", "?" or "@" itself, and must be masked whole.
        if let schemeEnd = uri.range(of: "://"), let at = uri[schemeEnd.upperBound...].lastIndex(of: "@"),
           let colon = uri[schemeEnd.upperBound..<at].firstIndex(of: ":") {
            shown.replaceSubrange(uri.index(after: colon)..<at, with: "…")
        }
        if let question = shown.firstIndex(of: "?") {
            let parameters = shown[shown.index(after: question)...].split(separator: "&").map { part in
                part.lowercased().hasPrefix("password=") ? "password=…" : String(part)
            }
            shown = String(shown[...question]) + parameters.joined(separator: "&")
        }
        return DisplayText.neutralised(shown)
    }
}

extension ServerAddressText {
    /// Where the passwords are in `bytes` (an argument that holds a server address, perhaps
    /// after `--db=`): the user part's password and any `password=` parameter, as byte offsets.
    package static func passwordOffsets(in bytes: [UInt8]) -> [Range<Int>] {
        let lowered = bytes.map { $0 | 0x20 }
        guard let scheme = [Array("postgresql://".utf8), Array("postgres://".utf8)].lazy.compactMap({ firstOffset(of: $0, in: lowered) }).first else {
            return []
        }
        let start = scheme.upperBound
        var found: [Range<Int>] = []
        if let at = bytes[start...].lastIndex(of: UInt8(ascii: "@")), let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at {
            found.append(colon + 1..<at)
        }
        if let question = bytes[start...].firstIndex(of: UInt8(ascii: "?")) {
            var segment = question + 1
            while segment < bytes.count {
                let end = bytes[segment...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
                let key = Array("password=".utf8)
                if end - segment > key.count, Array(lowered[segment..<segment + key.count]) == key { found.append(segment + key.count..<end) }
                segment = end + 1
            }
        }
        return found
    }

    private static func firstOffset(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return start..<start + needle.count
        }
        return nil
    }
}
