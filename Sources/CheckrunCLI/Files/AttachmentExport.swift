import CheckrunModel
import CheckrunStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes attachments out as files, each through `AtomicFile`, checking every file's bytes
/// against its hash as they stream past; a file whose bytes do not match is not left behind.
enum AttachmentExport {
    /// - Returns: the paths written, relative to `folder`, in order.
    static func write(_ found: [ReleaseAttachment], into folder: String, from store: ResultStore) throws -> [String] {
        try makeFolder(folder)
        var used = Set<String>()
        var written: [String] = []
        for item in found {
            let relative = AttachmentFileName.unique(
                AttachmentFileName.relativePath(check: item.check, build: item.build, device: item.device, attempt: item.attempt, attachment: item.attachment),
                hash: item.attachment.hash, among: used)
            used.insert(relative)
            let path = (folder as NSString).appendingPathComponent(relative)
            // The names are checkrun's, not the user's: a link planted where one of them goes
            // (in a shared evidence folder, say) is refused, never written through.
            try refuseLink(FilePaths.folder(of: path))
            try makeFolder(FilePaths.folder(of: path))
            try refuseLink(path)
            var file = try AtomicFile(path: path)
            var hasher = SHA256.Hasher()
            do {
                let present = try store.readAttachment(hash: item.attachment.hash) { bytes in
                    hasher.update(bytes)
                    try file.write(bytes)
                }
                guard present, hasher.finalHex() == item.attachment.hash else {
                    throw CommandFailure("the stored bytes of \(DisplayText.neutralised(item.attachment.name)) (\(item.check)) are \(present ? "not those recorded" : "missing"); verify on this database names what changed. Files written before it are kept")
                }
                try file.commit()
            } catch {
                file.discard()
                throw error
            }
            written.append(relative)
        }
        return written
    }

    static func refuseLink(_ path: String) throws {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw CommandFailure("\(DisplayText.neutralised(path)) is a symbolic link; checkrun writes attachments only into folders and files of its own. Remove the link, or choose another folder", exitCode: 2)
        }
    }

    static func makeFolder(_ path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw CommandFailure("\(DisplayText.neutralised(path)) is not a folder; name a folder to write the attachments into", exitCode: 2) }
            return
        }
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw CommandFailure("cannot create the folder \(DisplayText.neutralised(path)): \(error.localizedDescription)")
        }
    }
}
