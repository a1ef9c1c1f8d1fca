import CSQLite
import Foundation

/// In WAL mode SQLite keeps two files beside the database while it is open: the write-ahead
/// log (`-wal`), where commits land before they are copied into the file, and the log's shared
/// index (`-shm`), through which every connection finds them. A connection keeps both open, so
/// when one is deleted or replaced behind its back (a clean-up script, a sync tool) it goes on
/// using the old one: its commits go to a log no one else reads, lost at a crash; or, through
/// the old index, over the commits another process made meanwhile, silently and for good; and
/// at close it copies its old view into the file and deletes the log. So a connection that
/// writes looks at the files this process has open (Linux's /proc/self/fd) in each write
/// transaction and when it closes, and once either is gone it writes nothing more, not even at
/// close (see `stopWritingIfCompanionsGone`).
extension Database {
    struct CompanionsGone: OptionSet {
        let rawValue: Int
        static let log = CompanionsGone(rawValue: 1)
        static let index = CompanionsGone(rawValue: 2)
    }

    /// The database file's name and its companions', as bytes (a path need not be UTF-8),
    /// resolved once: a file moved from its name is `requireFileInPlace`'s to find.
    private func fileNames() -> (main: [UInt8], log: [UInt8], index: [UInt8])? {
        if let names = files.names { return names }
        guard let handle, let main = sqlite3_db_filename(handle, "main"), main.pointee != 0, let resolved = realpath(main, nil) else { return nil }
        defer { free(resolved) }
        let base = Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
        files.names = (base, base + Array("-wal".utf8), base + Array("-shm".utf8))
        return files.names
    }

    /// Which companion files this process has open under the database's names while the names
    /// no longer hold them; empty when both are in place (or /proc cannot be read). Checked
    /// through the descriptors found before, four system calls, and by a scan of /proc only
    /// when they are not known yet or no longer hold those files: a scan at every answer
    /// doubled a commit's time.
    func companionsGone() -> CompanionsGone {
        guard let names = fileNames() else { return [] }
        // What the known descriptors show gone is looked at again by a scan: they may have been
        // another connection's of this process, deleted as it closed.
        if files.open.count == 2, goneByKnownDescriptors(names)?.isEmpty == true { return [] }
        return scanForCompanions(names)
    }

    /// Nil when a descriptor found before holds another file now (closed, and its number reused).
    private func goneByKnownDescriptors(_ names: (main: [UInt8], log: [UInt8], index: [UInt8])) -> CompanionsGone? {
        var gone: CompanionsGone = []
        for known in files.open {
            var open = stat(), there = stat()
            guard fstat(known.descriptor, &open) == 0, UInt64(open.st_dev) == known.device, UInt64(open.st_ino) == known.inode else { return nil }
            let found = Self.status(of: known.kind == .log ? names.log : names.index, &there) ?? false
            if open.st_nlink == 0 || !found || there.st_ino != open.st_ino || there.st_dev != open.st_dev { gone.insert(known.kind) }
        }
        return gone
    }

    /// A companion is gone when this process has it open and no descriptor of it holds the
    /// file at its name. The descriptors are the process's, not this connection's alone: one
    /// of another connection closing (a test's or a benchmark's threads) may name a log that
    /// connection deleted as the last to leave, while this one holds the new log; so one
    /// descriptor holding the file at the name is enough. A process of one writing connection,
    /// as every command is, reads the same either way.
    private func scanForCompanions(_ names: (main: [UInt8], log: [UInt8], index: [UInt8])) -> CompanionsGone {
        guard let folder = opendir("/proc/self/fd") else { return [] }
        defer { closedir(folder) }
        let deleted = Array(" (deleted)".utf8)
        var seen: CompanionsGone = [], inPlace: CompanionsGone = []
        files.open = []
        var target = [CChar](repeating: 0, count: 4097)
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let descriptor = Int32(name) else { continue }
            let length = readlink("/proc/self/fd/\(descriptor)", &target, 4096)
            guard length > 0 else { continue }
            let opened = target[0..<length].map { UInt8(bitPattern: $0) }
            for (companion, kind) in [(names.log, CompanionsGone.log), (names.index, CompanionsGone.index)]
            where opened == companion || opened == companion + deleted {
                seen.insert(kind)
                var open = stat()
                guard opened == companion, Self.holds(companion, descriptor), fstat(descriptor, &open) == 0 else { continue }
                inPlace.insert(kind)
                if !files.open.contains(where: { $0.kind == kind }) { files.open.append((kind, descriptor, UInt64(open.st_dev), UInt64(open.st_ino))) }
            }
        }
        return seen.subtracting(inPlace)
    }

    /// Whether the name holds the file open at `descriptor`.
    private static func holds(_ path: [UInt8], _ descriptor: Int32) -> Bool {
        var open = stat(), there = stat()
        guard fstat(descriptor, &open) == 0, let found = status(of: path, &there) else { return false }
        return found && open.st_ino == there.st_ino && open.st_dev == there.st_dev
    }

    /// `stat` of a path given as bytes; nil when the bytes cannot be passed on.
    private static func status(of path: [UInt8], _ info: inout stat) -> Bool? {
        let terminated = path.map { CChar(bitPattern: $0) } + [0]
        return terminated.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { stat($0, &info) == 0 } }
    }

    /// The database file's size, modification time and inode, as this connection left it after
    /// each commit: a copy of its log into the file is safe only while no one else wrote it.
    func mainFileStamp() -> [Int] {
        var info = stat()
        guard let names = fileNames(), Self.status(of: names.main, &info) == true else { return [] }
        return [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ino)]
    }

    /// Refuses a write once a companion file is gone (see `stopWritingIfCompanionsGone`).
    func requireCompanionsInPlace() throws {
        guard let reason = stopWritingIfCompanionsGone() else { return }
        var error = StoreError(reason)
        error.earlierWritesUncertain = files.writesStopped?.earlierUncertain ?? false
        throw error
    }

    /// Nil while the companions are in place. Once one is gone: this connection writes nothing
    /// more, and closing neither copies a log nor deletes one (the one at the name may be
    /// another process's). With the index gone and the log in place, everything saved is in
    /// the log, which the next index is rebuilt from. With the log gone, what this connection
    /// saved is only in it: it is copied into the file now, unless someone else wrote the file
    /// since this connection's last commit or began a log with changes of their own (a copy
    /// through an old index would then write over theirs); the words say which happened.
    func stopWritingIfCompanionsGone() -> String? {
        if let stopped = files.writesStopped { return stopped.reason }
        guard !isReadOnly, let handle else { return nil }
        var keep: Int32 = 1
        var moved: Int32 = 0
        if sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved != 0 {
            // The file itself is gone from its name, which `requireFileInPlace` says.
            _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &keep)
            return nil
        }
        let gone = companionsGone()
        guard !gone.isEmpty else { return nil }
        _ = checkrun_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &keep)
        let stopped = "while checkrun had the database open, so nothing more can be saved through it"
        let reason: String
        var uncertain = false
        if !gone.contains(.log) {
            reason = "the file \(name)-shm, SQLite's index of the database's recent changes, was deleted or replaced \(stopped): saving on could overwrite what another program saves. Everything saved before is in the database's log; resume to go on"
        } else if files.stampAfterCommit == nil {
            reason = "the file \(name)-wal, SQLite's log of the database's recent changes, was deleted \(stopped); resume to go on"
        } else if files.stampAfterCommit == mainFileStamp(), !logAtNameHoldsChanges(), sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_FULL, nil, nil) == SQLITE_OK {
            reason = "the file \(name)-wal, SQLite's log of the database's recent changes, was deleted \(stopped). What was saved before has been copied into the database; resume to go on"
        } else {
            reason = "the file \(name)-wal, SQLite's log of the database's recent changes, was deleted \(stopped), and another program has written the database since, so what was saved since the last copy into it may be lost: check with `checkrun sessions` what is there, and resume"
            uncertain = true
        }
        files.writesStopped = (reason, uncertain)
        return reason
    }

    /// Whether a log at the database's name holds more than a header: changes of someone else's.
    private func logAtNameHoldsChanges() -> Bool {
        var info = stat()
        guard let names = fileNames(), Self.status(of: names.log, &info) == true else { return false }
        return info.st_size > 32
    }

    /// Inside a write transaction, after its lock was taken (waiting for it, the companions may
    /// have gone): rolls back and stops writing, as `requireCompanionsInPlace` says. Found in
    /// place after all when looked at again (the log copied into the file, say), the write
    /// goes on in a transaction taken anew: never in none, where each statement would commit
    /// on its own and the transaction's COMMIT fail ("no transaction is active").
    func requireCompanionsStillInPlace() throws {
        guard !companionsGone().isEmpty else { return }
        try? execute("ROLLBACK")
        try requireCompanionsInPlace()
        try execute("BEGIN IMMEDIATE")
    }

    /// Refuses to write once the file this connection opened is no longer at its path (deleted,
    /// moved, or replaced by another file): an answer committed to it would be lost with it,
    /// and a walk would go on saying "saved". One `stat` per transaction, by SQLite itself.
    func requireFileInPlace() throws {
        var moved: Int32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved != 0 else { return }
        throw StoreError("the database file \(name) was deleted, moved or replaced while checkrun had it open, so nothing more can be saved to it. Answers saved before went to the file that was there then; put it back at \(name) and resume, or start again")
    }
}

/// What a connection keeps to tell whether SQLite's files are still where it opened them.
struct FilesInPlace {
    /// Why this connection writes nothing more, not even statistics at close: SQLite's
    /// companion files were found gone (`Database.stopWritingIfCompanionsGone`).
    var writesStopped: (reason: String, earlierUncertain: Bool)?
    /// The database file as this connection's last commit left it (`Database.mainFileStamp`).
    var stampAfterCommit: [Int]?
    /// The database file's name and its companions', resolved once.
    var names: (main: [UInt8], log: [UInt8], index: [UInt8])?
    /// The companion files as found open: which one, its descriptor, device and inode.
    var open: [(kind: Database.CompanionsGone, descriptor: Int32, device: UInt64, inode: UInt64)] = []
}
