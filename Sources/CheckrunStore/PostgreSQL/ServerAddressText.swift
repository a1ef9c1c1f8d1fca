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

    /// Whether `text` is written in libpq's key=value form, which checkrun does not take:
    /// without this it would be a file name, and a `record` would say "Recorded" into a new
    /// SQLite file named after the password. It is when it holds a `password=` (however the
    /// rest is spelled), or is made wholly of `key=value` pairs, one of them libpq's own
    /// ("host=db dbname=team"). A name with a word that is no pair ("results port=2.sqlite")
    /// is a file name.
    package static func isKeyValueConnectionString(_ text: String) -> Bool {
        guard !isServer(text) else { return false }
        if !keyValuePasswords(in: Array(text.utf8)).isEmpty { return true }
        var rest = Substring(text), pairs = 0, known = false
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.isEmpty { return pairs > 0 && known }
            let key = rest.prefix { $0.isLetter || $0 == "_" }
            guard !key.isEmpty else { return false }
            known = known || libpqKeys.contains(String(key))
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
    /// after `--db=`, even with a mistyped scheme), as byte offsets: the user part's password
    /// as libpq reads it and as it may have been meant (the longer wins where they differ), and
    /// the value of every `password=` after a "?" or "&" (a URI parameter, a "?" typed for an
    /// "&", or libpq's key=value form). Masking too much is harmless; too little shows a password.
    package static func passwordOffsets(in bytes: [UInt8]) -> [Range<Int>] {
        guard let start = authorityStart(in: bytes) else { return keyValuePasswords(in: bytes) }
        var found = parameterPasswords(in: bytes, from: start)
        for reading in [true, false] {
            if let range = userPassword(in: bytes, from: start, asLibpqReadsIt: reading) { found.append(range) }
        }
        found.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in found {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// Whether libpq would read the address's user part otherwise than it was meant: an "@",
    /// "/" or "?" typed as it is in the password or the database name ("ana:p@ss@db", libpq's
    /// password "p" and host "ss@db"). Refused before libpq reads it, which would quote part of
    /// the password back as a host or port.
    package static func isMisread(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let start = authorityStart(in: bytes) else { return false }
        return userPassword(in: bytes, from: start, asLibpqReadsIt: true) != userPassword(in: bytes, from: start, asLibpqReadsIt: false)
    }

    /// The user part's password. libpq ends the user part at the first "@" before any "/" (a
    /// "?" or ":" in a password is its own); as it may have been meant, it ends at the last "@"
    /// before the parameters. Without an "@", libpq reads "user:secret" as a host and a port,
    /// and a port that is not a number was meant as a password (an IPv6 host's colons are in
    /// brackets).
    static func userPassword(in bytes: [UInt8], from start: Int, asLibpqReadsIt: Bool) -> Range<Int>? {
        let at = UInt8(ascii: "@"), slash = UInt8(ascii: "/"), colon = UInt8(ascii: ":"), question = UInt8(ascii: "?")
        let end: Int? = asLibpqReadsIt
            ? bytes[start...].firstIndex { $0 == at || $0 == slash }.flatMap { bytes[$0] == at ? $0 : nil }
            : bytes[start..<parametersStart(in: bytes, from: start)].lastIndex(of: at)
        if let end {
            guard let separator = bytes[start..<end].firstIndex(of: colon), separator + 1 < end else { return nil }
            return separator + 1..<end
        }
        let hostEnd = bytes[start...].firstIndex { $0 == slash || $0 == question } ?? bytes.count
        guard let separator = bytes[start..<hostEnd].lastIndex(of: colon), separator + 1 < hostEnd,
              !bytes[start..<separator].contains(UInt8(ascii: "[")), !isPort(bytes[separator + 1..<hostEnd]) else { return nil }
        return separator + 1..<hostEnd
    }

    /// Where the parameters begin: the first "?" followed by a `key=value`, not by more of a
    /// password and its "@".
    private static func parametersStart(in bytes: [UInt8], from start: Int) -> Int {
        (start..<bytes.count).first { bytes[$0] == UInt8(ascii: "?") && !isInPassword(bytes, after: $0) } ?? bytes.count
    }

    /// The value of every `password=` after a "?" or "&", its key perhaps percent-encoded
    /// (libpq decodes "pass%77ord"); libpq ends a parameter at "&" only, so a "?" is part of it.
    private static func parameterPasswords(in bytes: [UInt8], from start: Int) -> [Range<Int>] {
        var found: [Range<Int>] = []
        for index in start..<bytes.count where bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "&") {
            let next = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            guard let equals = bytes[(index + 1)..<next].firstIndex(of: UInt8(ascii: "=")), equals + 1 < next,
                  String(decoding: bytes[(index + 1)..<equals], as: UTF8.self).removingPercentEncoding?.lowercased() == "password" else { continue }
            found.append(equals + 1..<next)
        }
        return found
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
