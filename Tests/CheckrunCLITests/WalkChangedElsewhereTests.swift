import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A walk never saves over a change another writer made to the same result while it ran (a
/// teammate's amendment, the session resumed in a second terminal): its answer is refused in
/// words, and it goes on from what is saved. The built binary on real pseudo-terminals.
@Suite(.serialized, .timeLimit(.minutes(2))) struct WalkChangedElsewhereTests {
    let protocols = Repository.path("protocols")
    let checks = ["--check", "tiny-target/voice-control-show-numbers", "--check", "tiny-target/touch-one-hand"]

    func walk(_ folder: TemporaryFolder, _ arguments: [String]) throws -> PseudoTerminal {
        try PseudoTerminal(arguments + ["--protocols", protocols, "--db", folder.path("db.sqlite")], directory: folder.path)
    }

    func checkrun(_ folder: TemporaryFolder, _ arguments: [String]) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols, "--db", folder.path("db.sqlite")], in: folder.path)
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
        let tester = try walk(folder, ["run", "--release", "2.4", "--build", "311", "--device", "iPhone", "--tester", "Ana"] + checks)
        try tester.expect("Press Enter to start")
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
        try tester.expect("Not saved: check tiny-target/voice-control-show-numbers was amended by someone else (reason: Seen on the recording) after this walk last read it, and saving this answer would have undone that.")
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
        let first = try walk(folder, ["run", "--release", "2.4", "--build", "311", "--device", "iPhone", "--tester", "Ana"] + checks)
        let started = try first.expect("Press Enter to start")
        let id = try #require(started.range(of: #"Session ([0-9a-f]{8}) started"#, options: .regularExpression).map { String(started[$0].dropFirst(8).prefix(8)) })
        let second = try walk(folder, ["resume", id])
        try second.expect("Press Enter to start")

        first.sendLine("t 10")
        try first.expect("Pass, fail or not applicable?")
        second.sendLine("t 20")
        try second.expect("Not saved: check tiny-target/voice-control-show-numbers was saved from another walk of this session after this walk last read it")
        try second.expect("Check 1 now holds what was saved there: the time (10 seconds).")
        try second.expect("Pass, fail or not applicable?")
        second.sendLine("fail")
        try second.expect("Notes (required")
        second.sendLine("numbers overlap")
        try second.expect("Result: fail")
        try second.expect("Check 2 of 2")

        first.sendLine("pass")
        try first.expect("Not saved: check tiny-target/voice-control-show-numbers was saved from another walk of this session")
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
