#if canImport(Glibc)
// C's `stdout` is a global variable Swift 6 reads only through an import marked so (and this
// file imports nothing that brings Glibc in unmarked): it is read on the thread that prints,
// after each line, and once the command is done.
@preconcurrency import Glibc
#endif

/// Why the first write to standard output failed (an `errno`), 0 while none has.
private nonisolated(unsafe) var firstFailure: Int32 = 0

/// Standard output's last word: everything a command printed (a report, an export, a list)
/// goes through C's buffered `stdout`, whose failed writes (a full disk, `/dev/full`, a file
/// over its size limit) only set a flag. A report cut short with exit 0 would pass a CI gate
/// and land in an archive as if whole, so a command whose output was not all written says so
/// and exits 1, whatever it would have returned.
enum StandardOutput {
    /// Called after each print: keeps the reason of the first failed write while it is known.
    static func noteFailure() {
        if firstFailure == 0, ferror(stdout) != 0 { firstFailure = errno == 0 ? EIO : errno }
    }

    /// Flushes standard output now; false once any of it failed to be written. A gate says
    /// "exiting with status 3" only of a report that reached its reader whole: one cut short
    /// exits 1, with `finish`'s words.
    static func isWholeSoFar() -> Bool {
        if fflush(stdout) != 0, firstFailure == 0 { firstFailure = errno == 0 ? EIO : errno }
        noteFailure()
        return firstFailure == 0
    }

    /// Flushes standard output and returns the exit status the process should end with.
    static func finish(_ status: Int32) -> Int32 {
        guard !isWholeSoFar() else { return status }
        let reason = String(cString: strerror(firstFailure)).lowercased()
        let advice = [ENOSPC, EDQUOT, EFBIG].contains(firstFailure)
            ? "Free space, or write it elsewhere, and run the command again."
            : "Give the command somewhere to write (a file with > or --out, or a terminal), and run it again."
        let message = "checkrun: error: standard output could not be written in full (\(reason)), so what it holds is cut short; nothing the command said there can be relied on. \(advice)\n"
        _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        return 1
    }
}
