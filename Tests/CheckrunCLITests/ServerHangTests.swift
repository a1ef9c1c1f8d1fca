#if PostgreSQL
import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A server that stops answering without going away (its process stopped, as a wedged or
/// swapping server is): no error ever comes over a Unix socket, so the walk sat silent before
/// its prompt, and Ctrl-C, held back while the save ran, did nothing. On a cluster of the
/// test's own: a stopped backend may hold locks every other test's commits would wait on.
@Suite(.enabled(if: TestEngine.server != nil && ThrowawayServer.programs != nil, "needs a PostgreSQL build and CHECKRUN_TEST_POSTGRES_BIN (see .ci/run)"))
struct ServerHangTests {
    /// The walk, at its first prompt, with the server's processes serving it stopped.
    private func walkBeforeAStoppedServer(_ server: ThrowawayServer, _ folder: TemporaryFolder) throws -> (PseudoTerminal, [pid_t]) {
        let terminal = try walk(on: server, in: folder)
        try terminal.expect("Press Enter to start")
        // Idle between statements, so stopping them leaves no lock of the server's held.
        let backends = try backendsServing(server)
        try #require(!backends.isEmpty)
        for pid in backends { try #require(kill(pid, SIGSTOP) == 0) }
        return (terminal, backends)
    }

    @Test(.hangGuard) func aSaveTheServerDoesNotAnswerIsSaidAndSavedOnceItAnswers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try ThrowawayServer()
        defer { server.remove() }
        let (terminal, backends) = try walkBeforeAStoppedServer(server, folder)
        defer { for pid in backends { kill(pid, SIGCONT) } }
        terminal.send("t 1:20\r")
        try terminal.expect("Saving this answer is taking longer than it should: the results server", timeout: 15)
        #expect(!terminal.output.contains("Time: 1 minute 20 seconds"), "not announced before it is saved")
        for pid in backends { kill(pid, SIGCONT) }
        try terminal.expect("answered after")
        try terminal.expect("Time: 1 minute 20 seconds")
        try terminal.expect("Expected 1 of 2")
        terminal.send("\u{03}")
        try terminal.expect("Interrupted. Everything answered is saved.")
        #expect(terminal.waitForExit() == 130)
        let store = try ResultStore(path: server.address, access: .existingOnly)
        defer { store.close() }
        let session = try #require(try store.sessionSummaries(release: "2.4").first?.session.id)
        #expect(try store.results(inSession: session).first?.activeSeconds == 80)
    }

    @Test(.hangGuard) func ctrlCEndsTheWaitForAServerThatDoesNotAnswer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try ThrowawayServer()
        defer { server.remove() }
        let (terminal, backends) = try walkBeforeAStoppedServer(server, folder)
        defer { for pid in backends { kill(pid, SIGCONT) } }
        terminal.send("t 1:20\r")
        try terminal.expect("is taking longer than it should", timeout: 15)
        terminal.send("\u{03}")
        // Never "everything answered is saved": the answer was sent, and may or may not be.
        try terminal.expect("Stopped while waiting for the server to answer: the last answer may not be saved (resume shows whether it is)", timeout: 5)
        #expect(terminal.waitForExit(timeout: 5) == 130)
        #expect(terminal.isInCookedMode)
    }

    /// The stopwatch's single-key mode reads Ctrl-C as a key, and no key is read while a save
    /// waits: the mode lets it through as a signal again while the wait lasts.
    @Test(.hangGuard) func ctrlCEndsTheWaitWhileTheStopwatchRuns() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try ThrowawayServer()
        defer { server.remove() }
        let terminal = try walk(on: server, in: folder)
        try terminal.expect("Press Enter to start")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        let backends = try backendsServing(server)
        for pid in backends { try #require(kill(pid, SIGSTOP) == 0) }
        defer { for pid in backends { kill(pid, SIGCONT) } }
        terminal.send("+")
        try terminal.expect("is taking longer than it should", timeout: 15)
        terminal.send("\u{03}")
        try terminal.expect("Stopped while waiting for the server to answer", timeout: 5)
        #expect(terminal.waitForExit(timeout: 5) == 130)
        #expect(terminal.isInCookedMode)
    }

    /// An answer that waited for another writer, then committed while a Ctrl-C was held back:
    /// the Ctrl-C says it is saved, never "not saved". (The save is slowed by a trigger added
    /// after the walk opened the store, so the Ctrl-C lands while it runs.)
    @Test(.hangGuard) func aCtrlCHeldWhileAWaitedAnswerCommitsSaysItIsSaved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try ThrowawayServer()
        defer { server.remove() }
        let terminal = try walk(on: server, in: folder, ["--accessible"])
        try terminal.expect("Press Enter to start")
        let writer = try PostgresConnection(uri: server.address)
        try writer.query("SELECT pg_advisory_lock($1)", [String(PostgresConnection.writeLockKey)])
        terminal.send("t 1:20\r")
        try terminal.expect("is busy", timeout: 15)
        try writer.query("CREATE FUNCTION slow_down() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(2); RETURN NEW; END $$")
        try writer.query("CREATE TRIGGER slow_down BEFORE INSERT ON records FOR EACH ROW EXECUTE FUNCTION slow_down()")
        try writer.query("SELECT pg_advisory_unlock($1)", [String(PostgresConnection.writeLockKey)])
        usleep(700_000)
        terminal.send("\u{03}")
        try terminal.expect("Interrupted. Everything answered is saved.", timeout: 10)
        #expect(terminal.waitForExit(timeout: 5) == 130)
        #expect(!terminal.output.contains("is not saved; everything before it is"), "\(terminal.output)")
        try writer.query("DROP TRIGGER slow_down ON records")
        let store = try ResultStore(path: server.address, access: .existingOnly)
        defer { store.close() }
        let session = try #require(try store.sessionSummaries(release: "2.4").first?.session.id)
        #expect(try store.results(inSession: session).first?.activeSeconds == 80)
    }

    /// A walk of one check (a stopwatch, a counter, an outcome) on `server`, at a terminal.
    private func walk(on server: ThrowawayServer, in folder: TemporaryFolder, _ leading: [String] = []) throws -> PseudoTerminal {
        try PseudoTerminal(leading + ["run", "--release", "2.4", "--build", "311", "--device", "iPhone 15", "--tester", "Ana",
                                      "--check", "tiny-target/touch-one-hand", "--protocols", Repository.path("protocols"), "--db", server.address],
                           directory: folder.path)
    }

    private func backendsServing(_ server: ThrowawayServer) throws -> [pid_t] {
        try PostgresConnection(uri: server.address)
            .query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
            .compactMap { $0.first??.description }.compactMap { pid_t($0) }
    }
}
#endif
