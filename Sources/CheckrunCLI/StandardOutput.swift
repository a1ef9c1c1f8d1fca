#if canImport(Glibc)
// C's `stdout` is a global variable Swift 6 reads only through an import marked so (and this
// file imports nothing that brings Glibc in unmarked): it is read once the command is done,
// when no other thread writes to it.
@preconcurrency import Glibc
#endif

/// Standard output's last word: everything a command printed (a report, an export, a list)
/// goes through C's buffered `stdout`, whose failed writes (a full disk, `/dev/full`, a file
/// over its size limit) only set a flag. A report cut short with exit 0 would pass a CI gate
/// and land in an archive as if whole, so a command whose output was not all written says so
/// and exits 1, whatever it would have returned.
enum StandardOutput {
    /// Flushes standard output and returns the exit status the process should end with.
    static func finish(_ status: Int32) -> Int32 {
        let flushed = fflush(stdout) == 0
        let reason = flushed ? nil : String(cString: strerror(errno))
        guard !flushed || ferror(stdout) != 0 else { return status }
        let because = reason.map { " (\($0.lowercased()))" } ?? ""
        let message = "checkrun: error: standard output could not be written in full\(because), so what it holds is cut short; nothing the command said there can be relied on. Free space, or write it elsewhere, and run the command again.\n"
        _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        return 1
    }
}
