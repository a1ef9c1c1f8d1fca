import CheckrunModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a file cannot be attached: the path and what to do, in words.
package struct AttachmentError: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A file opened to be attached: a regular file only, opened without waiting (a FIFO would
/// block until someone wrote to it), and read with its size fixed at opening, so a file that
/// grows, shrinks or is rewritten while it is read is noticed rather than stored half-changed.
struct AttachmentFile {
    let path: String
    let size: Int
    private let descriptor: Int32
    private let modified: timespec

    /// The size of the pieces read and written: memory stays at this whatever the file's size.
    static let chunkSize = 1 << 20

    init(path: String, limit: Int) throws(AttachmentError) {
        self.path = path
        let shown = DisplayText.preview(path, limit: 200)
        guard !path.isEmpty else { throw AttachmentError("no file was named; give the path of the file to attach") }
        guard !path.contains("\u{0}") else { throw AttachmentError("\(shown): a path cannot hold a NUL character; check the path") }
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw Self.openFailure(shown, errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw AttachmentError("\(shown): cannot read the file (\(String(cString: strerror(code))))")
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            Glibc.close(descriptor)
            throw AttachmentError("\(shown) is \(Self.kindName(kind)), not a file; attach a screenshot, recording or log file")
        }
        guard info.st_size > 0 else {
            Glibc.close(descriptor)
            throw AttachmentError("\(shown) is empty; nothing was attached")
        }
        guard info.st_size <= limit else {
            Glibc.close(descriptor)
            let raise = limit < ResultStore.largestAttachmentLimit ? ", or raise the limit with --max-attachment" : " (the most one attachment can be)"
            throw AttachmentError("\(shown) is \(Attachment.sizeText(Int(info.st_size))), over the limit of \(Attachment.sizeText(limit)); attach a shorter recording\(raise)")
        }
        self.descriptor = descriptor
        self.size = Int(info.st_size)
        self.modified = info.st_mtim
    }

    func close() { Glibc.close(descriptor) }

    private static func openFailure(_ shown: String, _ code: Int32) -> AttachmentError {
        switch code {
        case ENOENT: AttachmentError("\(shown): no such file; check the path (drag the file onto the terminal to paste its path)")
        case EACCES, EPERM: AttachmentError("\(shown): permission denied; make the file readable, or copy it somewhere readable")
        case ENOTDIR: AttachmentError("\(shown): a part of the path is not a folder; check the path")
        case ENXIO: AttachmentError("\(shown) is a socket or a device without a reader, not a file")
        default: AttachmentError("\(shown): cannot open the file (\(String(cString: strerror(code))))")
        }
    }

    private static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (a named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// Hands the file's bytes to `body` a piece at a time, from the start; fails when the file
    /// is not exactly as it was at opening (another size, or written to since).
    func read(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        var offset = 0
        while true {
            let count = try buffer.withUnsafeMutableBytes { bytes throws(AttachmentError) -> Int in
                var got: Int
                repeat { got = pread(descriptor, bytes.baseAddress, bytes.count, off_t(offset)) } while got < 0 && errno == EINTR
                guard got >= 0 else { throw AttachmentError("\(DisplayText.preview(path, limit: 200)): cannot read the file (\(String(cString: strerror(errno)))); nothing was attached") }
                return got
            }
            if count == 0 { break }
            offset += count
            guard offset <= size else { throw changed }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        var info = stat()
        guard offset == size, fstat(descriptor, &info) == 0, info.st_size == size,
              info.st_mtim.tv_sec == modified.tv_sec, info.st_mtim.tv_nsec == modified.tv_nsec else { throw changed }
    }

    private var changed: AttachmentError {
        AttachmentError("\(DisplayText.preview(path, limit: 200)) changed while it was being read; nothing was attached. Wait until it is finished (a recording still being written?) and attach it again")
    }
}
