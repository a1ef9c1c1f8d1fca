import CheckrunModel

/// libpq's key=value form, which checkrun refuses but must still mask, and the scrubbing of
/// any text that may repeat an address a user typed.
extension ServerAddressText {
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

    /// The value of every `password` (and `sslpassword`) in libpq's key=value form, which allows spaces around
    /// "=" and a value in single quotes (with \' and \\ inside); also after any mark that is
    /// no part of a word (`;Password=`, `?password=`), as other programs' connection strings
    /// write it: one of those taken for a file name was echoed, and made a file named after it.
    static func keyValuePasswords(in bytes: [UInt8]) -> [Range<Int>] {
        let keys = secretKeys.map { Array($0.utf8) }, space: (UInt8) -> Bool = { $0 == 32 || ($0 >= 9 && $0 <= 13) }
        let wordByte: (UInt8) -> Bool = { $0 == UInt8(ascii: "_") || $0 >= 0x80 || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & 0xDF) }
        var found: [Range<Int>] = [], index = 0
        while index < bytes.count {
            defer { index += 1 }
            guard index == 0 || !wordByte(bytes[index - 1]),
                  let key = keys.first(where: { key in index + key.count <= bytes.count && zip(bytes[index..<index + key.count], key).allSatisfy { $0 | 0x20 == $1 } })
            else { continue }
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

    /// Every password `text` holds, as typed and percent-decoded, longest first; those of fewer
    /// than four characters are left out (replacing every "ab" in a message would garble it;
    /// the addresses that hold them are masked whole, by `hiding`).
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

    /// What to replace in text that may repeat `addresses`, longest first: each address that
    /// holds a password, as typed and as the terminal shows it, by its masked form (a short
    /// password too); then each password of four characters or more, in either form, by "…":
    /// everywhere (`bare`, for text that came from elsewhere, as libpq's), or only where it
    /// stands as a password (`:PASSWORD@`, `password=PASSWORD`), for checkrun's own output,
    /// whose words a password such as "checkrun" or "pass" would otherwise cut out of a
    /// resume hint or a verdict, and a short one give itself away by the gap it leaves.
    package static func hiding(_ addresses: [String], bare: Bool = true) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for address in addresses where !passwordOffsets(in: Array(address.utf8)).isEmpty {
            let shown = masked(address)
            for form in Set([address, DisplayText.neutralised(address), DisplayText.terminalSafe(address)]) { pairs.append((form, shown)) }
        }
        for password in Set(addresses.flatMap(passwords(in:))) {
            for form in Set([password, DisplayText.neutralised(password), DisplayText.terminalSafe(password)]) {
                pairs += bare ? [(form, "…")] : [(":\(form)@", ":…@"), ("password=\(form)", "password=…"), ("password='\(form)'", "password='…'")]
            }
        }
        return pairs.sorted { $0.0.utf8.count > $1.0.utf8.count }
    }

    /// `message` with every password of `addresses` hidden: for text that came from elsewhere
    /// (libpq's messages, a path echoed back) and might repeat one.
    package static func scrubbed(_ message: String, passwordsOf addresses: [String]) -> String {
        scrubbed(message, hiding: hiding(addresses))
    }

    /// `message` with each pair of `hiding` replaced.
    package static func scrubbed(_ message: String, hiding pairs: [(String, String)]) -> String {
        pairs.reduce(message) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }
}
