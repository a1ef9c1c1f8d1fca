import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Another checkrun holding the database (a long merge) while a tester answers: the walk says
/// within seconds that it waits, saves the answer once the file is free, and goes on; Ctrl-C
/// while it waits says the answer is not saved. Nothing is said to be saved before it is.
@Suite(.serialized, .hangGuard) struct WalkBusyTests {
    let walkTests = WalkTerminalTests()

    /// A walk answering its first outcome while another connection holds the file, and that
    /// connection: the walk has said it waits.
    func answeringWhileHeld(_ folder: TemporaryFolder) throws -> (PseudoTerminal, Database) {
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("t 5")
        try terminal.expect("How many hits")
        let other = try Database(path: folder.path("db.sqlite"))
        try other.execute("BEGIN EXCLUSIVE")
        terminal.sendLine("10")
        try terminal.expect("is busy: another checkrun is writing to it, so this answer is not saved yet")
        return (terminal, other)
    }

    @Test func anAnswerGivenWhileTheFileIsBusyIsSavedOnceItIsFree() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (terminal, other) = try answeringWhileHeld(folder)
        try other.execute("COMMIT")
        other.close()
        try terminal.expect("The database is free again, and the answer is saved.")
        try terminal.expect("Pass, fail or not applicable?")
        terminal.sendLine("q")
        _ = terminal.waitForExit()
        #expect(try walkTests.results(folder).first?.outcomes.first??.value == 10)
    }

    @Test func controlCWhileWaitingSaysTheAnswerIsNotSaved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (terminal, other) = try answeringWhileHeld(folder)
        defer { other.close() }
        terminal.send("\u{03}")
        try terminal.expect("Stopped while waiting for the database: the last answer is not saved; everything before it is. Resume with:")
        #expect(terminal.waitForExit() == 130)
        try other.execute("COMMIT")
        #expect(try walkTests.results(folder).first?.outcomes.first??.value == nil, "the answer was not saved")
    }

    /// The stopwatch's single-key mode reads Ctrl-C as a key, and no key is read while the
    /// walk waits for the file: the wait lets it through as a signal, as at a line prompt.
    @Test func controlCWhileTheStopwatchWaitsForTheFileEndsTheWait() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        let deadline = Date().addingTimeInterval(5)
        while terminal.isInCookedMode && Date() < deadline { usleep(10_000) }
        let other = try Database(path: folder.path("db.sqlite"))
        defer { other.close() }
        try other.execute("BEGIN EXCLUSIVE")
        terminal.send("+")
        try terminal.expect("is busy: another checkrun is writing to it, so this answer is not saved yet")
        terminal.send("\u{03}")
        try terminal.expect("Stopped while waiting for the database: the last answer is not saved", timeout: 5)
        #expect(terminal.waitForExit(timeout: 5) == 130)
        #expect(terminal.isInCookedMode)
    }

    /// Ctrl-C in the first seconds, before the walk has said it waits, is held back until the
    /// save gives up, then said as what it is: never "everything answered is saved".
    @Test func controlCBeforeTheWaitIsSaidIsNotCalledSaved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("t 5")
        try terminal.expect("How many hits")
        let other = try Database(path: folder.path("db.sqlite"))
        defer { other.close() }
        try other.execute("BEGIN EXCLUSIVE")
        terminal.sendLine("10")
        usleep(300_000)
        terminal.send("\u{03}")
        try terminal.expect("Stopped while waiting for the database: the last answer is not saved")
        #expect(terminal.waitForExit() == 130)
        #expect(!terminal.output.contains("Everything answered is saved"), "\(terminal.output)")
    }

    /// The same on a team store, whose writers hold its lock (a long merge): the walk said
    /// nothing, gave up after 30 seconds and ended, and Ctrl-C meanwhile was held back, then
    /// said "Everything answered is saved" of an answer that was not.
    @Test(.enabled(if: TestEngine.server != nil, "needs CHECKRUN_TEST_POSTGRES and the PostgreSQL trait"))
    func onATeamStoreTheWalkWaitsForTheWritersLockAsForAFile() throws {
        let database = try TestDatabase(.postgresql)
        defer { database.remove() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try PseudoTerminal(["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--device", "iPhone 15",
                                           "--tester", "Ana", "--protocols", walkTests.protocols, "--db", database.address], directory: folder.path)
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("t 5")
        try terminal.expect("How many hits")
        let other = try ResultStore(path: database.address)
        defer { other.close() }
        func holdTheWritersLock() throws {
            try other.database.execute("BEGIN")
            try other.database.execute("SELECT pg_advisory_xact_lock(\(0x63_68_65_63_6B_72_75_6E))")
        }
        try holdTheWritersLock()
        terminal.sendLine("10")
        try terminal.expect("is busy: another checkrun is writing to it, so this answer is not saved yet")
        try other.database.execute("COMMIT")
        try terminal.expect("The database is free again, and the answer is saved.")
        try terminal.expect("Pass, fail or not applicable?")
        try holdTheWritersLock()
        terminal.sendLine("p")
        try terminal.expect("is busy: another checkrun is writing to it, so this answer is not saved yet")
        terminal.send("\u{03}")
        try terminal.expect("Stopped while waiting for the database: the last answer is not saved; everything before it is. Resume with:")
        #expect(terminal.waitForExit() == 130)
        #expect(!terminal.output.contains("Everything answered is saved"), "\(terminal.output)")
        try other.database.execute("COMMIT")
        let saved = try other.sessionSummaries().flatMap { try other.results(inSession: $0.session.id) }
        #expect(saved.first?.outcomes.first??.value == 10)
        #expect(saved.first?.outcomes.count ?? 0 < 2 || saved.first?.outcomes[1] == nil, "the second answer was not saved")
    }
    /// A walk of build 310 begun and left: the database exists, with one session.
    func startAndQuitAWalk(_ folder: TemporaryFolder) throws {
        let first = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "310", "--check", "tiny-target/touch-one-hand"])
        try first.expect("Press Enter to start the stopwatch")
        first.sendLine("q")
        #expect(first.waitForExit() == 0)
    }

    /// A walk started while another checkrun holds the file gave up after 30 seconds without a
    /// word ("try again"): it now says within seconds that it waits, and begins once it is free.
    @Test func aWalkStartedWhileTheFileIsBusySaysItWaitsThenBegins() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try startAndQuitAWalk(folder)
        let other = try Database(path: folder.path("db.sqlite"))
        try other.execute("BEGIN EXCLUSIVE")
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("is busy: another checkrun is writing to it, so the session is not started yet")
        Thread.sleep(forTimeInterval: 1)
        let freed = Date()
        try other.execute("COMMIT")
        other.close()
        try terminal.expect("The database is free again, and the session is started.")
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("q")
        #expect(terminal.waitForExit() == 0)
        let store = try ResultStore(path: folder.path("db.sqlite"))
        defer { store.close() }
        let sessions = try store.sessionSummaries().map(\.session)
        #expect(sessions.map(\.build).sorted() == ["310", "311"])
        // Started when it began, after the wait: not when the command was typed.
        let started = try #require(sessions.first { $0.build == "311" }?.startedAt)
        #expect(started >= freed.addingTimeInterval(-0.1), "started \(started), the file freed \(freed)")
    }

    /// `resume` writes too (the text of the protocols it walks), and waited 30 seconds without
    /// a word, as `run` did.
    @Test func aResumeWhileTheFileIsBusySaysItWaitsThenGoesOn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try startAndQuitAWalk(folder)
        let other = try Database(path: folder.path("db.sqlite"))
        try other.execute("BEGIN EXCLUSIVE")
        let terminal = try walkTests.start(folder, ["resume"])
        try terminal.expect("is busy: another checkrun is writing to it, so session")
        try terminal.expect("is not resumed yet")
        try other.execute("COMMIT")
        other.close()
        try terminal.expect("The database is free again, and the walk goes on.")
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("q")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func controlCWhileTheStartWaitsSaysNothingWasStarted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try startAndQuitAWalk(folder)
        let other = try Database(path: folder.path("db.sqlite"))
        defer { other.close() }
        try other.execute("BEGIN EXCLUSIVE")
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("so the session is not started yet")
        terminal.send("\u{03}")
        try terminal.expect("Stopped while waiting for the database; nothing was started.")
        #expect(terminal.waitForExit() == 130)
        try other.execute("COMMIT")
        let store = try ResultStore(path: folder.path("db.sqlite"))
        defer { store.close() }
        #expect(try store.sessionSummaries().map(\.session.build) == ["310"])
    }
    /// On a team store, a walk begun while a merge holds the writers' lock waited 30 seconds
    /// without a word, then ended with nothing started.
    @Test(.enabled(if: TestEngine.server != nil, "needs CHECKRUN_TEST_POSTGRES and the PostgreSQL trait"))
    func onATeamStoreAWalkStartedWhileTheWritersLockIsHeldSaysItWaits() throws {
        let database = try TestDatabase(.postgresql)
        defer { database.remove() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let other = try ResultStore(path: database.address)
        defer { other.close() }
        try other.database.execute("BEGIN")
        try other.database.execute("SELECT pg_advisory_xact_lock(\(0x63_68_65_63_6B_72_75_6E))")
        let terminal = try PseudoTerminal(["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--device", "iPhone 15",
                                           "--tester", "Ana", "--protocols", walkTests.protocols, "--db", database.address], directory: folder.path)
        try terminal.expect("is busy: another checkrun is writing to it, so the session is not started yet")
        try other.database.execute("COMMIT")
        try terminal.expect("The database is free again, and the session is started.")
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("q")
        #expect(terminal.waitForExit() == 0)
        #expect(try other.sessionSummaries().map(\.session.build) == ["311"])
    }
}
