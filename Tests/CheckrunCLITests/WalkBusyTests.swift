import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Another checkrun holding the database (a long merge) while a tester answers: the walk says
/// within seconds that it waits, saves the answer once the file is free, and goes on; Ctrl-C
/// while it waits says the answer is not saved. Nothing is said to be saved before it is.
@Suite(.serialized, .timeLimit(.minutes(2))) struct WalkBusyTests {
    let walkTests = WalkTerminalTests()

    func holdingTheDatabase(_ folder: TemporaryFolder) throws -> Database {
        let other = try Database(path: folder.path("db.sqlite"))
        try other.execute("BEGIN EXCLUSIVE")
        return other
    }

    @Test func anAnswerGivenWhileTheFileIsBusyIsSavedOnceItIsFree() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("t 5")
        try terminal.expect("How many hits")
        let other = try holdingTheDatabase(folder)
        terminal.sendLine("10")
        try terminal.expect("is busy: another checkrun is writing to it, so this answer is not saved yet")
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
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("t 5")
        try terminal.expect("How many hits")
        let other = try holdingTheDatabase(folder)
        defer { other.close() }
        terminal.sendLine("10")
        try terminal.expect("is busy")
        terminal.send("\u{03}")
        try terminal.expect("Stopped while waiting for the database: the last answer is not saved; everything before it is. Resume with:")
        #expect(terminal.waitForExit() == 130)
        try other.execute("COMMIT")
        #expect(try walkTests.results(folder).first?.outcomes.first??.value == nil, "the answer was not saved")
    }
}
