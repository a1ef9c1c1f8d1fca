/// A database problem, in words a tester can act on, with SQLite's own message kept.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// SQLite's result code, when SQLite reported the problem.
    public var code: Int32?
    /// The statement that failed, for whoever debugs it (never shown to a tester).
    public var sql: String?

    public init(_ message: String, code: Int32? = nil, sql: String? = nil) {
        self.message = message
        self.code = code
        self.sql = sql
    }

    public var description: String { message }
}

import CSQLite

extension StoreError {
    /// Another connection held the lock for longer than this one waited.
    public var isBusy: Bool {
        guard let code else { return false }
        return code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED
    }
}
