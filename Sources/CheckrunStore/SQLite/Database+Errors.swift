import CSQLite

extension Database {
    /// SQLite's failure in words a tester can act on: the database named, what happened, and
    /// what to do; anything else carries SQLite's own message and what was being done.
    func describe(_ status: Int32, _ context: String) -> StoreError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
        let path = name
        let primary = status & 0xFF
        if primary == SQLITE_BUSY || primary == SQLITE_LOCKED {
            return StoreError("the database \(path) is busy: another checkrun is writing to it and did not finish in time; try again", code: status)
        }
        if primary == SQLITE_READONLY {
            if let foreign = DatabaseFile.foreignLog(beside: path) { return StoreError(foreign, code: status) }
            return StoreError("the database \(path) is read-only; make the file and its folder writable, or choose another file with --db PATH", code: status)
        }
        if primary == SQLITE_TOOBIG {
            return StoreError("a value is larger than SQLite keeps in one row (1 GB); nothing was written", code: status)
        }
        if primary == SQLITE_FULL {
            return StoreError("the disk holding \(path) is full; free some space and try again (nothing was half-written)", code: status)
        }
        if primary == SQLITE_IOERR {
            return StoreError("could not write \(path) (SQLite: \(message)); is the disk full or the file too large? Nothing was half-written", code: status)
        }
        if primary == SQLITE_CORRUPT {
            // The file began as a database (its header was read first): it was cut short or damaged.
            return StoreError("\(path) is damaged or cut short (SQLite: \(message)); nothing was changed. Restore it from a copy (a merged team store or an export holds the same answers)", code: status)
        }
        if primary == SQLITE_NOTADB {
            return StoreError("\(path) is not a checkrun database (SQLite: \(message)); choose another file with --db PATH", code: status)
        }
        return StoreError("\(context): \(message)", code: status)
    }
}
