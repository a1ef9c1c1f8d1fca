import CheckrunStore

/// A database server's address given where a database file is expected (`--db`,
/// `CHECKRUN_DB`, a merge source): `postgresql://…` or `postgres://…`. This checkrun keeps
/// results in SQLite files only, so such an address is refused with a clear line, its
/// password never shown, rather than taken for a strangely named file.
enum ServerAddress {
    static func isServer(_ text: String) -> Bool { ServerAddressText.isServer(text) }

    /// How messages name a database: a file by its path, a server by its address without the password.
    static func shown(_ text: String) -> String {
        ServerAddressText.passwordOffsets(in: Array(text.utf8)).isEmpty ? text : ServerAddressText.masked(text)
    }
}
