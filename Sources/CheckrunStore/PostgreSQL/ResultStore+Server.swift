import Foundation

extension ResultStore {
    /// Whether this checkrun was built with the PostgreSQL team store (`--traits PostgreSQL`).
    package static var canUseServers: Bool {
        #if PostgreSQL
        true
        #else
        false
        #endif
    }

    /// A connection to the team store at `uri`, set up for use, how to open more of them, and
    /// whether this opening set the store up in a database that held none.
    static func openServer(_ uri: String, access: Access, upgrading: ((Int, Int) -> Void)?) throws(StoreError) -> (any StoreConnection, StoreOpener, Bool) {
        #if PostgreSQL
        let connection = try PostgresConnection(uri: uri)
        let setUp: Bool
        do {
            setUp = try PostgresSetup.prepare(connection, access: access, upgrading: upgrading)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("cannot prepare the PostgreSQL store \(connection.name): \(error)")
        }
        let opener = StoreOpener { ResultStore(readingDatabase: try PostgresConnection(uri: uri), serverOpener: nil) }
        return (connection, opener, setUp)
        #else
        throw StoreError("\(ServerAddressText.masked(uri)) is a PostgreSQL address, and this checkrun was built without the team store; build it with swift build --traits PostgreSQL, or name a database file, e.g. --db team.sqlite")
        #endif
    }
}

extension ResultStore {
    /// Said, without the text, for a `--db` in libpq's key=value form: echoing it would show its password.
    package static let keyValueRefusal = StoreError(
        "the database is named in libpq's key=value form (host=… dbname=…), which checkrun does not take; name the server as a URI instead, e.g. postgresql://ana@db.example.com/checkrun, with the password in PGPASSWORD or ~/.pgpass (a new file of such a name: write it as ./NAME)")

    /// Said, without the text, for a server address mistyped (no "//" after the scheme, or
    /// spaces before it): taken for a file name, it would make a file named after the password.
    package static let mistypedServerRefusal = StoreError(
        "the database looks like a PostgreSQL address that is not written as one; write it as postgresql://user@host/dbname (two slashes, nothing before it), or name a new file of such a name as ./NAME")

    /// Refuses a database name that is neither a server address nor a file that is there, but
    /// would be read as a new file named after a password: libpq's key=value form, a mistyped
    /// scheme. The refusal does not repeat the name.
    package static func refuseMisnamedServer(_ path: String) throws(StoreError) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        if ServerAddressText.isKeyValueConnectionString(path) { throw keyValueRefusal }
        if ServerAddressText.isMistypedServer(path) || ServerAddressText.holdsLooseCredentials(path) { throw mistypedServerRefusal }
    }

    /// Creates an empty database on the server at `uri` (for tests and the benchmark, which
    /// need a database of their own on a throwaway server).
    package static func createServerDatabase(_ name: String, administering uri: String) throws {
        #if PostgreSQL
        let connection = try PostgresConnection(uri: uri)
        defer { connection.close() }
        try connection.exec("CREATE DATABASE \(quotedIdentifier(name)) TEMPLATE template0 ENCODING 'UTF8'")
        #else
        throw StoreError("this checkrun was built without PostgreSQL")
        #endif
    }

    /// Drops a database `createServerDatabase` made, closing its connections.
    package static func dropServerDatabase(_ name: String, administering uri: String) throws {
        #if PostgreSQL
        let connection = try PostgresConnection(uri: uri)
        defer { connection.close() }
        try connection.exec("DROP DATABASE IF EXISTS \(quotedIdentifier(name)) WITH (FORCE)")
        #else
        throw StoreError("this checkrun was built without PostgreSQL")
        #endif
    }

    private static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
