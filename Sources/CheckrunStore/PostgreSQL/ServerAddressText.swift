import CheckrunModel

/// A PostgreSQL server's address as a user gives it (`postgresql://user:password@host/db?…`),
/// and as checkrun shows it: never with its password.
package enum ServerAddressText {
    package static func isServer(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// The address with its scheme in lower case: checkrun takes "Postgresql://" as a server,
    /// and libpq knows only "postgresql://" and "postgres://" (it would send the whole text,
    /// password and all, to the server as a database name).
    package static func withLowercaseScheme(_ text: String) -> String {
        guard isServer(text), let colon = text.firstIndex(of: ":") else { return text }
        return text[..<colon].lowercased() + text[colon...]
    }

    /// Whether `text` is written whole in libpq's key=value form ("host=db dbname=team
    /// password='…'": libpq's own keys, in lower case as libpq wants them), which checkrun does
    /// not take: without this it would be a file name, and a `record` would say "Recorded" into
    /// a new SQLite file named after the password. A name with a word that is no such pair
    /// ("results port=2.sqlite") is a file name.
    package static func isKeyValueConnectionString(_ text: String) -> Bool {
        guard !isServer(text) else { return false }
        var rest = Substring(text), pairs = 0
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.isEmpty { return pairs > 0 }
            let key = rest.prefix { $0.isLetter || $0 == "_" }
            guard libpqKeys.contains(String(key)) else { return false }
            rest = rest.dropFirst(key.count).drop { $0.isWhitespace }
            guard rest.first == "=" else { return false }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            if rest.first == "'" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "'" { rest = rest.dropFirst(character == "\\" ? 2 : 1) }
                guard rest.first == "'" else { return false }
                rest = rest.dropFirst()
            } else {
                rest = rest.drop { !$0.isWhitespace }
            }
            pairs += 1
        }
    }

    /// libpq's connection keys (PostgreSQL 17's), as `PQconndefaults` lists them.
    static let libpqKeys: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding", "connect_timeout",
        "client_encoding", "options", "application_name", "fallback_application_name", "keepalives", "keepalives_idle",
        "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode", "sslmode", "sslnegotiation",
        "sslcompression", "sslcert", "sslkey", "sslpassword", "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni",
        "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service",
        "target_session_attrs", "load_balance_hosts",
    ]

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
        let userPart = userPartEnd(in: bytes, from: start)
        let end = bytes[(userPart.map { $0 + 1 } ?? start)...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        if let at = userPart {
            if let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")), colon + 1 < at { found.append(colon + 1..<at) }
        } else if let slash = bytes[start..<end].firstIndex(of: UInt8(ascii: "/")) ?? Optional(end),
                  let colon = bytes[start..<slash].lastIndex(of: UInt8(ascii: ":")), colon + 1 < slash,
                  !bytes[start..<colon].contains(UInt8(ascii: "[")), !isPort(bytes[colon + 1..<slash]) {
            // No "@": libpq reads "user:secret" as a host and a port; a port that is not a
            // number was meant as a password (an IPv6 host's colons are in brackets).
            found.append(colon + 1..<slash)
        }
        // password=… as a URI parameter, its key perhaps percent-encoded (libpq decodes
        // "pass%77ord"). libpq ends a parameter at "&" only: a "?" is part of its value.
        var segment = end + 1
        while segment < bytes.count {
            let next = bytes[segment...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            if let equals = bytes[segment..<next].firstIndex(of: UInt8(ascii: "=")), equals + 1 < next,
               String(decoding: bytes[segment..<equals], as: UTF8.self).removingPercentEncoding?.lowercased() == "password" {
                found.append(equals + 1..<next)
            }
            segment = next + 1
        }
        return found
    }

    /// Where the user part ends: libpq ends it at the first "@" before any "/" (a "?" or ":"
    /// in a password is its own). A host holds no "@", so another one before the host ends was
    /// typed in the password; a "/" before the "@" too (with no port before it). libpq reads
    /// those otherwise, and checkrun refuses them (`unencodedCharacter`), but masks them whole.
    private static func userPartEnd(in bytes: [UInt8], from start: Int) -> Int? {
        let at = UInt8(ascii: "@"), slash = UInt8(ascii: "/"), question = UInt8(ascii: "?")
        guard let first = bytes[start...].firstIndex(where: { $0 == at || $0 == slash }) else { return nil }
        if bytes[first] == at {
            var end = first
            while let next = bytes[(end + 1)...].firstIndex(where: { $0 == at || $0 == slash || $0 == question }), bytes[next] == at { end = next }
            return end
        }
        // "/" first: a database name may hold an "@" ("/qa@team"), but not after "user:secret/".
        guard let colon = bytes[start..<first].firstIndex(of: UInt8(ascii: ":")), !bytes[start..<colon].contains(UInt8(ascii: "[")),
              !isPort(bytes[colon + 1..<first]) else { return nil }
        let parameters = (first..<bytes.count).first { bytes[$0] == question && !isInPassword(bytes, after: $0) } ?? bytes.count
        return bytes[first..<parameters].lastIndex(of: at)
    }

    /// Whether a "?" is followed by more of a password and its "@" rather than a `key=value`.
    private static func isInPassword(_ bytes: [UInt8], after question: Int) -> Bool {
        let parameter = bytes[(question + 1)...].prefix { $0 != UInt8(ascii: "&") }
        guard let equals = parameter.firstIndex(of: UInt8(ascii: "=")) else { return parameter.contains(UInt8(ascii: "@")) }
        return parameter[..<equals].contains(UInt8(ascii: "@"))
    }

    /// Digits and commas: a port, or several hosts' ports.
    private static func isPort(_ text: ArraySlice<UInt8>) -> Bool {
        !text.isEmpty && text.allSatisfy { $0 >= 48 && $0 <= 57 || $0 == UInt8(ascii: ",") }
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

    /// The character that makes libpq read the address's password otherwise than it was meant
    /// ("/" or "@" typed as it is: part of the password read as a host or a port, and quoted
    /// back in libpq's message), so it is refused before libpq reads it.
    package static func unencodedCharacter(inPasswordOf text: String) -> Character? {
        let bytes = Array(text.utf8)
        guard let start = authorityStart(in: bytes), let range = passwordOffsets(in: bytes).first, range.lowerBound > start,
              bytes[range.lowerBound - 1] == UInt8(ascii: ":") else { return nil }
        return String(decoding: bytes[range], as: UTF8.self).first { "/@".contains($0) }
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
