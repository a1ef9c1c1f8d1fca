import Foundation

/// A PostgreSQL cluster of a test's own, in a temporary folder and reachable only through a
/// Unix socket there, for tests that stop and start the server (which the shared test server
/// must never be). Needs the server's programs: CHECKRUN_TEST_POSTGRES_BIN, set by `.ci/run`.
package final class ThrowawayServer: @unchecked Sendable {
    package static var programs: String? {
        ProcessInfo.processInfo.environment["CHECKRUN_TEST_POSTGRES_BIN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private let folder: String
    private let programs: String
    /// The address of its `checkrun` database (no password: the cluster trusts its socket).
    package let address: String

    package init() throws {
        guard let programs = Self.programs else { throw TestDatabaseError("CHECKRUN_TEST_POSTGRES_BIN names no PostgreSQL programs") }
        self.programs = programs
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkrun-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        address = "postgresql://postgres@/checkrun?host=\(folder)"
        try run("initdb", ["-D", folder + "/data", "-A", "trust", "-U", "postgres"])
        try Data("listen_addresses = ''\nunix_socket_directories = '\(folder)'\nfsync = off\n".utf8)
            .append(toFile: folder + "/data/postgresql.conf")
        try start()
        try run("createdb", ["-h", folder, "-U", "postgres", "checkrun"])
    }

    package func start() throws { try run("pg_ctl", ["-D", folder + "/data", "-l", folder + "/log", "-w", "start"]) }

    package func stop() throws { try run("pg_ctl", ["-D", folder + "/data", "-m", "fast", "-w", "stop"]) }

    package func remove() {
        try? run("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs one of the server's programs, as the postgres user when the tests run as root
    /// (the server refuses to run as root).
    /// Its output goes to a file: the server pg_ctl starts would otherwise hold pipes open.
    /// Run through posix_spawn and waitpid, which need no run loop to see the child end.
    private func run(_ program: String, _ arguments: [String]) throws {
        let command = ([programs + "/" + program] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let shell = "\(command) </dev/null >>'\(folder)/programs.log' 2>&1"
        let argv = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", "/bin/sh", "-c", shell] : ["/bin/sh", "-c", shell]
        var pid: pid_t = 0
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        // Only the three standard descriptors go to the server: one holding a pipe of the test's
        // (a walk's standard input) open would keep that walk from ever reading its end.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let descriptor = Int32(name), descriptor > 2 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        }
        guard posix_spawn(&pid, argv[0], nil, nil, &cArguments, environ) == 0 else { throw TestDatabaseError("cannot start \(program)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            throw TestDatabaseError("\(program) failed: \((try? String(contentsOfFile: folder + "/programs.log", encoding: .utf8)) ?? "")")
        }
    }
}

extension Data {
    func append(toFile path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
    }
}
