import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the package's own files are, found from this source file, so tests never need
/// anything outside the clone.
package enum Repository {
    package static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    package static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    /// The `../shared` folder beside the clone, when there is one (a user's clone has none).
    package static var shared: URL? {
        let url = root.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}

/// A fresh folder under the system's temporary directory, removed by `remove()`.
package struct TemporaryFolder: Sendable {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("checkrun-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package var path: String { url.path }

    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    package func write(_ name: String, _ text: String) throws -> String {
        let target = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
        return target.path
    }

    @discardableResult
    package func write(_ name: String, bytes: [UInt8]) throws -> String {
        let target = url.appendingPathComponent(name)
        try Data(bytes).write(to: target)
        return target.path
    }

    package func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// What a run of the built `checkrun` printed and returned.
package struct ProcessResult: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
    package var timedOut: Bool
}

/// Runs the built `checkrun` binary as a user would: a real process, real exit code.
package enum Checkrun {
    /// The binary SwiftPM built beside the test bundle, in the same build folder (debug or
    /// release), so the tests run the build they were built with: never a stale binary from
    /// another configuration, which a fixed `.build/debug/checkrun` could have been.
    package static var executable: String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("checkrun").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("checkrun").path,
            Bundle.main.bundleURL.appendingPathComponent("checkrun").path,
        ]
        // A missing binary makes every run fail with a message naming where it was looked for.
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    /// How checkrun's hints name this binary when it runs outside the package folder: by its
    /// path, since `swift run` works only from the package folder.
    package static var hintName: String {
        URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
    }

    /// Runs checkrun with `arguments` in `directory`, feeding `input` on standard input.
    package static func run(
        _ arguments: [String], in directory: String? = nil, input: String? = nil,
        environment: [String: String] = [:], timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        try Subprocess.run(executable, arguments, in: directory, input: input, environment: environment, timeout: timeout)
    }
}

/// Runs a program to its end and collects what it printed: checkrun itself, or a shell,
/// setpriv or the sqlite3 shell wrapped around it.
package enum Subprocess {
    /// checkrun's own variables are cleared first, so the machine's settings never leak into a test.
    package static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil, input: String? = nil,
        environment: [String: String] = [:], timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        env["CHECKRUN_ACCESSIBLE"] = nil
        env["CHECKRUN_PROTOCOLS"] = nil
        env["CHECKRUN_DB"] = nil
        env["CHECKRUN_CAPTURE"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let collected = Collected()
        let group = DispatchGroup()
        for (index, pipe) in [outPipe, errPipe].enumerated() {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(index, data)
                group.leave()
            }
        }
        let timedOut = group.wait(timeout: .now() + timeout) == .timedOut
        if timedOut { process.terminate() }
        process.waitUntilExit()
        _ = group.wait(timeout: .now() + 5)
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: collected.get(0), as: UTF8.self),
            stderr: String(decoding: collected.get(1), as: UTF8.self),
            timedOut: timedOut)
    }
}

private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var data: [Int: Data] = [:]

    func set(_ index: Int, _ value: Data) {
        lock.lock()
        data[index] = value
        lock.unlock()
    }

    func get(_ index: Int) -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data[index] ?? Data()
    }
}

/// SQL that turns a current database back into an older schema version, for upgrade tests.
package enum OlderSchema {
    /// Version 2 kept records WITHOUT ROWID.
    package static let version2 = """
        CREATE TABLE old (session_id TEXT NOT NULL REFERENCES sessions (id), sequence INTEGER NOT NULL, result_id TEXT NOT NULL,
            kind TEXT NOT NULL, reason TEXT, payload TEXT NOT NULL, recorded_at REAL NOT NULL, previous_hash TEXT NOT NULL,
            hash TEXT NOT NULL, PRIMARY KEY (session_id, sequence)) WITHOUT ROWID;
        INSERT INTO old SELECT * FROM records; DROP TABLE records; ALTER TABLE old RENAME TO records;
        CREATE INDEX records_by_result ON records (result_id); DROP TABLE IF EXISTS protocol_versions; DROP TABLE IF EXISTS result_attachments; DROP TABLE IF EXISTS attachment_files; DROP INDEX IF EXISTS results_set_aside; PRAGMA user_version = 2;
        """
}
