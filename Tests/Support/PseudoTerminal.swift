import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `checkrun` on a real pseudo-terminal, as its controlling terminal, so tests
/// see what a tester sees: raw-mode keys, echo, Ctrl-C as a key and as a signal.
package final class PseudoTerminal: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// glibc's POSIX_SPAWN_SETSID, which Swift does not import.
    private static let spawnSetSID: Int32 = 0x80

    package let pid: pid_t
    private let master: Int32
    private let slave: Int32
    private var buffer: [UInt8] = []
    /// Everything before this offset has been matched by `expect`.
    private var mark = 0
    private var exitStatus: Int32?

    package init(_ arguments: [String], directory: String, environment: [String: String] = [:]) throws {
        var masterFD: Int32 = -1, slaveFD: Int32 = -1
        var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&masterFD, &slaveFD, nil, nil, &size) == 0 else { throw Failure(description: "openpty failed") }
        master = masterFD
        slave = slaveFD
        // ttyname_r, not ttyname: ttyname's one static buffer is shared by tests that open
        // terminals side by side, and another's half-written name opened a folder.
        var name = [CChar](repeating: 0, count: 256)
        guard ttyname_r(slaveFD, &name, name.count) == 0 else { throw Failure(description: "ttyname_r failed") }
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened by the new session leader, the terminal becomes its controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, masterFD)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(Self.spawnSetSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var env = ProcessInfo.processInfo.environment
        for key in ["NO_COLOR", "CHECKRUN_ACCESSIBLE", "CHECKRUN_PROTOCOLS", "CHECKRUN_DB"] { env[key] = nil }
        env["TERM"] = "xterm-256color"
        for (key, value) in environment { env[key] = value }
        // The shell changes folder, then becomes checkrun (same process, same session).
        let argv = (["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory, Checkrun.executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "posix_spawn failed: \(spawned)") }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
        close(slave)
    }

    /// All output so far, escape sequences included.
    package var output: String { String(decoding: buffer, as: UTF8.self) }

    private func pump(until deadline: Date) {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let milliseconds = max(0, Int32(deadline.timeIntervalSinceNow * 1000))
        guard poll(&descriptor, 1, min(milliseconds, 100)) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if count > 0 { buffer += chunk[0..<count] }
    }

    /// Waits until `text` appears after the last match; returns the output up to and including it.
    @discardableResult
    package func expect(_ text: String, timeout: TimeInterval = 15) throws -> String {
        let needle = Array(text.utf8)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let range = find(needle) {
                let seen = String(decoding: buffer[mark..<range.upperBound], as: UTF8.self)
                mark = range.upperBound
                return seen
            }
            if Date() > deadline {
                throw Failure(description: "timed out waiting for \"\(text)\"; output after the last match:\n\(String(decoding: buffer[mark...], as: UTF8.self))")
            }
            pump(until: deadline)
        }
    }

    private func find(_ needle: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty, buffer.count - mark >= needle.count else { return nil }
        for start in mark...(buffer.count - needle.count) where buffer[start] == needle[0] {
            if Array(buffer[start..<start + needle.count]) == needle { return start..<start + needle.count }
        }
        return nil
    }

    /// Types text, as keys; "\r" is the Enter key.
    package func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Types a line and Enter.
    package func sendLine(_ text: String) {
        send(text + "\r")
    }

    /// Waits for the program to end, collecting its last output; nil when it did not end in time.
    package func waitForExit(timeout: TimeInterval = 15) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                exitStatus = code
                let drain = Date().addingTimeInterval(0.3)
                while Date() < drain { pump(until: drain) }
                return code
            }
            pump(until: Date().addingTimeInterval(0.05))
        }
        return nil
    }

    /// The terminal's settings as the program left them.
    package var isInCookedMode: Bool {
        var settings = termios()
        guard tcgetattr(slave, &settings) == 0 else { return false }
        return settings.c_lflag & tcflag_t(ICANON) != 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Puts the terminal in line mode (echo, whole lines), as a shell does when it takes the
    /// terminal back from a job it stopped.
    package func putInLineMode() {
        var settings = termios()
        guard tcgetattr(slave, &settings) == 0 else { return }
        settings.c_lflag |= tcflag_t(ECHO | ICANON | ISIG)
        settings.c_iflag |= tcflag_t(ICRNL)
        tcsetattr(slave, TCSANOW, &settings)
    }
}
