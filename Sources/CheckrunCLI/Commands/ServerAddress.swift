import CheckrunStore

/// A database server's address given where a database file is expected (`--db`,
/// `CHECKRUN_DB`, a merge source): `postgresql://…` or `postgres://…`. This checkrun keeps
/// results in SQLite files only, so such an address is refused with a clear line, its
/// password never shown, rather than taken for a strangely named file.
enum ServerAddress {
    static func refuse(_ text: String) throws {
        guard ServerAddressText.isServer(text) else { return }
        throw CommandFailure("\(ServerAddressText.masked(text)) is a PostgreSQL address; this checkrun keeps results in SQLite files only (a team store on PostgreSQL is not built yet). Name a database file, e.g. --db team.sqlite")
    }
}
