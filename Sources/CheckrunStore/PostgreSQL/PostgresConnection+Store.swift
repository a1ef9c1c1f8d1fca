#if PostgreSQL
import CLibPQ
import CheckrunModel
import Foundation

/// The store's interface on a PostgreSQL connection. Writers take transaction-level locks
/// (`pg_advisory_xact_lock`) before their first statement, as SQLite's BEGIN IMMEDIATE takes
/// the file's write lock: a writer of everything (attempt numbers, amendments, merges) holds
/// the store's lock alone; an answer saved holds it shared, with its session's lock, so answers
/// of different sessions commit side by side while each chain grows one record at a time.
/// There is no serialization failure to retry, and no Swift work is run twice.
extension PostgresConnection: StoreConnection {
    var engine: StoreEngine { .postgresql }

    /// The key of the writers' lock: "checkrun" in ASCII, so other programs' keys do not collide.
    static let writeLockKey = 0x63_68_65_63_6B_72_75_6E

    func execute(_ sql: String) throws {
        try exec(sql)
    }

    /// Inside a write transaction the statement is held and goes with the next read or the
    /// COMMIT (`hold`); outside one it runs at once.
    func run(_ sql: String, _ values: [SQLValue]) throws {
        guard transactionDepth > 0 else { return try withResult(sql, values) { _ in } }
        try hold(try spelled(sql), try Self.texts(of: values))
    }

    func forEach(_ sql: String, _ values: [SQLValue], _ read: (Row) throws -> Void) throws {
        try withResult(sql, values) { result in
            for index in 0..<PQntuples(result) {
                try read(Row(result: result, row: index))
            }
        }
    }

    func beginSnapshot() throws {
        try exec("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
    }

    func transaction<T>(_ scope: WriteScope, _ body: () throws -> T) throws -> T {
        if transactionDepth > 0 {
            let savepoint = "nested\(transactionDepth)"
            try exec("SAVEPOINT \(savepoint)")
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            do {
                let value = try body()
                try exec("RELEASE SAVEPOINT \(savepoint)")
                return value
            } catch {
                dropHeld()
                try? exec("ROLLBACK TO SAVEPOINT \(savepoint)")
                try? exec("RELEASE SAVEPOINT \(savepoint)")
                throw error
            }
        }
        transactionDepth = 1
        defer { transactionDepth = 0 }
        do {
            try beginWriting(scope)
            let value = try body()
            try commit()
            return value
        } catch {
            dropHeld()
            try? exec("ROLLBACK")
            throw error
        }
    }

    func batches<T>(every interval: TimeInterval, _ body: (_ boundary: () throws -> Void) throws -> T) throws -> T {
        guard transactionDepth == 0 else { return try transaction { try body {} } }
        var started = Date()
        transactionDepth = 1
        defer { transactionDepth = 0 }
        do {
            try beginWriting(.everything)
            let value = try body {
                guard Date().timeIntervalSince(started) >= interval else { return }
                try commit()
                try beginWriting(.everything)
                started = Date()
            }
            try commit()
            return value
        } catch {
            dropHeld()
            try? exec("ROLLBACK")
            throw error
        }
    }

    /// BEGIN and the locks, held to go with the transaction's first read or its COMMIT (the
    /// keys are numbers checkrun makes).
    private func beginWriting(_ scope: WriteScope) throws {
        try hold("BEGIN", [])
        if lockWaitSeconds != Database.busySeconds {
            try hold("SELECT set_config('lock_timeout', $1, true)", ["\(lockWaitSeconds)s"])
        }
        switch scope {
        case .everything:
            try hold("SELECT pg_advisory_xact_lock($1)", [String(Self.writeLockKey)])
        case .session(let id):
            try hold("SELECT pg_advisory_xact_lock_shared($1), pg_advisory_xact_lock($2)", [String(Self.writeLockKey), String(Self.lockKey(of: id.storageText))])
        case .attachment(let hash):
            try hold("SELECT pg_advisory_xact_lock_shared($1), pg_advisory_xact_lock($2)", [String(Self.writeLockKey), String(Self.lockKey(of: "attachment " + hash))])
        }
    }

    /// The lock key of a session or an attachment: FNV-1a of its text, the same in every process.
    static func lockKey(of text: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }

    func finish() { close() }

    /// Taken by the next write transaction (see `lockWaitSeconds`); its lock waited for longer
    /// fails with SQLSTATE 55P03, which `StoreError.isBusy` names.
    func waitWhenBusy(seconds: Int) {
        lockWaitSeconds = max(1, seconds)
    }

    /// Runs one statement with its values bound as text and hands its result over.
    private func withResult(_ sql: String, _ values: [SQLValue], _ body: (OpaquePointer) throws -> Void) throws {
        let result = try execute(try spelled(sql), try Self.texts(of: values))
        defer { PQclear(result) }
        try body(result)
    }

    /// Values as libpq takes them: text, nil for NULL.
    private static func texts(of values: [SQLValue]) throws -> [String?] {
        var texts: [String?] = []
        texts.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .null: texts.append(nil)
            case .integer(let number): texts.append(String(number))
            case .real(let number): texts.append("\(number)")
            case .text(let text):
                // libpq takes C strings: a NUL would cut the value short without a word.
                if text.utf8.contains(0) {
                    throw StoreError("a value holds a NUL character, which PostgreSQL cannot keep; it was not written")
                }
                texts.append(text)
            }
        }
        return texts
    }
}
#endif
