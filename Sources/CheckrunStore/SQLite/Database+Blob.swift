import CSQLite

extension Database {
    /// The rowid of the row the last INSERT on this connection added.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Opens one value of a BLOB column for reading or writing a piece at a time (SQLite's
    /// incremental blob I/O), so a file of any size passes through a small buffer and is never
    /// held whole in memory. The blob is closed when `body` returns.
    func withBlob<T>(table: String, column: String, rowID: Int64, writable: Bool, _ body: (Blob) throws -> T) throws -> T {
        var blob: OpaquePointer?
        let status = sqlite3_blob_open(handle, "main", table, column, rowID, writable ? 1 : 0, &blob)
        guard status == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            throw error(status, "cannot open the stored bytes of \(table) row \(rowID)")
        }
        let handle = Blob(blob: blob, database: self)
        defer { sqlite3_blob_close(blob) }
        return try body(handle)
    }

    /// One open blob (see `withBlob`).
    struct Blob {
        fileprivate let blob: OpaquePointer
        fileprivate let database: Database

        var size: Int { Int(sqlite3_blob_bytes(blob)) }

        func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(StoreError) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            guard let count = Int32(exactly: bytes.count), let start = Int32(exactly: offset) else { throw StoreError("the stored bytes are larger than SQLite can address") }
            let status = sqlite3_blob_write(blob, base, count, start)
            if status != SQLITE_OK { throw database.error(status, "cannot write the stored bytes") }
        }

        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(StoreError) {
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
            guard let count = Int32(exactly: buffer.count), let start = Int32(exactly: offset) else { throw StoreError("the stored bytes are larger than SQLite can address") }
            let status = sqlite3_blob_read(blob, base, count, start)
            if status != SQLITE_OK { throw database.error(status, "cannot read the stored bytes") }
        }
    }
}
