import CheckrunStore
import CheckrunModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one way checkrun writes a file a user named (`export`, `report`, `compare`, `import`):
/// the bytes go to a temporary file in the target's own folder, are flushed to the disk, and
/// the temporary file is then renamed over the target. A reader at any moment finds the old
/// file whole or the new one whole, never none and never half; a failed write leaves the old
/// file exactly as it was. Nothing is ever removed first, so a path that names a folder can
/// never cost that folder: such paths are refused before anything is touched.
struct AtomicFile {
    /// The path as the user gave it, for messages.
    let path: String
    /// Where the rename lands: the path itself, or the file a symbolic link points to.
    private let target: String
    private let temporary: String
    private var descriptor: Int32

    /// Checks the target, then creates the temporary file beside it.
    init(path: String) throws {
        self.path = path
        target = try Self.checkedTarget(path)
        let folder = Self.folder(of: target)
        let name = (target as NSString).lastPathComponent
        TemporaryFileCleanup.removeStale(in: folder, for: name)
        temporary = (folder as NSString).appendingPathComponent(".\(name).checkrun-\(getpid())-\(UInt32.random(in: .min ... .max)).tmp")
        // Registered before it is created: a Ctrl-C between the two left the file behind.
        guard TemporaryFileCleanup.register(temporary) else {
            throw CommandFailure("cannot write \(path): checkrun writes at most 4,096 files at once; import fewer pages at a time")
        }
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            let reason = Self.explain(errno, folder: folder)
            TemporaryFileCleanup.unregister(temporary)
            throw CommandFailure("cannot write \(path): \(reason)")
        }
        // A file that is replaced keeps its permissions.
        var existing = stat()
        if stat(target, &existing) == 0 { _ = fchmod(descriptor, existing.st_mode & 0o7777) }
    }

    /// Refuses, with exit code 2, a path that cannot name a file: empty, ending in "/", ".",
    /// "..", an existing folder or something that is not a regular file (a device, a FIFO).
    /// - Returns: the path the rename must replace (a symbolic link's destination).
    static func checkedTarget(_ path: String, example: String = "report.md") throws -> String {
        guard !path.isEmpty else { throw CommandFailure("the output path is empty; name a file, e.g. \(example)", exitCode: 2) }
        let last = (path as NSString).lastPathComponent
        if path.hasSuffix("/") || last == "." || last == ".." {
            throw CommandFailure("\(path) names a folder; name a file, e.g. \(path.hasSuffix("/") ? path : path + "/")\(example)", exitCode: 2)
        }
        var target = path
        var info = stat()
        try refuseDatabaseCompanion(path)
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map {
                $0.hasPrefix("/") ? $0 : ((folder(of: path) as NSString).appendingPathComponent($0))
            } ?? path
        }
        if stat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: throw CommandFailure("\(path) is a folder; name a file, e.g. \(path)/\(example)", exitCode: 2)
            case S_IFREG:
                if ResultStore.isSQLiteFile(target) == true {
                    throw CommandFailure("\(path) is an SQLite database (perhaps the one being read); name another file for the output", exitCode: 2)
                }
            default: throw CommandFailure("\(path) is not a regular file (a device, a pipe or a socket); name a file", exitCode: 2)
            }
        }
        if target != path { try refuseDatabaseCompanion(target) }
        let parent = folder(of: target)
        var folderInfo = stat()
        guard stat(parent, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR else {
            throw CommandFailure("cannot write \(path): the folder \(parent) does not exist; create it first, or name another file")
        }
        return target
    }

    /// SQLite keeps a database's latest answers in files beside it (`-wal`, `-shm`, `-journal`)
    /// until they are written into the database itself: replacing one loses them, and `verify`
    /// cannot tell, since the answers are simply gone. Refused whether or not it exists now.
    private static func refuseDatabaseCompanion(_ path: String) throws {
        for suffix in ["-wal", "-shm", "-journal"] where path.hasSuffix(suffix) {
            let database = String(path.dropLast(suffix.count))
            if ResultStore.isSQLiteFile(database) == true {
                throw CommandFailure("\(path) belongs to the SQLite database \(database) (it holds answers not yet written into it); name another file for the output", exitCode: 2)
            }
        }
    }

    /// The folder a path names a file in ("." for a bare name).
    static func folder(of path: String) -> String {
        FilePaths.folder(of: path)
    }

    private static func explain(_ code: Int32, folder: String) -> String {
        switch code {
        case EACCES, EPERM, EROFS: return "the folder \(folder) is not writable; name a file in a folder you can write"
        case ENOSPC, EDQUOT: return "the disk is full; free some space and try again"
        case EFBIG: return "the file is larger than this system allows"
        default: return String(cString: strerror(code))
        }
    }

    mutating func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                discard()
                throw CommandFailure("cannot write \(path): \(Self.explain(code, folder: Self.folder(of: target))); \(path) was left as it was")
            }
            offset += written
        }
    }

    /// Flushes the bytes to the disk and puts the file in place.
    mutating func commit() throws {
        let folder = Self.folder(of: target)
        if fsync(descriptor) != 0 || close(descriptor) != 0 {
            let code = errno
            descriptor = -1
            discard()
            throw CommandFailure("cannot write \(path): \(Self.explain(code, folder: folder)); \(path) was left as it was")
        }
        descriptor = -1
        defer { TemporaryFileCleanup.unregister(temporary) }
        guard rename(temporary, target) == 0 else {
            let code = errno
            discard()
            throw CommandFailure("cannot write \(path): \(Self.explain(code, folder: folder)); \(path) was left as it was")
        }
        // The rename itself is made durable too.
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            _ = close(folderDescriptor)
        }
    }

    /// Removes the temporary file; the target is untouched.
    mutating func discard() {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
        _ = unlink(temporary)
        TemporaryFileCleanup.unregister(temporary)
    }
}
