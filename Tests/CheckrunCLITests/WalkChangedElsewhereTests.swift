import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A walk never saves over a change another writer made to the same result while it ran (a
/// teammate's amendment, the session resumed in a second terminal): its answer is refused in
/// words, and it goes on from what is saved. The built binary on real pseudo-terminals.
@Suite(.serialized, .hangGuard) struct WalkChangedElsewhereTests {
    let protocols = Repository.path("protocols")
    let checks = ["--check", "tiny-target/voice-control-show-numbers", "--check", "tiny-target/touch-one-hand"]

    func walk(_ folder: TemporaryFolder, _ arguments: [String]) throws -> PseudoTerminal {
        try PseudoTerminal(arguments + ["--protocols", protocols, "--db", folder.path("db.sqlite")], directory: folder.path)
    }

    /// A new walk of `order` at a terminal, once it asks its first question, and its session's
    /// short id.
    func startWalk(_ folder: TemporaryFolder, _ order: [String]? = nil) throws -> (terminal: PseudoTerminal, id: String) {
        let terminal = try walk(folder, ["run", "--release", "2.4", "--build", "311", "--device", "iPhone", "--tester", "Ana"] + (order ?? checks))
        return (terminal, try sessionID(in: try terminal.expect("Press Enter to start")))
    }

    /// The short id in a walk's first line ("Session 1a2b3c4d started").
    func sessionID(in output: String) throws -> String {
        try #require(output.range(of: #"Session [0-9a-f]{8} started"#, options: .regularExpression).map { String(output[$0].dropFirst(8).prefix(8)) })
    }

    func checkrun(_ folder: TemporaryFolder, _ arguments: [String], input: String? = nil) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols, "--db", folder.path("db.sqlite")], in: folder.path, input: input)
    }

    func onlyResult(_ folder: TemporaryFolder) throws -> CheckResult? {
        let store = try ResultStore(path: folder.path("db.sqlite"))
        defer { store.close() }
        let results = try store.sessionSummaries().flatMap { try store.results(inSession: $0.session.id) }
        #expect(results.count == 1, "one result for the check, never two: \(results)")
        return results.first
    }

    @Test func anAnswerGoingBackOverATeammatesAmendmentIsRefusedAndTheAmendmentStands() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tester = try startWalk(folder).terminal
        tester.sendLine("t 10")
        try tester.expect("Pass, fail or not applicable?")
        tester.sendLine("pass")
        try tester.expect("Notes (optional")
        tester.sendLine("")
        try tester.expect("Check 2 of 2")
        try tester.expect("Press Enter to start")
        let amend = try checkrun(folder, ["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/voice-control-show-numbers",
                                          "--verdict", "fail", "--expected", "1=fail", "--notes", "Numbers 4 and 5 overlap", "--reason", "Seen on the recording"])
        #expect(amend.status == 0, "\(amend.stderr)")
        tester.sendLine("b")
        try tester.expect("Back to check 1: the notes.")
        tester.sendLine("looked again")
        try tester.expect("Not saved: \"Notes saved: looked again. Result: pass, 1 of 1 expected outcome passed.\" The check tiny-target/voice-control-show-numbers was amended by someone else (reason: Seen on the recording) while this walk was open, and this answer would have undone that. The walk goes on from what is saved.")
        try tester.expect("Check 1 now holds what was saved there: Result: fail, 1 of 1 expected outcome failed.")
        try tester.expect("Press Enter to start")
        tester.sendLine("q")
        #expect(tester.waitForExit() == 0)

        let stored = try onlyResult(folder)
        #expect(stored?.verdict == .fail)
        #expect(stored?.notes == "Numbers 4 and 5 overlap")
        let verify = try checkrun(folder, ["verify"])
        #expect(verify.status == 0, "\(verify.stdout)")
    }

    @Test func twoTerminalsWalkingOneSessionEachGoOnFromTheOthersAnswers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (first, id) = try startWalk(folder)
        let second = try walk(folder, ["resume", id])
        try second.expect("Press Enter to start")

        first.sendLine("t 10")
        try first.expect("Pass, fail or not applicable?")
        second.sendLine("t 20")
        try second.expect("Not saved: \"Time: 20 seconds.\" The check tiny-target/voice-control-show-numbers was saved by someone else (another walk of this session, or a merge) while this walk was open")
        try second.expect("Check 1 now holds what was saved there: the time (10 seconds).")
        try second.expect("Pass, fail or not applicable?")
        second.sendLine("fail")
        try second.expect("Notes (required")
        second.sendLine("numbers overlap")
        try second.expect("Result: fail")
        try second.expect("Check 2 of 2")

        first.sendLine("pass")
        try first.expect("The check tiny-target/voice-control-show-numbers was saved by someone else (another walk of this session, or a merge)")
        try first.expect("Check 1 now holds what was saved there: Result: fail, 1 of 1 expected outcome failed.")
        try first.expect("Check 2 of 2")
        first.sendLine("q")
        second.sendLine("q")
        #expect(first.waitForExit() == 0)
        #expect(second.waitForExit() == 0)

        let stored = try onlyResult(folder)
        #expect(stored?.verdict == .fail)
        #expect(stored?.notes == "numbers overlap")
        #expect(try checkrun(folder, ["verify"]).status == 0)
    }
}

extension WalkChangedElsewhereTests {
    /// A resumed walk starts from what its session's records hold: it saves over its own
    /// answers without a word, is refused over an amendment, and then saves from there.
    @Test func aResumedWalkSavesOverItsOwnAnswersAndNotOverAnAmendment() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (first, id) = try startWalk(folder)
        first.sendLine("t 10")
        try first.expect("Pass, fail or not applicable?")
        first.sendLine("pass")
        try first.expect("Notes (optional")
        first.sendLine("q")
        #expect(first.waitForExit() == 0)

        let resumed = try walk(folder, ["resume", id])
        try resumed.expect("Notes (optional")
        resumed.sendLine("")
        try resumed.expect("Result: pass")
        try resumed.expect("Press Enter to start")
        let amend = try checkrun(folder, ["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/voice-control-show-numbers",
                                          "--verdict", "fail", "--expected", "1=fail", "--notes", "Numbers 4 and 5 overlap", "--reason", "Seen on the recording"])
        #expect(amend.status == 0, "\(amend.stderr)")
        resumed.sendLine("b")
        try resumed.expect("Back to check 1: the notes.")
        resumed.sendLine("looked again")
        try resumed.expect("was amended by someone else (reason: Seen on the recording)")
        try resumed.expect("Press Enter to start")
        resumed.sendLine("b")
        try resumed.expect("Back to check 1: the notes.")
        resumed.sendLine("looked again")
        try resumed.expect("Notes saved: looked again")
        try resumed.expect("Press Enter to start")
        resumed.sendLine("q")
        #expect(resumed.waitForExit() == 0)
        let output = try checkrun(folder, ["sessions"])
        #expect(output.status == 0)
        let stored = try onlyResult(folder)
        #expect(stored?.verdict == .fail, "the amendment's verdict stands")
        #expect(stored?.notes == "looked again", "the answer given after the refusal is saved")
        #expect(try checkrun(folder, ["verify"]).status == 0)
    }

    /// Keys typed for the timer after another terminal saved the check are not taken as the
    /// answer to the question the walk asks once it has taken the other terminal's result.
    @Test func keysTypedAheadOfARefusalAreNotTakenAsAnAnswer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (first, id) = try startWalk(folder)
        first.send("\r")
        try first.expect("Timer started.")
        let second = try walk(folder, ["resume", id])
        try second.expect("Press Enter to start")
        second.sendLine("t 30")
        try second.expect("Pass, fail or not applicable?")
        // A tally, then a pause and Enter typed at once: the tally's save is refused.
        first.send(" p\r")
        try first.expect("The timer was stopped; this timing was not saved.")
        try first.expect("Check 1 now holds what was saved there: the time (30 seconds).")
        try first.expect("Pass, fail or not applicable?")
        Thread.sleep(forTimeInterval: 0.5)
        first.sendLine("q")
        second.sendLine("q")
        #expect(first.waitForExit() == 0)
        #expect(second.waitForExit() == 0)
        let stored = try onlyResult(folder)
        #expect(stored?.outcomes.compactMap { $0 }.isEmpty == true, "no outcome was answered: \(String(describing: stored?.outcomes))")
    }

    /// A check reopened in another terminal is taken on before the walk calls the session
    /// complete.
    @Test func aWalkTakesOnACheckReopenedElsewhereBeforeCallingTheSessionComplete() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (first, id) = try startWalk(folder, ["--check", "tiny-target/touch-one-hand", "--check", "tiny-target/voice-control-show-numbers"])
        first.sendLine("s")
        try first.expect("Check 2 of 2")
        try first.expect("Press Enter to start")
        let second = try walk(folder, ["resume", id])
        try second.expect("Press Enter to start")
        second.sendLine("b")
        try second.expect("Reopened check 1")
        second.sendLine("q")
        #expect(second.waitForExit() == 0)

        first.sendLine("t 10")
        try first.expect("Pass, fail or not applicable?")
        first.sendLine("p")
        try first.expect("Notes (optional")
        first.sendLine("")
        try first.expect("Check tiny-target/touch-one-hand was changed by another writer while this walk was open.")
        let rest = try first.expect("Press Enter to start")
        #expect(!rest.contains("complete"), "\(rest)")
        first.sendLine("q")
        #expect(first.waitForExit() == 0)
    }
}

extension WalkChangedElsewhereTests {
    /// A refused save can leave a walk nothing to ask of what it holds while another terminal
    /// has reopened a check: the walk takes that on too, rather than call the session complete.
    @Test func aRefusalThatLeavesNothingToAskStillTakesOnAReopenedCheck() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let order = ["--check", "tiny-target/touch-one-hand", "--check", "tiny-target/voice-control-show-numbers"]
        let begun = try checkrun(folder, ["run", "--release", "2.4", "--build", "311", "--device", "iPhone", "--tester", "Ana"] + order, input: "s\n")
        let id = try sessionID(in: begun.stdout)
        let first = try walk(folder, ["resume", id])
        try first.expect("Press Enter to start")
        let second = try walk(folder, ["resume", id])
        try second.expect("Press Enter to start")
        let reopener = try walk(folder, ["resume", id])
        try reopener.expect("Press Enter to start")
        reopener.sendLine("b")
        try reopener.expect("Reopened check 1")
        reopener.sendLine("q")
        #expect(reopener.waitForExit() == 0)

        second.sendLine("t 10")
        try second.expect("Pass, fail or not applicable?")
        second.sendLine("p")
        try second.expect("Notes (optional")
        second.sendLine("")
        try second.expect("was changed by another writer while this walk was open.")
        second.sendLine("q")
        #expect(second.waitForExit() == 0)

        first.sendLine("t 20")
        try first.expect("Not saved: \"Time: 20 seconds.\"")
        try first.expect("Check tiny-target/touch-one-hand was changed by another writer while this walk was open.")
        let rest = try first.expect("Press Enter to start")
        #expect(!rest.contains("complete"), "\(rest)")
        first.sendLine("q")
        #expect(first.waitForExit() == 0)
        let sessions = try checkrun(folder, ["sessions"])
        #expect(sessions.stdout.contains("unfinished"), "\(sessions.stdout)")
    }
    /// Going back into a check a teammate amended meanwhile and keeping every answer with
    /// Enter said "Nothing changed; the saved result stands: pass" of a result saved as a fail:
    /// nothing was saved, so nothing looked. What is saved is said instead, and the walk goes on
    /// from it. A reason of several lines is said on one line, never as a "Result:" of its own.
    @Test func keepingACheckAmendedMeanwhileSaysWhatIsSavedNotThatItStands() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tester = try startWalk(folder).terminal
        tester.sendLine("t 10")
        try tester.expect("Pass, fail or not applicable?")
        tester.sendLine("pass")
        try tester.expect("Notes (optional")
        tester.sendLine("")
        try tester.expect("Press Enter to start")
        let amend = try checkrun(folder, ["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/voice-control-show-numbers",
                                          "--verdict", "blocked", "--reason", "build crashed\nResult: pass, 1 of 1 expected outcome passed"])
        #expect(amend.status == 0, "\(amend.stderr)")
        tester.sendLine("b")
        try tester.expect("Back to check 1: the notes.")
        tester.sendLine("")
        try tester.expect("Check tiny-target/voice-control-show-numbers was changed by another writer while this walk was open.")
        try tester.expect("Check 1 now holds what was saved there: Result: blocked: build crashed / Result: pass")
        try tester.expect("Press Enter to start")
        tester.sendLine("q")
        #expect(tester.waitForExit() == 0)
        #expect(!tester.output.contains("the saved result stands"), "\(tester.output)")
        #expect(!tester.output.contains("build crashed\n") && !tester.output.contains("build crashed\r"), "\(tester.output)")
        #expect(try onlyResult(folder)?.verdict == .blocked)
    }
}
