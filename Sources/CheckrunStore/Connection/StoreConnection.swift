import Foundation

/// The engine a store's connection talks to.
package enum StoreEngine: String, Sendable {
    case sqlite = "SQLite"
    case postgresql = "PostgreSQL"
}

/// The one interface the store's code talks to, whichever engine holds the results: statements
/// with bound parameters only, rows streamed to a closure, and all-or-nothing transactions.
/// SQL is written once in the form both engines accept (`?` and `?N` placeholders); what only
/// one engine can do (blobs, pragmas, schemas) lives beside that engine's connection.
protocol StoreConnection: AnyObject {
    /// How messages name the database: a path, or a server address without its password.
    var name: String { get }
    var engine: StoreEngine { get }

    /// Runs SQL text that may hold several statements and takes no parameters (schema).
    func execute(_ sql: String) throws
    /// Runs one statement that returns no rows.
    func run(_ sql: String, _ values: [SQLValue]) throws
    /// Runs a query and hands each row to `read`.
    func forEach(_ sql: String, _ values: [SQLValue], _ read: (Row) throws -> Void) throws
    /// Runs `body` as one transaction (a savepoint inside another): all of it lands, or none.
    /// `scope` is what it writes: a server lets writers of different sessions commit side by
    /// side; SQLite has one writer at a time whatever the scope.
    func transaction<T>(_ scope: WriteScope, _ body: () throws -> T) throws -> T
    /// A long write as a series of transactions, cut where `body` calls `boundary`.
    func batches<T>(every interval: TimeInterval, _ body: (_ boundary: () throws -> Void) throws -> T) throws -> T
    /// Begins a read-only transaction that sees one snapshot until its COMMIT, whatever others write.
    func beginSnapshot() throws
    /// How long a write waits for another writer's lock before it gives up.
    func waitWhenBusy(seconds: Int)
    /// Connects again after the connection was lost (a server restarted); SQLite never loses it.
    func reconnect() throws
    /// Ends the connection; for SQLite after refreshing the planner's statistics if it wrote.
    func finish()
}

/// What a write transaction changes, so a server knows whom it must wait for.
enum WriteScope: Sendable {
    /// Anything: attempt numbers, several sessions, a merge. One such writer at a time.
    case everything
    /// One session's results and records (an answer saved): waits only for writers of the
    /// same session, and for writers of everything.
    case session(UUID)
    /// One attachment's bytes (content-addressed): a long upload keeps no one else waiting but
    /// another upload of the same bytes and writers of everything.
    case attachment(String)
}

extension StoreConnection {
    func transaction<T>(_ body: () throws -> T) throws -> T { try transaction(.everything, body) }
    func run(_ sql: String) throws { try run(sql, []) }

    func forEach(_ sql: String, _ read: (Row) throws -> Void) throws { try forEach(sql, [], read) }

    func query<T>(_ sql: String, _ values: [SQLValue] = [], _ read: (Row) throws -> T) throws -> [T] {
        var rows: [T] = []
        try forEach(sql, values) { rows.append(try read($0)) }
        return rows
    }

    func scalarInt(_ sql: String, _ values: [SQLValue] = []) throws -> Int? {
        try query(sql, values) { $0.int(0) }.first ?? nil
    }
}
