extension ServerAddressText {
    /// The passwords of "user:password@" written without a scheme libpq reads, or with one
    /// mistyped past recognising ("postgresql;//ana:secret@db", "postgresq:ana:secret@db",
    /// "postgresql.//ana:secret@db"), as byte offsets: for each "@", from the first ":" after the
    /// last "//" (or the last space, or the start) before it. A file's name seldom holds both; a
    /// stretch masked in one is harmless, a password shown is not.
    static func looseUserPasswords(in bytes: [UInt8]) -> [Range<Int>] {
        let at = UInt8(ascii: "@"), colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/")
        var found: [Range<Int>] = []
        var segmentStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte <= 32 || (byte == slash && index > 0 && bytes[index - 1] == slash) {
                segmentStart = index + 1
            } else if byte == at {
                if let separator = bytes[segmentStart..<index].firstIndex(of: colon), separator + 1 < index {
                    found.append(separator + 1..<index)
                }
                segmentStart = index + 1
            }
        }
        return found
    }

    /// Whether a `--db` that names no file there reads as a server address with its password,
    /// whatever its scheme ("postgresql;ana:secret@db"): refused, rather than made a file named
    /// after the password while the tester believes the answer reached the team store. A name
    /// written as a path ("./", "/", "../") is a file.
    package static func holdsLooseCredentials(_ text: String) -> Bool {
        guard !text.hasPrefix("/"), !text.hasPrefix("."), !isServer(text) else { return false }
        return !looseUserPasswords(in: Array(text.utf8)).isEmpty
    }
}
