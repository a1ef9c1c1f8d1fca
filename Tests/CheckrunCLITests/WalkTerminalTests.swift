import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The walk as a tester meets it: the built binary on a real pseudo-terminal.
@Suite(.serialized, .hangGuard) struct WalkTerminalTests {
    let protocols = Repository.path("protocols")

    func start(_ folder: TemporaryFolder, _ arguments: [String], environment: [String: String] = [:]) throws -> PseudoTerminal {
        // A walk started at a terminal asks for its device and tester unless given.
        var named: [String] = []
        if arguments.first == "run" && !arguments.contains("--device") { named += ["--device", "iPhone 15"] }
        if arguments.first == "run" && !arguments.contains("--tester") { named += ["--tester", "Ana"] }
        return try PseudoTerminal(arguments + named + ["--protocols", protocols, "--db", folder.path("db.sqlite")], directory: folder.path, environment: environment)
    }

    func results(_ folder: TemporaryFolder) throws -> [CheckResult] {
        let store = try ResultStore(path: folder.path("db.sqlite"))
        return try store.sessionSummaries().flatMap { try store.results(inSession: $0.session.id) }
    }

    @Test func aFullSessionWithTimingPauseStopsFailureBackSkipAndBlock() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try start(folder, [
            "run", "--release", "2.4", "--build", "311", "--device", "iPhone 15",
            "--check", "tiny-target/accessibility-inspector", "--check", "motor-accessibility/switch-control-stops-to-pay",
            "--check", "tiny-target/voice-control-show-numbers", "--check", "over-grouped-control/switch-control",
        ])
        try terminal.expect("4 checks")
        try terminal.expect("Check 1 of 4: tiny-target/accessibility-inspector")
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        Thread.sleep(forTimeInterval: 0.2)
        terminal.send("p")
        try terminal.expect("Timer paused.")
        Thread.sleep(forTimeInterval: 0.6)
        terminal.send("p")
        try terminal.expect("Timer resumed.")
        Thread.sleep(forTimeInterval: 0.2)
        terminal.send("\r")
        try terminal.expect("Timer stopped:")
        try terminal.expect("Pass, fail or not applicable?")
        terminal.sendLine("pass")
        try terminal.expect("Expected 1: pass.")
        try terminal.expect("Pass, fail or not applicable?")
        terminal.sendLine("f")
        try terminal.expect("Notes (required, something failed)")
        terminal.sendLine("the info button is 20 pt")
        try terminal.expect("Result: fail, 1 of 2 expected outcomes failed")

        try terminal.expect("Check 2 of 4: motor-accessibility/switch-control-stops-to-pay")
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        terminal.send(" ")
        try terminal.expect("1 stop tallied.")
        terminal.send("+")
        try terminal.expect("2 stops tallied.")
        terminal.send("+")
        try terminal.expect("3 stops tallied.")
        terminal.send("-")
        try terminal.expect("Took one back: 2 stops tallied.")
        terminal.send("\r")
        try terminal.expect("Stops tallied in this timing: 2.")
        try terminal.expect("(p, f, n)")
        terminal.sendLine("p")
        try terminal.expect("(p, f, n)")
        terminal.sendLine("p")
        try terminal.expect("Enter keeps 2 (the tally)")
        terminal.sendLine("")
        try terminal.expect("Stops: 2.")
        try terminal.expect("Notes (optional, Enter for none)")
        terminal.sendLine("b")
        try terminal.expect("Back to check 2: the count of stops.")
        terminal.sendLine("14")
        try terminal.expect("Stops: 14.")
        try terminal.expect("Notes (optional, Enter for none)")
        terminal.sendLine("")
        try terminal.expect("Result: pass, 2 of 2 expected outcomes passed")

        try terminal.expect("Check 3 of 4")
        try terminal.expect("Press Enter")
        terminal.sendLine("s")
        try terminal.expect("Result: skipped")
        try terminal.expect("Check 4 of 4")
        try terminal.expect("Press Enter")
        terminal.sendLine("x")
        try terminal.expect("Why is this check blocked?")
        terminal.sendLine("switch hardware missing")
        try terminal.expect("Result: blocked: switch hardware missing")
        try terminal.expect("complete: 4 checks, 1 passed, 1 failed, 1 blocked, 1 skipped.")
        #expect(terminal.waitForExit() == 0)
        #expect(terminal.isInCookedMode, "the terminal is back in its normal mode")

        let saved = try results(folder)
        #expect(saved.map(\.verdict) == [.fail, .pass, .skipped, .blocked])
        let timed = try #require(saved.first)
        #expect(timed.stopwatch.map(\.kind) == [.start, .pause, .resume, .stop])
        let active = try #require(timed.activeSeconds)
        #expect(active >= 0.3 && active < 0.6 + 5, "active time leaves the pause out: \(active)")
        #expect(timed.notes == "the info button is 20 pt")
        #expect(saved[1].tally == 2)
        #expect(saved[1].counters["stops"]?.value == 14)
        #expect(saved[3].blockedReason == "switch hardware missing")
    }

    @Test func aSessionKilledHalfWayResumesWithEveryAnswerKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try start(folder, ["run", "--release", "2.4", "--build", "311", "--protocol", "tiny-target"])
        try first.expect("Press Enter to start the stopwatch")
        first.sendLine("t 42")
        try first.expect("Time: 42 seconds.")
        try first.expect("(p, f, n)")
        first.sendLine("p")
        try first.expect("(p, f, n)")
        first.sendLine("p")
        try first.expect("Notes (optional")
        first.sendLine("all 44 pt")
        try first.expect("Result: pass")
        try first.expect("Press Enter to start the stopwatch")
        first.sendLine("t 1:05")
        try first.expect("How many hits out of 10?")
        first.sendLine("10")
        try first.expect("Expected 1: pass, 10 of 10")
        try first.expect("(p, f, n)")
        kill(first.pid, SIGKILL)
        #expect(first.waitForExit() == 128 + SIGKILL)

        let second = try start(folder, ["resume"])
        try second.expect("1 of 3 checks done.")
        try second.expect("Check 2 of 3: tiny-target/touch-one-hand")
        try second.expect("Expected 2 of 2: Delete never triggered. Pass, fail or not applicable?")
        second.sendLine("f Delete fired on the 7th try")
        try second.expect("Notes (optional")
        second.sendLine("")
        try second.expect("Result: fail, 1 of 2 expected outcomes failed")
        try second.expect("Press Enter")
        second.sendLine("q")
        try second.expect("Saved, 1 check left. Resume with: \(Checkrun.hintName) resume")
        #expect(second.waitForExit() == 0)

        let saved = try results(folder)
        #expect(saved.count == 2)
        #expect(saved[0].activeSeconds == 42 && saved[0].notes == "all 44 pt" && saved[0].verdict == .pass)
        #expect(saved[1].activeSeconds == 65)
        #expect(saved[1].counters["hits"]?.value == 10)
        #expect(saved[1].outcomes[0]?.verdict == .pass)
        #expect(saved[1].outcomes[1]?.note == "Delete fired on the 7th try")
    }

    @Test func colourOnlyWhereWantedAndNoEscapeSequencesInAccessibleOrNoColorMode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var build = 0
        func session(_ extra: [String], _ environment: [String: String]) throws -> String {
            // A build of its own each time: an unfinished one would be offered for resuming.
            build += 1
            let terminal = try start(folder, ["run", "--release", "1", "--build", String(build), "--check", "tiny-target/touch-one-hand"] + extra, environment: environment)
            try terminal.expect("Press Enter to start")
            terminal.send("\r")
            try terminal.expect("Timer started.")
            terminal.send("+")
            try terminal.expect("stop tallied")
            terminal.send("\r")
            try terminal.expect("Timer stopped")
            terminal.sendLine("?")
            try terminal.expect("Everything is saved as soon as you answer.")
            terminal.sendLine("q")
            _ = terminal.waitForExit()
            return terminal.output
        }
        let normal = try session([], [:])
        #expect(normal.contains("\u{1B}["), "on a colour terminal, prompts are bold")
        let noColor = try session([], ["NO_COLOR": "1"])
        #expect(!noColor.contains("\u{1B}"))
        let accessible = try session(["--accessible"], [:])
        #expect(!accessible.contains("\u{1B}"))
        let viaEnvironment = try session([], ["CHECKRUN_ACCESSIBLE": "1"])
        #expect(!viaEnvironment.contains("\u{1B}"))
        let dumb = try session([], ["TERM": "dumb"])
        #expect(!dumb.contains("\u{1B}"))
        #expect(!accessible.contains("\r\u{1B}[K") && !accessible.contains("\u{08}"), "nothing is redrawn")
    }

    @Test func aMissingReleaseIsAskedForOnATerminal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try start(folder, ["run", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("Release under test (? for help): ")
        terminal.sendLine("")
        try terminal.expect("The release is required")
        terminal.sendLine("2.4")
        try terminal.expect("Build under test (? for help): ")
        terminal.sendLine("311")
        try terminal.expect("release 2.4, build 311")
        try terminal.expect("Press Enter")
        terminal.sendLine("q")
        #expect(terminal.waitForExit() == 0)
    }
}

extension WalkTerminalTests {
    /// A walk of build `build` of release 1 with no device or tester given, nor $USER: it asks.
    func walkAskingForLabels(build: String, in folder: TemporaryFolder) throws -> PseudoTerminal {
        try PseudoTerminal(["run", "--release", "1", "--build", build, "--check", "tiny-target/touch-one-hand", "--protocols", protocols, "--db", folder.path("db.sqlite")],
                           directory: folder.path, environment: ["USER": ""])
    }

    @Test
    func aWalkAtATerminalAsksForDeviceAndTesterOfferingTheLastOnes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try walkAskingForLabels(build: "1", in: folder)
        try first.expect("Device (? for help): ")
        first.sendLine("")
        try first.expect("Name the device, e.g. iPhone 15")
        first.sendLine("iPad mini, iPadOS 18")
        try first.expect("Tester (? for help): ")
        first.sendLine("Ana")
        try first.expect("Press Enter to start")
        first.sendLine("q")
        _ = first.waitForExit()
        let second = try walkAskingForLabels(build: "2", in: folder)
        try second.expect("Device (Enter for iPad mini, iPadOS 18; ? for help): ")
        second.sendLine("")
        try second.expect("Tester (Enter for Ana; ? for help): ")
        second.sendLine("")
        try second.expect("device iPad mini, iPadOS 18")
        second.sendLine("q")
        _ = second.waitForExit()
        // A last device edited in the database to hold an escape sequence is not offered:
        // Enter would file the new session under a label no one could type.
        let raw = try Database(path: folder.path("db.sqlite"))
        try raw.execute("UPDATE sessions SET device = 'iPh' || char(27) || '[31m'")
        raw.close()
        let third = try walkAskingForLabels(build: "3", in: folder)
        try third.expect("Device (? for help): ")
        third.sendLine("iPhone")
        try third.expect("Tester (Enter for Ana; ? for help): ")
        third.sendLine("q")
        _ = third.waitForExit()
    }
}
