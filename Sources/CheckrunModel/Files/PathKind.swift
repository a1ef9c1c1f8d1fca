import Foundation

/// What is at a path, looked up in one place: every "is that folder there?" of checkrun (the
/// protocol folder, an import's output folder, a database's folder) asks here, so they agree on
/// links (followed), on a file where a folder was expected, and on a path that is missing.
package enum PathKind: Sendable, Equatable {
    case missing
    case folder
    case file
    /// A device, a FIFO, a socket: never a protocol file, a folder or a database.
    case other
    /// Something is there (or may be) that checkrun may not look at: a folder on the way that
    /// it may not enter, a loop of links. Never reported as missing.
    case inaccessible

    package static func of(_ path: String) -> PathKind {
        var status = stat()
        guard stat(path, &status) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .inaccessible }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        default: return .other
        }
    }
}
