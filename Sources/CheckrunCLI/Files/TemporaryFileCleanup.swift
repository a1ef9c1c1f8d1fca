import CheckrunTerminal
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Temporary files being written, kept where a signal handler can reach them without the
/// Swift runtime: on Ctrl-C, Ctrl-\, SIGTERM or SIGHUP they are removed before the process ends.
private nonisolated(unsafe) var pendingPaths = [UnsafeMutablePointer<CChar>?](repeating: nil, count: 32)

/// Removes the temporary files of an `AtomicFile` that will never be renamed: at once when the
/// process is stopped by a signal, and on the next write to the same folder when it was killed
/// outright (SIGKILL cannot be caught).
enum TemporaryFileCleanup {
    /// The list changes with the exit signals held back (`SignalTrap.deferringSignals`), so
    /// the handler never sees it half changed, a pointer freed under it.
    static func register(_ path: String) {
        SignalTrap.deferringSignals { store(path) }
    }

    private static func store(_ path: String) {
        guard let slot = pendingPaths.firstIndex(where: { $0 == nil }) else { return }
        pendingPaths[slot] = strdup(path)
        for signalNumber in SignalTrap.exitSignals {
            signal(signalNumber) { number in
                for index in 0..<32 { if let path = pendingPaths[index] { unlink(path) } }
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    static func unregister(_ path: String) {
        SignalTrap.deferringSignals {
            for index in pendingPaths.indices {
                if let pending = pendingPaths[index], String(cString: pending) == path {
                    pendingPaths[index] = nil
                    free(pending)
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
