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
        let lowered = bytes.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
        var found: [Range<Int>] = []
        if let scheme = firstOffset(of: Array("://".utf8), in: lowered) {
            let start = scheme.upperBound
            if let at = bytes[start...].lastIndex(of: UInt8(ascii: "@")), let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at {
                found.append(colon + 1..<at)
            }
        }
        let key = Array("password=".utf8)
        var from = 0
        while let match = firstOffset(of: key, in: Array(lowered[from...])).map({ ($0.lowerBound + from)..<($0.upperBound + from) }) {
            let end = bytes[match.upperBound...].firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: " ") } ?? bytes.count
            if end > match.upperBound && !found.contains(where: { $0.overlaps(match) }) { found.append(match.upperBound..<end) }
            from = match.upperBound
        }
        return found.sorted { $0.lowerBound < $1.lowerBound }
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
        addresses.flatMap(passwords(in:)).reduce(message) { $0.replacingOccurrences(of: $1, with: "…") }
    }

    private static func firstOffset(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return start..<start + needle.count
        }
        return nil
    }
}
