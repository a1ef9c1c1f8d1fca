import CSQLite

extension Database {
    /// Copies the whole database, as a reader of it sees it (the write-ahead log included),
    /// into a new file at `path`, with SQLite's backup interface.
    func copy(to path: String) throws(StoreError) {
        let target = try Database(path: path, name: name)
        guard let backup = sqlite3_backup_init(target.rawHandle, "main", rawHandle, "main") else {
            throw StoreError("cannot copy \(name) to bring it up to date: \(String(cString: sqlite3_errmsg(target.rawHandle)))")
        }
        var status: Int32
        var waited = 0
        repeat {
            status = sqlite3_backup_step(backup, 4096)
            if status == SQLITE_BUSY || status == SQLITE_LOCKED {
                waited += 5
                sqlite3_sleep(5)
            }
        } while status == SQLITE_OK || ((status == SQLITE_BUSY || status == SQLITE_LOCKED) && waited < Database.busySeconds * 1000)
        sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE else {
            throw StoreError("cannot copy \(name) to bring it up to date: \(String(cString: sqlite3_errstr(status)))", code: status)
        }
        target.close()
    }
}
