import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The walk and the result commands without a terminal: answers piped in, one per line.
@Suite struct WalkPipedTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder, input: String? = nil) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path, input: input)
    }

    @Test func aPipedSessionReadsLikeATranscriptAndLandsInTheDefaultDatabase() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let answers = ["t 1:20", "9", "f Delete fired on try 4", "", "t 3", "s"].joined(separator: "\n") + "\n"
        let result = try checkrun(["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--check", "tiny-target/voice-control-show-numbers"], in: folder, input: answers)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("> t 1:20\nTime: 1 minute 20 seconds."))
        #expect(result.stdout.contains("> 9\nExpected 1: fail, 9 of 10 against at least 10 of 10."))
        #expect(result.stdout.contains("> f Delete fired on try 4\nExpected 2: fail, note: Delete fired on try 4."))
        #expect(result.stdout.contains("Result: fail, 2 of 2 expected outcomes failed"))
        #expect(result.stdout.contains("complete: 2 checks, 1 failed, 1 skipped."))
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(FileManager.default.fileExists(atPath: folder.path("checkrun.sqlite")), "the default database is ./checkrun.sqlite")
        // A byte-order mark a Windows editor put before the first answer is not part of it.
        let marked = try checkrun(["run", "--release", "2.4", "--build", "312", "--check", "tiny-target/touch-one-hand"], in: folder, input: "\u{FEFF}" + answers)
        #expect(marked.stdout.contains("> t 1:20\nTime: 1 minute 20 seconds."), "\(marked.stdout)")
    }

    /// The walk's output closing (`checkrun run … | head -1`) stops it with the resume hint on
    /// standard error; it died of SIGPIPE without a word.
    @Test func theOutputClosingStopsTheWalkAndSaysHowToResume() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let walk = "printf 't 5\\np\\npass\\n\\n' | '\(Checkrun.executable)' run --protocols '\(protocols)' --release 2.4 --build 1 --check tiny-target/touch-one-hand"
            + " | head -1; echo \"walk exited ${PIPESTATUS[1]}\" >&2"
        let piped = try Subprocess.run("/bin/bash", ["-c", walk], in: folder.path)
        #expect(piped.stderr.contains("Everything answered is saved. Resume with: "), "\(piped.stderr)")
        #expect(piped.stderr.contains("walk exited 130"), "\(piped.stderr)")
        #expect(try checkrun(["verify"], in: folder).status == 0)
    }

    @Test func endOfInputWithQuestionsLeftExits1AndResumeContinues() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try checkrun(["run", "--release", "1", "--build", "1", "--protocol", "tiny-target"], in: folder, input: "t 5\np\n")
        #expect(first.status == 1)
        #expect(first.stdout.contains("End of input with 3 checks left. Everything answered is saved. Resume with: \(Checkrun.hintName) resume "))
        let sessions = try checkrun(["sessions", "--json"], in: folder)
        let list = try #require(try JSONParser.parse(sessions.stdout).arrayValue)
        #expect(list.count == 1)
        #expect(list.first?["finishedAt"]?.value == .null)
        let id = try #require(list.first?["id"]?.stringValue)
        let resumed = try checkrun(["resume", String(id.prefix(8))], in: folder, input: "p\n\ns\ns\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("0 of 3 checks done."))
        #expect(resumed.stdout.contains("Expected 2 of 2: the audit reports no hit region issues. Pass, fail or not applicable?"))
        #expect(resumed.stdout.contains("complete: 3 checks, 1 passed, 2 skipped."))
        let text = try checkrun(["sessions"], in: folder)
        #expect(text.stdout.contains("3 of 3 checks done (1 passed, 2 skipped), complete"), "\(text.stdout)")
    }

    @Test func aCheckWalkedAgainIsANewAttempt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for _ in 0..<2 {
            let run = try checkrun(["run", "--release", "1", "--build", "1", "--check", "tiny-target/voice-control-show-numbers"], in: folder, input: "t 2\np\n\n")
            #expect(run.status == 0)
        }
        let store = try ResultStore(path: folder.path("checkrun.sqlite"))
        let attempts = try store.database.query("SELECT attempt FROM results ORDER BY attempt") { $0.int(0) }
        #expect(attempts == [1, 2])
    }

    @Test func badInputToRunGetsClearMessages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let noRelease = try checkrun(["run", "--build", "1"], in: folder, input: "")
        #expect(noRelease.status == 2)
        #expect(noRelease.stderr.contains("missing --release: name the release under test, e.g. --release 2.4"))
        let unknown = try checkrun(["run", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hnd"], in: folder, input: "")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("Did you mean \"tiny-target/touch-one-hand\"?"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("checkrun.sqlite")), "nothing is created for a refused run")

        let broken = try TemporaryFolder()
        defer { broken.remove() }
        try broken.write("bad.json", "{\"id\": \"bad\"}")
        let refused = try Checkrun.run(["run", "--release", "1", "--build", "1", "--protocols", broken.path], in: folder.path, input: "")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("bad.json:1:1: /: missing \"title\""))

        let noFolder = try checkrun(["run", "--release", "1", "--build", "1", "--db", "/no/such/dir/x.sqlite"], in: folder, input: "")
        #expect(noFolder.status == 1)
        #expect(noFolder.stderr.contains("the folder /no/such/dir does not exist"))

        let notADatabase = try folder.write("notes.txt", "hello\n")
        let foreign = try checkrun(["run", "--release", "1", "--build", "1", "--db", notADatabase], in: folder, input: "")
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("is not a checkrun database"))
        #expect(try String(contentsOfFile: notADatabase, encoding: .utf8) == "hello\n")
    }

    @Test func wrongAnswersAreExplainedAndNothingIsLost() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let answers = ["t abc", "t 10", "ten", "-3", "99999999", "10", "maybe", "p", "", ""].joined(separator: "\n") + "\n"
        let result = try checkrun(["run", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand"], in: folder, input: answers)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("\"abc\" is not a time."))
        #expect(result.stdout.contains("Type a whole number, e.g. 10, or n for not applicable."))
        #expect(result.stdout.contains("A count can't be negative"))
        #expect(result.stdout.contains("That is more than the 10 tries"))
        #expect(result.stdout.contains("Answer p for pass, f for fail or n for not applicable"))
        #expect(result.stdout.contains("Result: pass, 2 of 2 expected outcomes passed"))
    }

    @Test func hostileAndHugeNotesAreStoredAsTypedAndShownNeutralised() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let hostile = "pwned \u{1B}]0;title\u{07}\u{1B}[31m red"
        let huge = String(repeating: "long note ", count: 10_240)
        let input = "t 1\nf\n\(hostile)\nt 1\np\n\(huge)\nq\n"
        let result = try checkrun(["run", "--release", "1", "--build", "1", "--check", "tiny-target/voice-control-show-numbers", "--check", "over-grouped-control/switch-control"], in: folder, input: input)
        #expect(!result.stdout.contains("\u{1B}"), "escape sequences typed in notes are never replayed")
        #expect(result.stdout.contains("Notes saved: pwned \\u{1B}]0;title\\u{7}\\u{1B}[31m red"))
        let store = try ResultStore(path: folder.path("checkrun.sqlite"))
        let notes = try store.database.query("SELECT notes FROM results ORDER BY started_at") { $0.string(0) }
        #expect(notes.first == hostile)
    }

    /// A NUL is not text: the line is refused and the question asked again, on either engine
    /// (PostgreSQL cannot keep one), and the walk goes on.
    @Test func aLineHoldingANulIsAskedAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = "t 5\nf a\u{0}b\nf ok\nnote\n"
        let result = try checkrun(["run", "--release", "1", "--build", "1", "--check", "tiny-target/voice-control-show-numbers"], in: folder, input: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("That line holds a NUL character (a zero byte), which is not text; nothing was saved from it."), "\(result.stdout)")
        let store = try ResultStore(path: folder.path("checkrun.sqlite"))
        let notes = try store.database.query("SELECT note FROM outcome_answers") { $0.string(0) }
        #expect(notes == ["ok"])
    }

    @Test func recordSavesOneResultWithoutTheWalk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorded = try checkrun([
            "record", "--release", "2.4", "--build", "311", "--check", "motor-accessibility/switch-control-stops-to-pay",
            "--verdict", "pass", "--count", "stops=14", "--seconds", "1:05", "--expected", "1=pass", "--expected", "2=na",
            "--notes", "from the ticket", "--tester", "Ana", "--device", "iPad",
        ], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.hasPrefix("Recorded motor-accessibility/switch-control-stops-to-pay: pass, attempt 1, in session "))
        let again = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "motor-accessibility/switch-control-stops-to-pay", "--verdict", "fail", "--notes", "the timeout ran out", "--device", "iPad"], in: folder)
        #expect(again.stdout.contains("attempt 2"))

        let store = try ResultStore(path: folder.path("checkrun.sqlite"))
        let summaries = try store.sessionSummaries(release: "2.4")
        #expect(summaries.count == 2)
        let first = try store.results(inSession: summaries[0].session.id)
        #expect(first.first?.counters["stops"]?.value == 14)
        #expect(first.first?.activeSeconds == 65)
        #expect(first.first?.outcomes.map { $0?.verdict } == [.pass, .notApplicable])
        #expect(summaries[0].session.tester == "Ana" && summaries[0].session.finishedAt != nil)

        let badVerdict = try checkrun(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "passed"], in: folder)
        #expect(badVerdict.status == 2)
        #expect(badVerdict.stderr.contains("'passed' is not a verdict; use pass, fail, blocked or skipped. Did you mean 'pass'?"))
        let badCounter = try checkrun(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--count", "hit=3"], in: folder)
        #expect(badCounter.status == 2, "a counter the check does not have is a usage error")
        #expect(badCounter.stderr.contains("has no counter \"hit\"; its counters: hits. Did you mean \"hits\"?"))
        let blocked = try checkrun(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "blocked"], in: folder)
        #expect(blocked.status == 2)
        #expect(blocked.stderr.contains("a blocked result needs the reason it could not be done"), "\(blocked.stderr)")
        let badTime = try checkrun(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--seconds", "abc"], in: folder)
        #expect(badTime.status == 2)
    }
}

/// Hints work as printed, however checkrun was started, and `run` offers an unfinished session.
@Suite struct HintTests {
    let protocols = Repository.path("protocols")

    @Test func aHintNamesCheckrunAsItWasStarted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // From the package folder (as after `swift run`): the hint is `swift run checkrun …`.
        let database = folder.path("my results.sqlite")
        let built = try Checkrun.run(["run", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--db", database, "--protocols", protocols],
                                     in: Repository.root.path, input: "q\n")
        #expect(built.stdout.contains("Resume with: swift run checkrun resume "), "\(built.stdout)")
        #expect(built.stdout.contains("--db '\(database)' --protocols \(protocols)"), "the database and protocol folder it was given go with it")
        // The built binary anywhere else: the hint names it by its path.
        let elsewhere = try Checkrun.run(["run", "--release", "1", "--build", "3", "--check", "tiny-target/touch-one-hand", "--protocols", protocols],
                                         in: folder.path, input: "q\n")
        #expect(elsewhere.stdout.contains("Resume with: \(Checkrun.hintName) resume "), "\(elsewhere.stdout)")
        // Installed on the PATH: the hint is `checkrun …`.
        try FileManager.default.createDirectory(atPath: folder.path("bin"), withIntermediateDirectories: true)
        // Copied by cp, so no descriptor open for writing is ever ours: a process another test
        // started meanwhile would inherit it, and running the copy would fail ("Text file busy").
        #expect(try Subprocess.run("/bin/cp", [Checkrun.executable, folder.path("bin/checkrun")]).status == 0)
        let installed = try Subprocess.run(folder.path("bin/checkrun"), ["run", "--release", "1", "--build", "2", "--check", "tiny-target/touch-one-hand", "--protocols", protocols],
                                           in: folder.path, input: "q\n", environment: ["PATH": folder.path("bin") + ":/usr/bin:/bin"])
        #expect(installed.stdout.contains("Resume with: checkrun resume "), "\(installed.stdout)")
    }

    @Test func runSaysWhenTheSameBuildAndDeviceHasAnUnfinishedSession() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let arguments = ["run", "--release", "1", "--build", "1", "--device", "iPhone", "--check", "tiny-target/touch-one-hand", "--protocols", protocols]
        #expect(try Checkrun.run(arguments, in: folder.path, input: "q\n").status == 0)
        let again = try Checkrun.run(arguments, in: folder.path, input: "q\n")
        #expect(again.stdout.contains("for release 1, build 1, device iPhone is unfinished: 0 of 1 checks done."), "\(again.stdout)")
        #expect(again.stdout.contains("to go on with that one instead: \(Checkrun.hintName) resume "))
        #expect(again.stdout.contains(" --protocols \(protocols)"), "the hint names the protocol folder it was given")
    }
}

extension HintTests {
    /// The hints `resume` gives, of a complete session or of one that is not there, name the
    /// database and protocol folder it was given: without them they would read, or file new
    /// answers in, another database.
    @Test func resumeHintsNameTheDatabaseTheyWereGiven() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let given = ["--db", "team results.sqlite", "--protocols", protocols]
        #expect(try Checkrun.run(["record", "--release", "7", "--build", "1", "--device", "iPad", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"] + given,
                                 in: folder.path).status == 0)
        let store = try ResultStore(path: folder.path("team results.sqlite"), access: .existingOnly)
        let session = try #require(try store.sessionSummaries().first?.session)
        store.close()
        let complete = try Checkrun.run(["resume", session.shortID] + given, in: folder.path)
        #expect(complete.stdout.contains("start a new session: \(Checkrun.hintName) run --release 7 --build 1 --device iPad --check ID --db 'team results.sqlite' --protocols \(protocols)"),
                "\(complete.stdout)")
        let missing = try Checkrun.run(["resume", "abcd0000"] + given, in: folder.path)
        #expect(missing.stderr.contains("`\(Checkrun.hintName) sessions --db 'team results.sqlite' --protocols \(protocols)` lists them"), "\(missing.stderr)")
        // A mistyped id is refused whole, never cut down to the hex letters it holds
        // ("nosuch" was "c", and resumed whichever session began with c).
        for typo in ["nosuch", "zz\(session.shortID.prefix(4))zz", session.shortID.prefix(2) + ""] {
            let refused = try Checkrun.run(["resume", typo] + given, in: folder.path)
            #expect(refused.status == 1 && refused.stderr.contains("is not a session id: type at least 4 of its digits"), "\(typo): \(refused.stderr)")
            #expect(!refused.stdout.contains("Check 1 of"), "no walk began")
        }
    }

    /// A database path holding an escape sequence and a line end: the hint spells them as bash
    /// reads them back (`$'…\x1B…'`), never raw and never as the `\u{1B}` marks shown for
    /// text, which named a file that is not there.
    @Test func aHintNamesAPathHoldingControlCharactersAsAShellReadsIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let database = "esc\u{1B}]0;T\u{7}line\nend's\u{85}\u{202E}.sqlite"
        let quit = try Checkrun.run(["run", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--db", database, "--protocols", protocols],
                                    in: folder.path, input: "q\n")
        let hint = try #require(quit.stdout.split(separator: "\n").first { $0.contains("Resume with: ") }.map { String($0.split(separator: "Resume with: ")[1]) })
        #expect(hint.contains("--db $'esc\\x1B]0;T\\x07line\\x0Aend\\'s\\xC2\\x85\\xE2\\x80\\xAE.sqlite'") && !hint.unicodeScalars.contains { $0.value < 0x20 },
                "\(hint)")
        // In any locale: bash writes `\x` bytes as they are.
        let resumed = try Subprocess.run("/bin/bash", ["-c", hint], in: folder.path, input: "q\n", environment: ["LC_ALL": "C"])
        #expect(resumed.status == 0 && resumed.stdout.contains("Check 1 of 1"), "\(hint)\n\(resumed.stdout)\(resumed.stderr)")
    }

    /// The example `checkrun run --help` gives, run as printed.
    @Test func theRunHelpExampleWorksAsPrinted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let help = try Checkrun.run(["run", "--help"], in: folder.path)
        let line = try #require(help.stdout.split(separator: "\n").first { $0.contains("printf") }).trimmingCharacters(in: .whitespaces)
        let command = line.replacingOccurrences(of: "| checkrun ", with: "| \"$0\" ") + " --protocols \"$1\""
        let result = try Subprocess.run("/bin/sh", ["-c", command, Checkrun.executable, protocols], in: folder.path)
        #expect(result.status == 0, "\(command)\n\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Result: fail"), "\(result.stdout)")
    }
}
