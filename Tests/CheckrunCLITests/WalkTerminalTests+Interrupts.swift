import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Every way out of a walk at a terminal: Ctrl-C, Ctrl-\, SIGTERM, the end of input.
extension WalkTerminalTests {
    @Test func ctrlCWhileTimingSavesRestoresTheTerminalAndSaysHowToResume() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try start(folder, ["run", "--release", "1", "--build", "1", "--protocol", "tiny-target"])
        try terminal.expect("Press Enter to start")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        terminal.send("+")
        try terminal.expect("1 stop tallied.")
        terminal.send("\u{03}")
        try terminal.expect("Interrupted. Everything answered is saved. Resume with: \(Checkrun.hintName) resume")
        #expect(terminal.waitForExit() == 130)
        #expect(terminal.isInCookedMode)
        #expect(try results(folder).first?.tally == 1)
    }

    /// Stopped from outside while the timer runs (SIGTSTP, `kill -STOP`), then continued: the
    /// shell hands the terminal back in line mode, where "p" waited for Enter, and the Enter
    /// then stopped the timer too. Continued, the walk takes single keys again.
    @Test func aWalkStoppedAndContinuedWhileTimingTakesSingleKeysAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try start(folder, ["run", "--release", "1", "--build", "1", "--protocol", "tiny-target"])
        try terminal.expect("Press Enter to start")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        // Stopped before it went into single-key mode, the walk would go into it on its own
        // once continued, and the test would pass without the fix: it waits for that mode.
        let deadline = Date().addingTimeInterval(5)
        while terminal.isInCookedMode && Date() < deadline { usleep(10_000) }
        #expect(!terminal.isInCookedMode)
        kill(terminal.pid, SIGSTOP)
        usleep(200_000)
        terminal.putInLineMode()
        kill(terminal.pid, SIGCONT)
        usleep(200_000)
        terminal.send("p")
        try terminal.expect("Timer paused.", timeout: 5)
        terminal.send("\u{03}")
        #expect(terminal.waitForExit() == 130)
        #expect(terminal.isInCookedMode)
    }

    /// A terminal that sends CR LF for Enter (or a key that bounced) gave the timer a second
    /// Enter with the first: it stopped at once and saved a timing of nothing, which `t 0` is
    /// refused for. An Enter already waiting as the timer starts does not stop it.
    @Test func anEnterThatCameWithTheOneStartingTheTimerDoesNotStopIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try start(folder, ["run", "--release", "1", "--build", "1", "--check", "tiny-target/voice-control-show-numbers"])
        try terminal.expect("Press Enter to start")
        terminal.send("\r\n")
        try terminal.expect("A second Enter came with the one that started the timer")
        Thread.sleep(forTimeInterval: 1.1)
        terminal.send("\r")
        try terminal.expect("Timer stopped")
        try terminal.expect("Pass, fail or not applicable?")
        terminal.send("\u{03}")
        #expect(terminal.waitForExit() == 130)
        #expect((try results(folder).first?.activeSeconds ?? 0) >= 1)
    }

    /// Ctrl-C pressed while the timer ran, right behind the Enter that stopped it, came as a
    /// byte: read by the line question that followed, it became part of an answer, and the walk
    /// waited for an Enter. It stops the walk as Ctrl-C does, with the timing saved.
    @Test func ctrlCTypedBehindTheEnterStoppingTheTimerStopsTheWalk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try start(folder, ["run", "--release", "1", "--build", "1", "--check", "tiny-target/voice-control-show-numbers"])
        try terminal.expect("Press Enter to start")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        Thread.sleep(forTimeInterval: 1.1)
        terminal.send("\r\u{03}")
        try terminal.expect("Resume with: \(Checkrun.hintName) resume")
        #expect(terminal.waitForExit() == 130)
        #expect(terminal.isInCookedMode)
        #expect((try results(folder).first?.activeSeconds ?? 0) >= 1)
    }

    @Test func ctrlCAtALinePromptAndSIGTERMInRawModeBothExit130() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let prompt = try start(folder, ["run", "--release", "1", "--build", "1", "--protocol", "tiny-target"])
        try prompt.expect("Press Enter to start")
        prompt.sendLine("t 5")
        try prompt.expect("(p, f, n)")
        prompt.send("\u{03}")
        try prompt.expect("Resume with: \(Checkrun.hintName) resume")
        #expect(prompt.waitForExit() == 130)
        #expect(try results(folder).first?.activeSeconds == 5)

        let raw = try start(folder, ["resume"])
        try raw.expect("(p, f, n)")
        raw.sendLine("s")
        // The check holds a time, so skipping it asks first.
        try raw.expect("Skip check 1 and set its answers aside? Type y to skip")
        raw.sendLine("y")
        try raw.expect("Result: skipped")
        try raw.expect("Press Enter to start")
        raw.send("\r")
        try raw.expect("Enter stops the timer")
        kill(raw.pid, SIGTERM)
        try raw.expect("Resume with: \(Checkrun.hintName) resume")
        #expect(raw.waitForExit() == 130)
        #expect(raw.isInCookedMode, "SIGTERM in raw mode puts the terminal back")

        // Ctrl-\ (SIGQUIT) is a way out like Ctrl-C: it printed the runtime's crash report, in
        // colour with a countdown, and the walk went on. At a line prompt and while timing.
        for (index, key) in ["line", "timer"].enumerated() {
            let quit = try start(folder, ["resume"])
            try quit.expect("Press Enter to start")
            if index == 1 {
                quit.send("\r")
                try quit.expect("Enter stops the timer")
            }
            quit.send("\u{1C}")
            try quit.expect("Resume with: \(Checkrun.hintName) resume")
            #expect(quit.waitForExit() == 130, "\(key)")
            #expect(!quit.output.contains("crashed") && !quit.output.contains("Backtrac"), "\(key): \(quit.output)")
        }
    }

    /// SQLite's -shm file emptied in place by another program: the next answer's read of it
    /// faults (SIGBUS). It was a crash report holding the terminal for half a minute; now the
    /// terminal is put back, the cause and the resume hint said, exit 1, and what was saved stays.
    /// The answer being saved may be lost, so it is never said that everything is saved.
    @Test func aSharedMemoryFileCutShortStopsTheWalkWithWords() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try start(folder, ["run", "--release", "1", "--build", "1", "--protocol", "tiny-target"])
        try terminal.expect("Press Enter to start")
        terminal.sendLine("t 30")
        try terminal.expect("(p, f, n)")
        #expect(truncate(folder.path("db.sqlite-shm"), 0) == 0)
        terminal.sendLine("p")
        try terminal.expect("was cut short by another program")
        try terminal.expect("The answer being saved then may be lost; those before it are saved. See what is saved with: \(Checkrun.hintName) sessions")
        try terminal.expect("resume with: \(Checkrun.hintName) resume")
        #expect(terminal.waitForExit() == 1)
        #expect(terminal.isInCookedMode && !terminal.output.contains("crashed"), "\(terminal.output)")
        #expect(!terminal.output.contains("Everything answered is saved"), "\(terminal.output)")
        #expect(try results(folder).first?.activeSeconds == 30)
    }

    @Test func ctrlDWithQuestionsLeftSavesAndExits1() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try start(folder, ["run", "--release", "1", "--build", "1", "--protocol", "tiny-target"])
        try terminal.expect("Press Enter to start")
        terminal.send("\u{04}")
        try terminal.expect("End of input with 3 checks left. Everything answered is saved. Resume with: \(Checkrun.hintName) resume")
        #expect(terminal.waitForExit() == 1)
    }
}
