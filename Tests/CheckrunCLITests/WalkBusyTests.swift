import CheckrunModel
import CheckrunStore
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
}
