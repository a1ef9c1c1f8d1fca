import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Attaching evidence in a walk on a real pseudo-terminal: a dragged-in path, the capture
/// command while the timer runs, its failure, and a file that cannot be attached.
@Suite(.serialized, .hangGuard) struct WalkAttachTerminalTests {
    let walkTests = WalkTerminalTests()

    @Test func aDraggedInPathTheCaptureAndTheirFailuresKeepTheWalkGoing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("My Shots"), withIntermediateDirectories: true)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("a screenshot".utf8)
        try Data(png).write(to: URL(fileURLWithPath: folder.path("My Shots/shot 1.png")))
        try Data(png + [1]).write(to: URL(fileURLWithPath: folder.path("sim.png")))
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand",
                                                    "--capture", "cp \(folder.path("sim.png")) {file}"])
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        terminal.send("a")
        try terminal.expect("Attached capture-")
        try terminal.expect("What does it show?")
        terminal.sendLine("The simulator's Pay sheet")
        try terminal.expect("Description saved: ")
        terminal.send("\r")
        try terminal.expect("Timer stopped:")
        try terminal.expect("How many hits")
        // As a terminal pastes a file dragged onto it, typed ahead the moment the prompt shows
        // (while the walk may still be leaving the timer's raw mode).
        terminal.sendLine("a \(folder.path("My Shots/shot 1.png").replacingOccurrences(of: " ", with: "\\ ")) ")
        try terminal.expect("Attached shot 1.png (PNG image, 20 bytes) to expected outcome 1.")
        try terminal.expect("What does it show?")
        terminal.sendLine("")
        try terminal.expect("Kept without a description.")
        terminal.sendLine("a \(folder.path("nowhere.png"))")
        try terminal.expect("Not attached:")
        try terminal.expect("no such file")
        try terminal.expect("How many hits") // the walk stays at the same prompt
        terminal.sendLine("a \(folder.path("My Shots"))")
        try terminal.expect("is a folder, not a file")
        terminal.sendLine("10")
        try terminal.expect("Pass, fail or not applicable?")
        terminal.sendLine("q")
        try terminal.expect("Resume with:")
        _ = terminal.waitForExit()

        let result = try #require(try walkTests.results(folder).first)
        #expect(result.attachments.map(\.name).first?.hasPrefix("capture-") == true)
        #expect(result.attachments.map(\.description) == ["The simulator's Pay sheet", ""])
        #expect(result.attachments.map(\.outcome) == [nil, 1])
        #expect(result.outcomes.first??.value == 10)
    }

    /// Text pasted, or a file dropped on the terminal, while the timer runs arrives all at
    /// once: it is never read a key at a time (its p pausing the timer, its spaces tallying
    /// stops, its s skipping the check). A dropped file is attached; other text is left alone.
    @Test func textPastedWhileTheTimerRunsIsNotReadAsKeys() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("My Shots"), withIntermediateDirectories: true)
        try Data(Array("a screenshot".utf8)).write(to: URL(fileURLWithPath: folder.path("My Shots/shot 1.png")))
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        terminal.send("'\(folder.path("My Shots/shot 1.png"))' ")
        try terminal.expect("Attached shot 1.png")
        try terminal.expect("What does it show?")
        terminal.sendLine("The Pay sheet")
        try terminal.expect("Description saved: ")
        terminal.send("paste sp ace")
        try terminal.expect("That was 12 characters pasted or dropped on the terminal, not keys; nothing was done with them.")
        // Lines of keys alone, pasted: not read one at a time either (the Enters stopping the timer).
        terminal.send("\rp  + \r")
        try terminal.expect("That was 7 characters pasted or dropped on the terminal, not keys; nothing was done with them.")
        // A key that types nothing (an arrow, Tab, Backspace) is answered, and the timer runs on.
        for key in ["\u{1B}[A", "\t", "\u{7F}"] {
            terminal.send(key)
            try terminal.expect("That key does nothing here. While the timer runs: Enter stops it")
        }
        terminal.send(" ")
        try terminal.expect("1 stop tallied.")
        // The same key typed ahead (tapped while an answer was saved) is each a stop.
        terminal.send("  ")
        try terminal.expect("3 stops tallied.")
        terminal.send("\r")
        try terminal.expect("Timer stopped:")
        try terminal.expect("How many hits")
        terminal.sendLine("q")
        try terminal.expect("Resume with:")
        _ = terminal.waitForExit()
        let result = try #require(try walkTests.results(folder).first)
        #expect(result.tally == 3 && result.stopwatch.map(\.kind) == [.start, .stop], "\(result.stopwatch)")
        #expect(result.attachments.map(\.name) == ["shot 1.png"] && result.verdict == nil)
    }

    /// An arrow whose bytes arrive in two reads, as over a slow remote link: its "A" (up) or
    /// "B" (down) is not taken for the attach or back key.
    @Test func anArrowSplitAcrossReadsIsStillOneKey() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        for arrow in ["[A", "[B", "OA"] {
            terminal.send("\u{1B}")
            usleep(30_000)
            terminal.send(arrow)
            let seen = try terminal.expect("That key does nothing here.")
            terminal.send(" ")
            let said = try seen + terminal.expect("tallied.")
            #expect(said.components(separatedBy: "That key does nothing here.").count == 2 && !said.lowercased().contains("attach")
                    && !said.contains("Stop the timer first"), "\(said)")
        }
        terminal.send("q")
        try terminal.expect("Resume with:")
        _ = terminal.waitForExit()
        let result = try #require(try walkTests.results(folder).first)
        #expect(result.tally == 3 && result.attachments.isEmpty, "\(result)")
    }

    /// Control-C pressed inside a broken escape sequence (Escape, "[" and nothing more) stops
    /// the walk: it was taken as a byte of the sequence, and nothing happened.
    @Test func controlCAfterABrokenEscapeSequenceStillStops() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"])
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.send("\r")
        try terminal.expect("Enter stops the timer")
        terminal.send("\u{1B}[")
        usleep(30_000)
        terminal.send("\u{03}")
        try terminal.expect("Resume with:")
        #expect(terminal.waitForExit() == 130)
    }

    @Test func aFailingCaptureSaysWhyAndAttachesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try walkTests.start(folder, ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"],
                                           environment: ["CHECKRUN_CAPTURE": "echo 'No devices found.' >&2; exit 1 # {file}"])
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("a")
        try terminal.expect("the capture command failed with exit status 1: No devices found.")
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("q")
        _ = terminal.waitForExit()
        #expect(try walkTests.results(folder).allSatisfy { $0.attachments.isEmpty })
    }
}
