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
        let scheme = authorityStart(in: bytes)
        // Without a scheme, libpq's key=value form too ("user=ana:x@y password=…" is both).
        var found: [Range<Int>] = []
        if let start = scheme ?? schemelessUserStart(in: bytes) {
            found += parameterPasswords(in: bytes, from: start) + (scheme == nil ? keyValuePasswords(in: bytes) : [])
            for reading in [true, false] {
                if let range = userPassword(in: bytes, from: start, asLibpqReadsIt: reading) { found.append(range) }
            }
            if let range = widestUserPassword(in: bytes, from: start) { found.append(range) }
        } else {
            found += keyValuePasswords(in: bytes)
        }
        // What no reading above takes for an address ("postgresql;//ana:secret@db") may still hold one.
        if found.isEmpty { found = looseUserPasswords(in: bytes) }
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

    /// The user part's password read as widely as it may have been meant: from the colon
    /// after the user name to the last "@" before a parameter of libpq's own ("?host=…"), any
    /// "?" and "/" included ("ana:p@Top?&@db", "ana:x@My/pw?a=b@db"). Read only to the last
    /// "@" before whatever looked like parameters, such a password was shown from its first "@" on.
    static func widestUserPassword(in bytes: [UInt8], from start: Int) -> Range<Int>? {
        let at = UInt8(ascii: "@")
        let parameters = (start..<bytes.count).first { bytes[$0] == UInt8(ascii: "?") && startsLibpqParameter(bytes[($0 + 1)...]) } ?? bytes.count
        guard let firstAt = bytes[start..<parameters].firstIndex(of: at), let lastAt = bytes[start..<parameters].lastIndex(of: at),
              let colon = bytes[start..<firstAt].firstIndex(of: UInt8(ascii: ":")), colon + 1 < lastAt else { return nil }
        return colon + 1..<lastAt
    }

    /// Whether `bytes` begin with one of libpq's keys and "=".
    private static func startsLibpqParameter(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return false }
        return libpqKeys.contains(String(decoding: bytes[..<equals], as: UTF8.self))
    }

    /// Whether libpq would read the address's user part otherwise than it was meant: an "@",
    /// "/" or "?" typed as it is in the password or the database name ("ana:p@ss@db", libpq's
    /// password "p" and host "ss@db"). Refused before libpq reads it, which would quote part of
    /// the password back as a host or port. An "@" that libpq takes as the user part's end
    /// inside a parameter ("db?password=p@ss") is misread too, as is a third slash after the
    /// scheme (libpq reads the rest as a database name, password and all).
    package static func isMisread(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let start = authorityStart(in: bytes) else { return false }
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), start - colon - 1 != 2, bytes[start...].contains(UInt8(ascii: "@")) { return true }
        return userPartEnd(in: bytes, from: start, asLibpqReadsIt: true) != userPartEnd(in: bytes, from: start, asLibpqReadsIt: false)
            || userPassword(in: bytes, from: start, asLibpqReadsIt: true) != userPassword(in: bytes, from: start, asLibpqReadsIt: false)
    }

    /// Where the user part ends: libpq ends it at the first "@" before any "/"; as it may have
    /// been meant, at the last "@" before the parameters.
    static func userPartEnd(in bytes: [UInt8], from start: Int, asLibpqReadsIt: Bool) -> Int? {
        let at = UInt8(ascii: "@"), slash = UInt8(ascii: "/")
        return asLibpqReadsIt
            ? bytes[start...].firstIndex { $0 == at || $0 == slash }.flatMap { bytes[$0] == at ? $0 : nil }
            : bytes[start..<parametersStart(in: bytes, from: start)].lastIndex(of: at)
    }

    /// The user part's password. libpq ends the user part at the first "@" before any "/" (a
    /// "?" or ":" in a password is its own); as it may have been meant, it ends at the last "@"
    /// before the parameters. Without an "@", libpq reads "user:secret" as a host and a port,
    /// and a port that is not a number was meant as a password (an IPv6 host's colons are in
    /// brackets; several hosts, "h1:5432,h2", have ports of their own).
    static func userPassword(in bytes: [UInt8], from start: Int, asLibpqReadsIt: Bool) -> Range<Int>? {
        let slash = UInt8(ascii: "/"), colon = UInt8(ascii: ":"), question = UInt8(ascii: "?")
        if let end = userPartEnd(in: bytes, from: start, asLibpqReadsIt: asLibpqReadsIt) {
            guard let separator = bytes[start..<end].firstIndex(of: colon), separator + 1 < end else { return nil }
            return separator + 1..<end
        }
        let hostEnd = bytes[start...].firstIndex { $0 == slash || $0 == question } ?? bytes.count
        guard let separator = bytes[start..<hostEnd].lastIndex(of: colon), separator + 1 < hostEnd,
              !bytes[start..<hostEnd].contains(UInt8(ascii: ",")), !bytes[start..<separator].contains(UInt8(ascii: "[")),
              !isPort(bytes[separator + 1..<hostEnd]) else { return nil }
        return separator + 1..<hostEnd
    }

    /// Where the parameters begin: the first "?" followed by a `key=value`, not by more of a
    /// password and its "@".
    private static func parametersStart(in bytes: [UInt8], from start: Int) -> Int {
        (start..<bytes.count).first { bytes[$0] == UInt8(ascii: "?") && !isInPassword(bytes, after: $0) } ?? bytes.count
    }

    /// The keys whose values are secrets: a server password, and a client key's passphrase.
    static let secretKeys: Set<String> = ["password", "sslpassword"]

    /// The value of every `password=` after a "?" or "&", its key perhaps percent-encoded
    /// (libpq decodes "pass%77ord"); libpq ends a parameter at "&" only, so a "?" is part of it.
    private static func parameterPasswords(in bytes: [UInt8], from start: Int) -> [Range<Int>] {
        var found: [Range<Int>] = []
        for index in start..<bytes.count where bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "&") {
            let next = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            guard let equals = bytes[(index + 1)..<next].firstIndex(of: UInt8(ascii: "=")), equals + 1 < next,
                  secretKeys.contains(String(decoding: bytes[(index + 1)..<equals], as: UTF8.self).removingPercentEncoding?.lowercased() ?? "") else { continue }
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

    /// Where the part after `scheme:` and its slashes begins, for any scheme (a mistyped one
    /// too, one slash as well as two, a driver's "postgresql+psycopg2:" and a chain of them,
    /// "jdbc:postgresql:"); nil when the text names no scheme.
    static func authorityStart(in bytes: [UInt8]) -> Int? {
        if let start = mistypedSchemeEnd(in: bytes) { return start }
        guard let colon = bytes.indices.dropLast().first(where: { bytes[$0] == UInt8(ascii: ":") && bytes[$0 + 1] == UInt8(ascii: "/") }) else { return nil }
        let scheme = bytes[..<colon].split(separator: UInt8(ascii: "="), omittingEmptySubsequences: false).last ?? []
        let isLetter: (UInt8) -> Bool = { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 }
        guard let first = scheme.first, isLetter(first),
              scheme.allSatisfy({ isLetter($0) || ($0 >= 48 && $0 <= 57) || Array("+.-:".utf8).contains($0) }) else { return nil }
        var start = colon + 1
        while start < bytes.count, bytes[start] == UInt8(ascii: "/") { start += 1 }
        return start
    }

    /// An address typed without any scheme, "ana:secret@db/checkrun" (perhaps after `--db=`):
    /// where its user part begins. Only with a ":" before an "@", no space up to the "@" and no
    /// "/" before the ":" (which a user name never holds), so a file's path or a sentence is
    /// left as it is.
    static func schemelessUserStart(in bytes: [UInt8]) -> Int? {
        let colon = UInt8(ascii: ":"), at = UInt8(ascii: "@")
        guard let separator = bytes.firstIndex(of: colon), let end = bytes[separator...].firstIndex(of: at) else { return nil }
        // Slashes before it ("//ana:secret@db/team", a network path's form) are no part of the user.
        let start = bytes[..<separator].lastIndex(of: UInt8(ascii: "=")).map { $0 + 1 } ?? (bytes.firstIndex { $0 != UInt8(ascii: "/") } ?? 0)
        guard start < separator, !bytes[start..<separator].contains(UInt8(ascii: "/")), !bytes[start..<end].contains(where: { $0 <= 32 }) else { return nil }
        return start
    }

    /// After a PostgreSQL scheme typed without its "//" or with spaces before it
    /// ("postgresql:ana:secret@db", " postgres://…"): where the rest begins, so its password is
    /// masked all the same; nil for anything else.
    static func mistypedSchemeEnd(in bytes: [UInt8]) -> Int? {
        var index = bytes.firstIndex { $0 != 32 && $0 != 9 } ?? bytes.count
        let lowered = bytes[index...].prefix(10).map { $0 | 0x20 }
        guard lowered.starts(with: Array("postgres".utf8)) else { return nil }
        index += lowered.starts(with: Array("postgresql".utf8)) ? 10 : 8
        let schemeEnd = index
        // Spaces between the scheme and its colon ("postgresql ://") are a mistype too.
        var colon = index
        while colon < bytes.count, bytes[colon] == 32 || bytes[colon] == 9 { colon += 1 }
        if colon < bytes.count, bytes[colon] == UInt8(ascii: ":") { index = colon + 1 }
        while index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
        let exact = bytes[schemeEnd...].starts(with: Array("://".utf8)) && bytes[..<schemeEnd].first != 32 && bytes[..<schemeEnd].first != 9
        return index > schemeEnd && !exact ? index : nil
    }

    /// Whether `text` looks like a server address that is not one libpq reads: a PostgreSQL
    /// scheme without its "//", or with spaces before it. Refused rather than taken for a file
    /// name (one that is there is a file).
    package static func isMistypedServer(_ text: String) -> Bool {
        mistypedSchemeEnd(in: Array(text.utf8)) != nil && !isServer(text)
    }
}
