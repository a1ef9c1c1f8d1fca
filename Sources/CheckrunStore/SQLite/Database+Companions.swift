import CSQLite
import Foundation

/// In WAL mode SQLite keeps two files beside the database while it is open: the write-ahead
/// log (`-wal`), where commits land before they are copied into the file, and the log's shared
/// index (`-shm`), through which every connection finds them. A connection keeps both open, so
/// when one is deleted or replaced behind its back (a clean-up script, a sync tool) it goes on
/// using the old one: its commits go to a log no one else reads, lost at a crash; or, through
/// the old index, over the commits another process made meanwhile, silently and for good. So a
/// connection that writes looks, before each write transaction, at the files this process has
/// open (Linux's /proc/self/fd), and once either is gone it stops writing, as it does when the
/// database file itself was moved; what it saved before is kept (see `stopWritingForGoodAt`).
extension Database {
    /// The companion files this process has open under the database's name while the name no
    /// longer holds them.
    struct CompanionsGone: OptionSet {
        let rawValue: Int
        static let log = CompanionsGone(rawValue: 1)
        static let index = CompanionsGone(rawValue: 2)
    }

    /// Which companion files are gone; empty when both are in place (or /proc cannot be read).
    func companionsGone() -> CompanionsGone {
        guard let handle, let main = sqlite3_db_filename(handle, "main"), main.pointee != 0,
              let resolved = realpath(main, nil) else { return [] }
        let base = String(cString: resolved)
        free(resolved)
        guard let folder = opendir("/proc/self/fd") else { return [] }
        defer { closedir(folder) }
        var gone: CompanionsGone = []
        var target = [CChar](repeating: 0, count: 4097)
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let descriptor = Int32(name) else { continue }
            let length = readlink("/proc/self/fd/\(descriptor)", &target, 4096)
            guard length > 0 else { continue }
            let opened = String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for (suffix, companion) in [("-wal", CompanionsGone.log), ("-shm", CompanionsGone.index)] where opened.hasPrefix(base + suffix) {
                var open = stat(), there = stat()
                if opened == base + suffix + " (deleted)" {
                    gone.insert(companion)
                } else if opened == base + suffix, fstat(descriptor, &open) == 0,
                          stat(opened, &there) != 0 || open.st_ino != there.st_ino || open.st_dev != there.st_dev {
                    gone.insert(companion)
                }
            }
        }
        return gone
    }

    /// Refuses to write once a companion file is gone. Closing then neither copies a log into
    /// the database nor deletes one (the one at the name may be another process's). With the
    /// log alone gone, and no other begun in its place, what this connection saved is copied
    /// into the database now: every other connection still finds its changes through the same
    /// index, so the copy is coordinated. With the index gone it is not: another process may
    /// have rebuilt one from the log and saved since, and a copy through the old index would
    /// write over that.
    func requireCompanionsInPlace() throws {
        guard !isReadOnly, let handle else { return }
        var keep: Int32 = 1
        var moved: Int32 = 0
        if sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved != 0 {
            // The database file itself is gone from its name, which `requireFileInPlace` says;
            // the companions' names may now be another database's, which closing must not delete.
            _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &keep)
            return
        }
        let gone = companionsGone()
        guard !gone.isEmpty else { return }
        stoppedWriting = true
        _ = checkrun_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &keep)
        let stopped = "while checkrun had the database open, so nothing more can be saved through it"
        if gone.contains(.index) {
            throw StoreError("the file \(name)-shm, SQLite's index of the database's recent changes, was deleted or replaced \(stopped): saving on could overwrite what another program saves. Check with `checkrun sessions` that the answers are there, and resume")
        }
        let copied = sqlite3_db_filename(handle, "main").map { access(String(cString: $0) + "-wal", F_OK) != 0 } ?? false
            && sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_FULL, nil, nil) == SQLITE_OK
        throw StoreError(copied
            ? "the file \(name)-wal, SQLite's log of the database's recent changes, was deleted \(stopped). What was saved before has been copied into the database; resume to go on"
            : "the file \(name)-wal, SQLite's log of the database's recent changes, was deleted \(stopped), and another program has begun a new one, so what was saved since the last copy into the database could not be kept: check with `checkrun sessions` what is there, and resume")
    }
}
