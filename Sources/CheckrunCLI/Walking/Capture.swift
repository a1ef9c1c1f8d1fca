import CheckrunModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The capture command (`--capture CMD` or `CHECKRUN_CAPTURE`): a shell command with `{file}`
/// where the file it writes goes, e.g. `xcrun simctl io booted screenshot {file}`. It runs
/// with no input; what it prints to standard error is kept to explain a failure.
struct Capture {
    let template: String

    /// A screenshot takes seconds; a command still running after this is stopped, so a hung
    /// device or a command that never ends cannot hold the walk.
    static let timeLimit: TimeInterval = 120

    /// Runs the command and returns the file it wrote, in a folder of its own that the caller
    /// removes. Throws, with the exit status and the start of the error output, when the
    /// command fails or writes nothing.
    func run(at date: Date) throws -> (file: String, folder: String) {
        guard template.contains("{file}") else {
            throw CommandFailure("the capture command has no {file} to say where it writes, e.g. --capture \"xcrun simctl io booted screenshot {file}\"")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkrun-capture-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let stamp = Timestamps.iso8601(date).filter { $0.isNumber }
        let file = (folder as NSString).appendingPathComponent("capture-\(stamp).png")
        let quoted = "'" + file.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let spawned = try Spawned(shellCommand: template.replacingOccurrences(of: "{file}", with: quoted))
        guard let status = spawned.wait(seconds: Self.timeLimit) else {
            spawned.kill()
            try? FileManager.default.removeItem(atPath: folder)
            throw CommandFailure("the capture command ran for \(Int(Self.timeLimit)) seconds without ending and was stopped. Nothing was attached; attach a file with a PATH instead, or fix the command")
        }
        let text = spawned.errorOutput().trimmingCharacters(in: .whitespacesAndNewlines)
        let output = DisplayText.neutralised(String(text.prefix(200))) + (text.count > 200 ? "…" : "")
        if status != 0 || !FileManager.default.fileExists(atPath: file) {
            try? FileManager.default.removeItem(atPath: folder)
            let why = status != 0 ? "failed with exit status \(status)" : "finished but wrote no file"
            throw CommandFailure("the capture command \(why)\(output.isEmpty ? "" : ": \(output)"). Nothing was attached; attach a file with a PATH instead, or fix the command")
        }
        return (file, folder)
    }
}

/// `/bin/sh -c COMMAND` with no input, its output dropped and the start of its error output
/// kept, read on a thread of its own: a command may print without end, or leave a process
/// behind that holds the pipe open, and neither may hold the walk.
private final class Spawned: @unchecked Sendable {
    private let pid: pid_t
    private let lock = NSLock()
    private var kept = Data()
    private let drained = DispatchSemaphore(value: 0)

    init(shellCommand: String) throws {
        // The command gets only its input, output and error output: any other descriptor
        // checkrun holds (one its own caller leaked to it, say) is closed on exec, so a process
        // the command leaves behind holds nothing of checkrun's open.
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw CommandFailure("the capture command could not be started: \(String(cString: strerror(errno)))") }
        Self.closeOthersOnExec()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let words: [String] = ["/bin/sh", "-c", shellCommand]
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, "/bin/sh", &actions, nil, argv, environ)
        close(ends[1])
        guard status == 0 else {
            close(ends[0])
            throw CommandFailure("the capture command could not be started: \(String(cString: strerror(status)))")
        }
        pid = child
        let descriptor = ends[0]
        DispatchQueue.global().async { [self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                lock.withLock { if kept.count < 4096 { kept.append(contentsOf: chunk[0..<min(count, 4096 - kept.count)]) } }
            }
            close(descriptor)
            drained.signal()
        }
    }

    private static func closeOthersOnExec() {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// The exit status, or nil when the command had not ended after `seconds`.
    func wait(seconds: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while Date() < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F) }
            if result < 0 && errno != EINTR { return -1 }
            usleep(10_000)
        }
        return nil
    }

    func kill() {
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// What the command printed to its error output (its start); a process it left behind
    /// holding the pipe is not waited for beyond a second.
    func errorOutput() -> String {
        _ = drained.wait(timeout: .now() + 1)
        return lock.withLock { String(decoding: kept, as: UTF8.self) }
    }
}
