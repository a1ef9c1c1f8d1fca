import CSQLite
import Foundation
import CheckrunModel

private let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One SQLite connection: prepared statements with bound parameters only, cached by SQL text,
/// and errors that carry SQLite's message. Not shared between threads.
package final class Database: StoreConnection {
    var engine: StoreEngine { .sqlite }

    private(set) var handle: OpaquePointer?
    package let path: String
    private var statements: [String: OpaquePointer] = [:]
    private var transactionDepth = 0
    /// Whether SQLite's files are where this connection opened them (`Database+FilesInPlace`).
    var files = FilesInPlace()

    /// How messages name the database: the path the user gave, even when a scratch copy is open.
    package let name: String
    /// Opened for reading only: such a connection never writes, not even statistics.
    package let isReadOnly: Bool
    /// `path` is an SQLite URI (`file:…?mode=ro`): another connection must open it as one.
    let isURI: Bool
    /// Set for a file read as it stands, without SQLite's locks (see `DatabaseFile.openReadOnly`).
    var readAsItStands: FileStamp?

    /// Whether a file read as it stands was written to since it was opened.
    package var changedWhileReadAsItStands: Bool {
        guard let stamp = readAsItStands else { return false }
        return FileStamp(name) != stamp
    }
    /// Opens (or creates) the file. Nothing is written to it here, so a file that turns out not
    /// to be a checkrun database is left exactly as it was. `uri` opens `path` as an SQLite URI
    /// (`file:…?mode=ro`), for reading another tester's file without writing beside it.
    package init(path: String, create: Bool = true, readOnly: Bool = false, uri: Bool = false, name: String? = nil) throws(StoreError) {
        self.path = path
        self.name = name ?? path
        self.isReadOnly = readOnly
        self.isURI = uri
        // One connection per thread of use, so SQLite need not lock around every call.
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        if uri { flags |= SQLITE_OPEN_URI }
        var connection: OpaquePointer?
        // SQLite reads a name starting with "file:" as a URI (this build enables them), so a
        // path the user gave is made literal: "file:x?mode=memory" must not keep answers in memory.
        let opened = !uri && path.hasPrefix("file:") ? "./" + path : path
        let status = sqlite3_open_v2(opened, &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(connection)
            throw StoreError(Self.explainOpenFailure(path: name ?? path, sqliteMessage: message), code: status)
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        // checkrun creates no trigger, and runs none: one added behind its back (and hidden from
        // `SQLiteSetup`'s look, with its row's type edited) would run inside checkrun's own writes.
        _ = checkrun_db_config_flag(connection, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0)
        waitWhenBusy(seconds: Self.busySeconds)
        defineFunctions()
    }

    /// How long a connection waits for another writer before it gives up.
    package static let busySeconds = 30

    /// Waits for the write lock in steps of 2 ms (SQLite's own timeout sleeps up to 100 ms at
    /// a time), so a writer finds the short pauses a long merge leaves between its batches.
    package func waitWhenBusy(seconds: Int) {
        let steps = seconds * 500
        sqlite3_busy_handler(handle, { context, count in
            guard Int(count) < Int(bitPattern: context) else { return 0 }
            usleep(2_000)
            return 1
        }, UnsafeMutableRawPointer(bitPattern: steps))
    }

    deinit {
        close()
    }

    /// The connection, for SQLite interfaces this type does not wrap (backups).
    var rawHandle: OpaquePointer? { handle }

    /// After writing, lets SQLite refresh the statistics its query planner chooses indexes by (`PRAGMA
    /// optimize`, bounded by `analysis_limit`), as SQLite advises before a connection closes:
    /// without them, finding a check's next attempt on a large database took the wrong index
    /// and thirty times as long. Never waits for the lock: statistics are not worth a delay.
    package func optimize() {
        // Only a connection that wrote: a report or an export leaves the file as it found it.
        guard !isReadOnly, files.writesStopped == nil, let handle, sqlite3_total_changes(handle) > 0 else { return }
        sqlite3_busy_handler(handle, nil, nil)
        try? execute("PRAGMA analysis_limit = 400")
        try? execute("PRAGMA optimize")
        waitWhenBusy(seconds: Self.busySeconds)
    }

    /// SQLite's deferred BEGIN: the first read fixes the snapshot (write-ahead log mode).
    func beginSnapshot() throws {
        try execute("BEGIN")
    }

    func reconnect() throws {}

    func finish() {
        _ = stopWritingIfCompanionsGone()
        optimize()
        close()
    }

    package func close() {
        // A connection whose companion files went since its last write must not copy its old
        // view into the file, nor delete a log that may be another process's, as it closes.
        _ = stopWritingIfCompanionsGone()
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    private static func explainOpenFailure(path: String, sqliteMessage: String) -> String {
        let folder = FilePaths.folder(of: path)
        switch PathKind.of(folder) {
        case .folder: break
        case .inaccessible:
            return "cannot open the database \(path): the folder \(folder) cannot be reached (a folder on the way is closed to you); choose another place with --db PATH or CHECKRUN_DB"
        case .missing, .file, .other:
            return "cannot open the database \(path): the folder \(folder) does not exist; create it, or choose another file with --db PATH or CHECKRUN_DB"
        }
        if !FileManager.default.isWritableFile(atPath: folder) {
            return "cannot open the database \(path): the folder \(folder) is read-only; choose a writable place with --db PATH or CHECKRUN_DB"
        }
        return "cannot open the database \(path): \(sqliteMessage)"
    }

    func error(_ status: Int32, _ context: String, sql: String? = nil) -> StoreError {
        var error = describe(status, context)
        error.sql = sql
        return error
    }

    /// Runs SQL text that may hold several statements and takes no parameters (schema, pragmas).
    package func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        if let message { sqlite3_free(message) }
        if status != SQLITE_OK { throw error(status, "SQL failed", sql: sql) }
    }

    /// A prepared statement for `sql`, and whether it belongs to the cache. A cached statement
    /// still being stepped (the same query run inside its own loop) is never reset under its
    /// reader: a fresh one is prepared instead, and finalized by `release`.
    private func prepared(_ sql: String) throws(StoreError) -> (statement: OpaquePointer, cached: Bool) {
        if let statement = statements[sql] {
            if sqlite3_stmt_busy(statement) == 0 {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
                return (statement, true)
            }
            return (try prepareStatement(sql), false)
        }
        let statement = try prepareStatement(sql)
        statements[sql] = statement
        return (statement, true)
    }

    private func prepareStatement(_ sql: String) throws(StoreError) -> OpaquePointer {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, "cannot prepare SQL", sql: sql) }
        return statement
    }

    private func release(_ prepared: (statement: OpaquePointer, cached: Bool)) {
        if prepared.cached { sqlite3_reset(prepared.statement) } else { sqlite3_finalize(prepared.statement) }
    }

    private func bind(_ values: [SQLValue], to statement: OpaquePointer) throws(StoreError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text):
                // An explicit byte count keeps text after an embedded NUL, which a tester may paste.
                status = sqlite3_bind_text(statement, index, text, Int32(text.utf8.count), SQLITE_TRANSIENT)
            }
            if status != SQLITE_OK { throw error(status, "cannot bind parameter \(index)") }
        }
    }

    /// Runs one statement that returns no rows.
    package func run(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) {
        let prepared = try prepared(sql)
        let statement = prepared.statement
        defer { release(prepared) }
        try bind(values, to: statement)
        let status = sqlite3_step(statement)
        if status != SQLITE_DONE && status != SQLITE_ROW { throw error(status, "SQL failed", sql: sql) }
    }

    /// Runs a query and hands each row to `read`, streaming: rows are not gathered first.
    package func forEach(_ sql: String, _ values: [SQLValue] = [], _ read: (Row) throws -> Void) throws {
        let prepared = try prepared(sql)
        let statement = prepared.statement
        defer { release(prepared) }
        try bind(values, to: statement)
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw error(status, "query failed", sql: sql) }
            try read(Row(statement: statement))
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: all of it lands, or none of it.
    /// IMMEDIATE takes the write lock up front, so the busy handler applies and a concurrent
    /// writer waits instead of failing half way; reads made inside see no one else's writes.
    /// Inside an enclosing transaction the work runs in a savepoint: a failure the caller
    /// catches undoes this part only, never leaving half of it to be committed.
    /// One writer at a time, whatever the scope: SQLite locks the file.
    func transaction<T>(_ scope: WriteScope, _ body: () throws -> T) throws -> T {
        try transaction(body)
    }

    package func transaction<T>(_ body: () throws -> T) throws -> T {
        if transactionDepth > 0 {
            let savepoint = "nested\(transactionDepth)"
            try execute("SAVEPOINT \(savepoint)")
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            do {
                let value = try body()
                try execute("RELEASE \(savepoint)")
                return value
            } catch {
                try? execute("ROLLBACK TO \(savepoint)")
                try? execute("RELEASE \(savepoint)")
                throw error
            }
        }
        try requireCompanionsInPlace()
        transactionDepth = 1
        defer { transactionDepth = 0 }
        try execute("BEGIN IMMEDIATE")
        do {
            try requireFileInPlace()
            try requireCompanionsStillInPlace()
            let value = try body()
            try execute("COMMIT")
            files.stampAfterCommit = mainFileStamp()
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A long write (a merge) as a series of transactions: `body` calls `boundary` wherever the
    /// work may be cut (between whole sessions), and once `interval` has passed there the batch
    /// commits and the lock is let go for a moment, so other writers wait about that long at
    /// most. Killed at any moment, the file holds whole batches only.
    package func batches<T>(every interval: TimeInterval, _ body: (_ boundary: () throws -> Void) throws -> T) throws -> T {
        guard transactionDepth == 0 else { return try transaction { try body {} } }
        var started = Date()
        try requireCompanionsInPlace()
        transactionDepth = 1
        defer { transactionDepth = 0 }
        try execute("BEGIN IMMEDIATE")
        do {
            try requireFileInPlace()
            try requireCompanionsStillInPlace()
            let value = try body {
                guard Date().timeIntervalSince(started) >= interval else { return }
                try execute("COMMIT")
                files.stampAfterCommit = mainFileStamp()
                usleep(20_000)
                try requireCompanionsInPlace()
                try execute("BEGIN IMMEDIATE")
                try requireCompanionsStillInPlace()
                started = Date()
            }
            try execute("COMMIT")
            files.stampAfterCommit = mainFileStamp()
            return value
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    package var userVersion: Int {
        get throws { try scalarInt("PRAGMA user_version") ?? 0 }
    }
}
