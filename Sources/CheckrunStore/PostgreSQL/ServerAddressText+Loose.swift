extension ServerAddressText {
    /// The password of an address whose scheme was mistyped past recognising, its "://" typed
    /// as another mark ("postgresql;//ana:secret@db", "postgresql.//ana:secret@db",
    /// "postgresq:ana:secret@db"), as byte offsets: a word beginning with "p" (a PostgreSQL
    /// scheme, misspelled or not), one of ":;.,", any slashes, then "user:password@". Only that
    /// shape: a file's name holding "10:30@ipad" is a file's name, shown and used as it is.
    static func looseUserPasswords(in bytes: [UInt8]) -> [Range<Int>] {
        var index = bytes.firstIndex { $0 != 32 && $0 != 9 } ?? bytes.count
        let schemeStart = index
        let isSchemeByte = { (byte: UInt8) in (byte | 0x20) >= 97 && (byte | 0x20) <= 122 || (48...57).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") }
        while index < bytes.count, isSchemeByte(bytes[index]) { index += 1 }
        guard index - schemeStart >= 2, index - schemeStart <= 12, bytes[schemeStart] | 0x20 == UInt8(ascii: "p"),
              index < bytes.count, Array(":;.,".utf8).contains(bytes[index]) else { return [] }
        index += 1
        while index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
        let userStart = index
        while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
            if bytes[index] <= 32 || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "@") { return [] }
            index += 1
        }
        guard index > userStart, index < bytes.count else { return [] }
        let passwordStart = index + 1
        let segmentEnd = bytes[passwordStart...].firstIndex { $0 <= 32 } ?? bytes.count
        guard let at = bytes[passwordStart..<segmentEnd].lastIndex(of: UInt8(ascii: "@")), at > passwordStart else { return [] }
        return [passwordStart..<at]
    }

    /// Whether a `--db` that names no file there reads as such an address, with its password:
    /// refused, rather than made a file named after the password while the tester believes the
    /// answer reached the team store. A name written as a path ("./", "/", "../") is a file.
    package static func holdsLooseCredentials(_ text: String) -> Bool {
        guard !text.hasPrefix("/"), !text.hasPrefix("."), !isServer(text) else { return false }
        return !looseUserPasswords(in: Array(text.utf8)).isEmpty
    }
}
