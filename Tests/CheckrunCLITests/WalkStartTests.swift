import CheckrunTestSupport
import Foundation
import Testing

/// The questions before a walk, at a real terminal: the walk's keys work there too, and an
/// unfinished session is offered only when resuming it files the answers as asked.
@Suite struct WalkStartTests {
    let protocols = Repository.path("protocols")

    func terminal(_ folder: TemporaryFolder, _ arguments: [String]) throws -> PseudoTerminal {
        try PseudoTerminal(["run", "--check", "tiny-target/touch-one-hand", "--protocols", protocols, "--db", folder.path("db.sqlite")] + arguments,
                           directory: folder.path, environment: ["USER": ""])
    }

    /// `?` and `b` were taken for the release and the tester: a session was filed under
    /// release "?" and tester "b".
    @Test(.hangGuard)
    func helpBackAndQuitAreKeysNotLabels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try terminal(folder, [])
        try first.expect("Release under test (? for help): ")
        first.sendLine("?")
        try first.expect("Type the release and press Enter, e.g. 2.4")
        first.sendLine("b")
        try first.expect("b is a key of the walk, not a release")
        first.sendLine("2.4")
        try first.expect("Build under test (? for help): ")
        first.sendLine("311")
        try first.expect("Device (? for help): ")
        first.sendLine("iPhone 15")
        try first.expect("Tester (? for help): ")
        first.sendLine("q")
        try first.expect("Nothing was started.")
        #expect(first.waitForExit() == 0)
        let sessions = try Checkrun.run(["sessions", "--db", folder.path("db.sqlite")], in: folder.path)
        #expect(!sessions.stdout.contains("release ?") && !sessions.stdout.contains("2.4"), "\(sessions.stdout)")
        // Ctrl-C before the walk begins says that nothing was started (it said nothing at all).
        let interrupted = try terminal(folder, ["--release", "2.4", "--build", "311"])
        try interrupted.expect("Device (? for help): ")
        interrupted.send("\u{03}")
        try interrupted.expect("Stopped before the walk began; nothing was started.")
        #expect(interrupted.waitForExit() == 130)
    }

    /// Ben's walk resumed Ana's unfinished session by default, and his answers were filed under
    /// her name and OS version. Only a session of the same tester, OS and checks is offered.
    @Test(.hangGuard)
    func anotherTestersSessionIsNamedNotResumed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let label = ["--release", "6", "--build", "1", "--device", "iPhone 15"]
        let ana = try Checkrun.run(["run", "--check", "tiny-target/touch-one-hand", "--tester", "Ana", "--os", "17.5", "--protocols", protocols,
                                    "--db", folder.path("db.sqlite")] + label, in: folder.path, input: "q\n")
        #expect(ana.status == 0, "\(ana.stderr)")
        let ben = try terminal(folder, label + ["--tester", "Ben", "--os", "18.2"])
        try ben.expect("(tester Ana, OS 17.5) is unfinished")
        try ben.expect("It differs from this one in its tester and its OS version, so a new session is started")
        try ben.expect("Press Enter to start")
        ben.sendLine("q")
        #expect(ben.waitForExit() == 0)
        // A newer session of someone else does not hide Ben's own from him.
        let cara = try Checkrun.run(["run", "--check", "tiny-target/touch-one-hand", "--tester", "Cara", "--protocols", protocols,
                                     "--db", folder.path("db.sqlite")] + label, in: folder.path, input: "q\n")
        #expect(cara.status == 0, "\(cara.stderr)")
        let again = try terminal(folder, label + ["--tester", "Ben", "--os", "18.2"])
        try again.expect("(tester Ben, OS 18.2) is unfinished")
        try again.expect("Resume it instead of starting a new session?")
        again.sendLine("?")
        try again.expect("q quits without starting one")
        again.sendLine("q")
        try again.expect("Nothing was started.")
        #expect(again.waitForExit() == 0)
        // Ctrl-D answers nothing: no second session for the same build and device.
        let ended = try terminal(folder, label + ["--tester", "Ben", "--os", "18.2"])
        try ended.expect("Resume it instead of starting a new session? (Enter or y resumes, n starts a new one, q quits)")
        ended.send("\u{04}")
        try ended.expect("no answer given; nothing was started. To go on with session ")
        #expect(ended.waitForExit() == 1)
        let sessions = try Checkrun.run(["sessions", "--db", folder.path("db.sqlite")], in: folder.path)
        #expect(sessions.stdout.split(separator: "\n").count == 3, "Ana's, Ben's and Cara's only: \(sessions.stdout)")
    }
}
