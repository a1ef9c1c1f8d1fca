/// A database problem, in words a tester can act on, with SQLite's own message kept.
package struct StoreError: Error, Sendable, CustomStringConvertible {
    package var message: String
    /// SQLite's result code, when SQLite reported the problem.
    package var code: Int32?
    /// The statement that failed, for whoever debugs it (never shown to a tester).
    package var sql: String?
    /// PostgreSQL's SQLSTATE, when a server reported the problem.
    package var sqlState: String?
    /// Whether the connection to a server was lost: the work may be tried again once it is back.
    package var connectionLost = false
    /// The server's own words, without the advice around them: a walk waiting for the server
    /// says them in advice of its own.
    package var serverSaid: String?
    /// Whether answers saved before may not all be kept (SQLite's log deleted under a connection
    /// after another program wrote the database): a walk must not say they are.
    package var earlierWritesUncertain = false

    package init(_ message: String, code: Int32? = nil, sql: String? = nil, connectionLost: Bool = false) {
        self.message = message
        self.code = code
        self.sql = sql
        self.connectionLost = connectionLost
    }

    package var description: String { message }
}

import CSQLite

extension StoreError {
    /// Another connection held the lock for longer than this one waited: SQLite's busy file, or
    /// a PostgreSQL lock waited for past its `lock_timeout` (SQLSTATE 55P03).
    package var isBusy: Bool {
        if sqlState == "55P03" { return true }
        guard let code else { return false }
        return code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED
    }
}
