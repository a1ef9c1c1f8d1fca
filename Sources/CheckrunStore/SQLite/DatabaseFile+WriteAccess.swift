import CheckrunModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether this user can write a database, asked before SQLite opens it to write. SQLite
/// creates the `-wal` and `-shm` files beside the database before it finds out it cannot write
/// it; left behind, owned by this user, they lock the file's owner out ("read-only") until
/// someone removes them. So a command that writes is refused first, with nothing created.
extension DatabaseFile {
    /// Why this user cannot write the database here, or nil when they can.
    var cannotWrite: String? {
        guard exists, !isWritableHere else { return nil }
        let folder = FilePaths.folder(of: path)
        var disk = statvfs()
        if statvfs(folder, &disk) == 0, disk.f_flag & UInt(ST_RDONLY) != 0 {
            return "the database \(path) is on a read-only disk; checkrun can read it there (sessions, report, verify) but not save to it. Choose a writable place with --db PATH"
        }
        if access(path, W_OK) != 0 {
            return "you cannot write the database \(path) (it is read-only to you, or belongs to another user), so nothing was saved and nothing was created beside it. You can still read it (sessions, report, verify); to save answers, ask its owner for write access, or choose another file with --db PATH"
        }
        return "you cannot write in the folder \(folder), where SQLite keeps its -wal and -shm files beside \(path), so nothing was saved and nothing was created there. You can still read the database (sessions, report, verify); to save answers, ask the folder's owner for write access, or choose another file with --db PATH"
    }

    /// Why SQLite found a database read-only that this user may write: a `-wal` or `-shm` file
    /// beside it that they cannot write, left by another user whose write failed. Nil when
    /// there is none.
    static func foreignLog(beside path: String) -> String? {
        for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 && access(path + suffix, W_OK) != 0 {
            var info = stat()
            let empty = stat(path + "-wal", &info) != 0 || info.st_size == 0
            let remedy = empty
                ? "With no checkrun running on it, remove \(path)-wal and \(path)-shm (the log is empty, so nothing is lost), or ask the folder's owner to"
                : "Ask the user who owns them to run `checkrun sessions --db \(path)` once: it folds the log back into the database and removes them"
            return "the database \(path) cannot be written: \(path + suffix) is read-only to you (another user's, left when their write failed). \(remedy)"
        }
        return nil
    }
}
