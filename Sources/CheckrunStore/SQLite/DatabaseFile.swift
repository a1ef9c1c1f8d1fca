import CheckrunModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A database file looked at before SQLite opens it: whether it is there, whether it is a
/// file at all, and what its 100-byte header says. Read with plain system calls, so a folder
/// or an unreadable file is an error with a message, never a crash.
struct DatabaseFile {
    let path: String
    let exists: Bool
    let size: Int

    /// Refuses an empty path, SQLite's in-memory name and a folder: each would lose every answer.
    static func inspect(_ path: String) throws(StoreError) -> DatabaseFile {
        if path.isEmpty || path == ":memory:" {
            throw StoreError("the database path is empty; name a file, e.g. --db checkrun.sqlite")
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return DatabaseFile(path: path, exists: false, size: 0) }
            if errno == ENOTDIR { throw StoreError("cannot open the database \(path): a part of the path is a file, not a folder") }
            throw StoreError("cannot open the database \(path): \(String(cString: strerror(errno)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return DatabaseFile(path: path, exists: true, size: Int(info.st_size))
        case S_IFDIR: throw StoreError("\(path) is a folder; name a database file, e.g. --db \(path.hasSuffix("/") ? path : path + "/")checkrun.sqlite")
        default: throw StoreError("\(path) is not a regular file (a device, a pipe or a socket); name a database file")
        }
    }

    /// The first 100 bytes, or fewer when the file is shorter.
    func header() throws(StoreError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError("cannot read the database \(path); check its permissions") }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < 100 {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + count }, 100 - count)
            }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        return Array(bytes.prefix(count))
    }

    /// The 16 bytes every SQLite database file starts with.
    static let magic = Array("SQLite format 3\0".utf8)

    /// Refuses a file that is not SQLite's, or SQLite's but another program's.
    func refuseForeign() throws(StoreError) {
        let header = try header()
        if header.count < 100, !header.isEmpty, Array(header.prefix(16)) == Array(Self.magic.prefix(header.count)) {
            throw StoreError("\(path) is cut short (\(header.count) bytes): it begins as an SQLite database but is not a whole one; it was left untouched. Restore it from a copy")
        }
        guard header.count == 100, Array(header.prefix(16)) == Self.magic else {
            throw StoreError("\(path) is not a checkrun database (it is not an SQLite file at all); it was left untouched. Choose another file with --db PATH")
        }
        let applicationID = Self.integer(header, at: 68)
        if applicationID != Schema.applicationID && (applicationID != 0 || Self.integer(header, at: 60) != 0) {
            throw StoreError("\(path) is an SQLite database of another program, not checkrun's; it was left untouched. Choose another file with --db PATH")
        }
    }

    func userVersion() throws(StoreError) -> Int {
        Int(Self.integer(try header(), at: 60))
    }

    private static func integer(_ header: [UInt8], at offset: Int) -> Int32 {
        guard header.count >= offset + 4 else { return 0 }
        return header[offset..<offset + 4].reduce(Int32(0)) { $0 << 8 | Int32($1) }
    }

    /// Opens another tester's file to read without writing to it or beside it.
    ///
    /// Where the file and its folder are writable, an ordinary connection is opened and told to
    /// make no changes: SQLite then reads the write-ahead log of a walk still running, and the
    /// last connection to close removes the `-wal` and `-shm` files as it always does. Where
    /// they are not (a colleague's share), the file is opened read-only; with no `-wal` beside
    /// it, no one can be writing it, so it is read as it stands (`immutable`), which creates
    /// nothing.
    func openWithoutWriting() throws(StoreError) -> Database {
        if isWritableHere {
            let database = try Database(path: path, create: false, name: path)
            try database.execute("PRAGMA query_only = 1")
            return database
        }
        return try openReadOnly()
    }

    /// Whether this user may write the file and the folder it is in (SQLite writes its
    /// `-wal` and `-shm` files beside it).
    var isWritableHere: Bool {
        let folder = FilePaths.folder(of: path)
        return access(path, R_OK | W_OK) == 0 && access(folder, W_OK) == 0
    }

    /// A checkrun database this user may not write, opened to read as it stands (see
    /// `openWithoutWriting`); its schema must be one this checkrun reads as it is
    /// (`Schema.oldestReadableAsItIs`), since upgrading it is a write.
    func openAsItStands() throws(StoreError) -> Database {
        let version = try userVersion()
        if version > Schema.latestVersion {
            throw StoreError("\(path) was written by a newer checkrun (schema version \(version); this checkrun knows up to \(Schema.latestVersion)); upgrade checkrun to read it")
        }
        if version < Schema.oldestReadableAsItIs {
            throw StoreError("\(path) was written by an older checkrun and must be upgraded before it can be read, which needs the right to write it; ask its owner to run any checkrun command on it once, e.g. checkrun sessions --db \(path)")
        }
        return try openReadOnly()
    }

    /// Read-only; with no `-wal` beside the file no one can be writing it, so it is read as it
    /// stands (`immutable`), which creates nothing.
    private func openReadOnly() throws(StoreError) -> Database {
        let hasLog = access(path + "-wal", F_OK) == 0
        let uri = "file:" + Self.uriEscaped(path) + (hasLog ? "?mode=ro" : "?mode=ro&immutable=1")
        let database = try Database(path: uri, create: false, readOnly: true, uri: true, name: path)
        if !hasLog { database.readAsItStands = FileStamp(path) }
        return database
    }
}

/// What a file read as it stands looked like when it was opened. SQLite takes no lock on such
/// a file: had its owner written to it meanwhile, what was read may not be one consistent state.
struct FileStamp: Equatable {
    var size: Int64
    var modified: timespec
    var hasLog: Bool

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        modified = info.st_mtim
        hasLog = access(path + "-wal", F_OK) == 0
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.size == b.size && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec && a.hasLog == b.hasLog
    }
}

extension DatabaseFile {

    /// Percent-escapes what an SQLite URI path cannot hold literally.
    private static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x20, 0x7F...:
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            default:
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return escaped
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
