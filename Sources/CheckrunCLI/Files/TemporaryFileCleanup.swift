import CheckrunTerminal
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How many temporary files can be written at once: `import` holds one a page until every page
/// is written (a fixed 32 left the rest behind on Ctrl-C).
private let pendingCapacity = 4096

/// Temporary files being written, kept where a signal handler can reach them without the
/// Swift runtime: on Ctrl-C, Ctrl-\, SIGTERM or SIGHUP they are removed before the process ends.
/// Allocated once and never moved, each slot a pointer written whole: the handler may run on
/// any thread, and holding the signals back on one thread does not stop it running on another.
private nonisolated(unsafe) let pendingPaths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: pendingCapacity)
    slots.initialize(repeating: nil, count: pendingCapacity)
    return slots
}()

/// Removes the temporary files of an `AtomicFile` that will never be renamed: at once when the
/// process is stopped by a signal (exit 130), and on the next write to the same folder when it was killed
/// outright (SIGKILL cannot be caught).
enum TemporaryFileCleanup {
    /// Registers a temporary file before it is created, so that no moment is left between the
    /// two for a signal to fall in (removing a file not yet made does no harm). False when
    /// `pendingCapacity` files are being written already.
    static func register(_ path: String) -> Bool {
        SignalTrap.deferringSignals { store(path) }
    }

    private static func store(_ path: String) -> Bool {
        guard let slot = (0..<pendingCapacity).first(where: { pendingPaths[$0] == nil }) else { return false }
        pendingPaths[slot] = strdup(path)
        // Inside the one handler SignalTrap installs, so that words a command gave it for the
        // way out are still said (a handler of its own replaced them).
        SignalTrap.runBeforeExit {
            for index in 0..<pendingCapacity { if let path = pendingPaths[index] { unlink(path) } }
        }
        return true
    }

    /// Forgets a temporary file that was renamed or removed. Its copy of the path is kept, not
    /// freed: a handler on another thread may be reading it this moment (a few bytes a file).
    static func unregister(_ path: String) {
        SignalTrap.deferringSignals {
            for index in 0..<pendingCapacity {
                if let pending = pendingPaths[index], String(cString: pending) == path {
                    pendingPaths[index] = nil
                }
            }
        }
    }

    /// Removes `.NAME.checkrun-PID-N.tmp` files in `folder` whose process no longer runs.
    static func removeStale(in folder: String, for name: String) {
        let prefix = ".\(name).checkrun-"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
            let rest = entry.dropFirst(prefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ pid_t($0) }), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                _ = unlink((folder as NSString).appendingPathComponent(entry))
            }
        }
    }
}
