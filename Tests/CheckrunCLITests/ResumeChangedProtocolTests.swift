import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Answers to expected outcomes are kept by position: a walk resumed after its protocol file
/// changed goes on with the text the answers were given against, never beside other words.
@Suite struct ResumeChangedProtocolTests {
    static let check = "tiny-target/accessibility-inspector"
    static let first = "each frame is at least 44 × 44 pt"
    static let second = "the audit reports no hit region issues"

    /// A folder holding a copy of the repository's protocols, for a test to change.
    static func folderWithProtocols() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: Repository.path("protocols"), toPath: folder.path("protocols"))
        return folder
    }

    /// A copy of the protocols whose check has its two expected outcomes reversed.
    static func reverseOutcomes(in folder: TemporaryFolder) throws {
        let path = folder.path("protocols/tiny-target.json")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let original = "\"\(first)\",\n        \"\(second)\""
        #expect(text.contains(original), "the protocol lists its outcomes in this layout")
        try text.replacingOccurrences(of: original, with: "\"\(second)\",\n        \"\(first)\"").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func aResumedWalkKeepsTheTextTheAnswersWereGivenAgainst() throws {
        let folder = try Self.folderWithProtocols()
        defer { folder.remove() }
        let started = try Checkrun.run(["run", "--release", "1", "--build", "1", "--device", "d", "--check", Self.check], in: folder.path,
                                       input: "t 5\np\nf audit flags 3 issues\n")
        #expect(started.stdout.contains("Expected 1 of 2: \(Self.first)"), "\(started.stdout)")
        try Self.reverseOutcomes(in: folder)

        let resumed = try Checkrun.run(["resume"], in: folder.path, input: "looked\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("the protocol of \(Self.check) changed since it was answered; the walk goes on with the text the answers were given against"),
                "\(resumed.stderr)")
        #expect(resumed.stdout.contains("Expected 1 of 2: \(Self.first)"), "the kept text, in its order: \(resumed.stdout)")
        #expect(resumed.stdout.contains("Answered before: expected 1, pass."))
        #expect(resumed.stdout.contains("Answered before: expected 2, fail, note: audit flags 3 issues."))
        let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
        defer { store.close() }
        let result = try #require(try store.latestResults(check: Self.check, release: "1", build: "1", device: nil, osVersion: nil).first)
        #expect(result.verdict == .fail && result.notes == "looked")
        #expect(result.outcomes.map { $0?.verdict } == [.pass, .fail], "each answer stays with the outcome it was given to")
    }

    /// A check not begun when the file changed is asked from the new text, and its result names
    /// that version, not the one its protocol's other check was answered against: its answers
    /// were stored under the old text (an answer to one outcome read beside another), and
    /// `verify` called the record forged.
    @Test func aCheckNotBegunBeforeTheChangeNamesTheVersionItWasAskedFrom() throws {
        let folder = try Self.folderWithProtocols()
        defer { folder.remove() }
        let started = try Checkrun.run(["run", "--release", "1", "--build", "1", "--device", "d", "--check", "tiny-target/voice-control-show-numbers",
                                        "--check", Self.check], in: folder.path, input: "t 5\np\n\n")
        #expect(started.stdout.contains("Check 2 of 2"), "\(started.stdout)")
        try Self.reverseOutcomes(in: folder)
        let resumed = try Checkrun.run(["resume"], in: folder.path, input: "t 5\np\nf audit frames are 40 pt\n\n")
        #expect(resumed.status == 0 && resumed.stdout.contains("Expected 1 of 2: \(Self.second)"), "\(resumed.stdout)")
        let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
        let result = try #require(try store.latestResults(check: Self.check, release: "1", build: "1", device: nil, osVersion: nil).first)
        let asked = try store.keptCheck(named: Self.check, version: result.protocolHash)?.check
        store.close()
        #expect(asked?.expected.map(\.text) == [Self.second, Self.first], "the result names the version it was answered against")
        #expect(result.outcomes.map { $0?.verdict } == [.pass, .fail])
        let verified = try Checkrun.run(["verify"], in: folder.path)
        #expect(verified.status == 0, "\(verified.stdout)")
        let report = try Checkrun.run(["report", "--release", "1", "--format", "json"], in: folder.path)
        #expect(report.status == 0, "\(report.stderr)")
    }

    /// A check the folder no longer has, and no answer kept, is left out: the hint names the
    /// folder for the user to give, not the folder that lacks the check.
    @Test func aCheckLeftOutIsResumedWithTheFolderItWasWalkedWith() throws {
        let folder = try Self.folderWithProtocols()
        defer { folder.remove() }
        let started = try Checkrun.run(["run", "--release", "1", "--build", "1", "--device", "d", "--check", Self.check,
                                        "--check", "tiny-target/voice-control-show-numbers"], in: folder.path, input: "t 5\np\np\n\n")
        #expect(started.stdout.contains("Check 2 of 2"), "\(started.stdout)")
        let path = folder.path("protocols/tiny-target.json")
        try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"id\": \"voice-control-show-numbers\"", with: "\"id\": \"voice-control-numbers\"")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let resumed = try Checkrun.run(["resume", "--protocols", "protocols"], in: folder.path, input: "")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("but 1 of its checks was left out") && resumed.stdout.hasSuffix(" --protocols DIR\n")
                    && resumed.stdout.contains("Resume it naming, for DIR, the protocol folder it was walked with: "), "\(resumed.stdout)")
    }

    /// A report shows each answer beside the text it was given to, and says the check changed.
    @Test func aReportReadsAnswersAgainstTheTextTheyWereGivenTo() throws {
        let folder = try Self.folderWithProtocols()
        defer { folder.remove() }
        let walked = try Checkrun.run(["run", "--release", "1", "--build", "1", "--device", "d", "--check", Self.check], in: folder.path,
                                      input: "t 5\np\nf audit flags 3 issues\nseen in the audit\n")
        #expect(walked.status == 0, "\(walked.stderr)")
        try Self.reverseOutcomes(in: folder)
        let markdown = try Checkrun.run(["report", "--release", "1"], in: folder.path)
        #expect(markdown.stdout.contains("- Expected 1, \(Self.first): pass"), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("- Expected 2, \(Self.second): fail: audit flags 3 issues"))
        #expect(markdown.stdout.contains("Answered against an earlier version of this check"))
        let json = try JSONParser.parse(try Checkrun.run(["report", "--release", "1", "--format", "json"], in: folder.path).stdout)
        let result = try #require(json["checks"]?.arrayValue?.first { $0["check"]?.stringValue == Self.check }?["results"]?.arrayValue?.first)
        #expect(result["answeredEarlierVersion"]?.value == .bool(true))
        #expect(result["outcomes"]?.arrayValue?.map { $0["text"]?.stringValue } == [Self.first, Self.second])
        let junit = try Checkrun.run(["report", "--release", "1", "--format", "junit"], in: folder.path)
        #expect(junit.stdout.contains("expected 2 failed: \(Self.second) (audit flags 3 issues)"), "\(junit.stdout)")
        // Without the kept version the current text is all there is, and the criteria the
        // failure counts against are unknown: refused, and with --unverified, said so.
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("DELETE FROM protocol_versions")
        raw.close()
        let refused = try Checkrun.run(["report", "--release", "1"], in: folder.path)
        #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused.stdout)")
        #expect(refused.stderr.contains("failed against another version of its protocol"), "\(refused.stderr)")
        let unkept = try Checkrun.run(["report", "--release", "1", "--unverified"], in: folder.path)
        #expect(unkept.stdout.contains("Answered against another version of this protocol, which the database does not keep"), "\(unkept.stdout)")
    }

    /// `amend --expected N` numbers outcomes as the result was answered, and says so.
    @Test func amendNumbersOutcomesAsTheResultWasAnswered() throws {
        let folder = try Self.folderWithProtocols()
        defer { folder.remove() }
        let recorded = try Checkrun.run(["record", "--release", "1", "--build", "1", "--check", Self.check, "--expected", "1=fail", "--expected", "2=pass",
                                         "--notes", "frame 30pt"], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        try Self.reverseOutcomes(in: folder)
        let amended = try Checkrun.run(["amend", "--release", "1", "--build", "1", "--check", Self.check, "--expected", "2=na", "--reason", "audit not run"],
                                       in: folder.path)
        #expect(amended.status == 0 && amended.stdout.contains("now fail"), "\(amended.stdout)\(amended.stderr)")
        #expect(amended.stdout.contains("expected outcomes are numbered as they were then (1. \(Self.first); 2. \(Self.second))"), "\(amended.stdout)")
        let report = try Checkrun.run(["report", "--release", "1"], in: folder.path)
        #expect(report.stdout.contains("- Expected 1, \(Self.first): fail"), "\(report.stdout)")
        #expect(report.stdout.contains("- Expected 2, \(Self.second): not applicable"), "\(report.stdout)")
        // With no version kept, outcomes cannot be corrected by number.
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("DELETE FROM protocol_versions")
        raw.close()
        let refused = try Checkrun.run(["amend", "--release", "1", "--build", "1", "--check", Self.check, "--expected", "1=pass", "--reason", "x"], in: folder.path)
        #expect(refused.status == 1 && refused.stderr.contains("may be numbered otherwise now"), "\(refused.stderr)")
    }

    /// `amend --attach N=FILE` numbers outcomes as `--expected` does: a third outcome added
    /// since the result was answered is not one it can be attached to.
    @Test func amendAttachesToOutcomesAsTheResultWasAnswered() throws {
        let folder = try Self.folderWithProtocols()
        defer { folder.remove() }
        #expect(try Checkrun.run(["record", "--release", "1", "--build", "1", "--check", Self.check, "--expected", "1=fail", "--expected", "2=pass",
                                  "--notes", "frame 30pt"], in: folder.path).status == 0)
        let path = folder.path("protocols/tiny-target.json")
        try (try String(contentsOfFile: path, encoding: .utf8)).replacingOccurrences(of: "\"\(Self.second)\"\n", with: "\"\(Self.second)\",\n\"labels are read\"\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        try Data("shot".utf8).write(to: URL(fileURLWithPath: folder.path("shot.txt")))
        let amend = ["amend", "--release", "1", "--build", "1", "--check", Self.check, "--reason", "evidence"]
        let refused = try Checkrun.run(amend + ["--attach", "3=shot.txt"], in: folder.path)
        #expect(refused.status == 1 && refused.stderr.contains("--attach 3=shot.txt: the check had 2 expected outcomes when this result was answered; 3 is out of range"),
                "\(refused.stdout)\(refused.stderr)")
        let attached = try Checkrun.run(amend + ["--attach", "2=shot.txt"], in: folder.path)
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(try Checkrun.run(["verify"], in: folder.path).status == 0)
    }

    /// A check renamed in the folder since it was answered goes on from the kept text: its
    /// answers are not stranded and the session is not called complete without it.
    @Test func aCheckRenamedSinceItWasAnsweredGoesOnFromTheKeptText() throws {
        let folder = try Self.folderWithProtocols()
        defer { folder.remove() }
        _ = try Checkrun.run(["run", "--release", "1", "--build", "1", "--device", "d", "--check", Self.check, "--check", "tiny-target/voice-control-show-numbers"],
                             in: folder.path, input: "t 10\nf frame 30pt\nq\n")
        let path = folder.path("protocols/tiny-target.json")
        try (try String(contentsOfFile: path, encoding: .utf8)).replacingOccurrences(of: "\"id\": \"accessibility-inspector\"", with: "\"id\": \"inspector\"")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let resumed = try Checkrun.run(["resume"], in: folder.path, input: "p\nlooked\n")
        #expect(resumed.stderr.contains("no longer in protocols, and go on with the text they were answered against"), "\(resumed.stderr)")
        #expect(resumed.stdout.contains("Answered before: expected 1, fail, note: frame 30pt."), "\(resumed.stdout)")
        #expect(!resumed.stdout.contains("complete"), "not complete with a check left: \(resumed.stdout)")
    }

    @Test func aCheckAnsweredAgainstAVersionNotKeptIsLeftOutNotMatchedByPosition() throws {
        let folder = try Self.folderWithProtocols()
        defer { folder.remove() }
        let started = try Checkrun.run(["run", "--release", "1", "--build", "1", "--device", "d", "--check", Self.check,
                                        "--check", "tiny-target/touch-one-hand"], in: folder.path, input: "t 5\np\n")
        #expect(started.stdout.contains("Everything answered is saved"), "\(started.stdout)")
        try Self.reverseOutcomes(in: folder)
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("DELETE FROM protocol_versions")
        raw.close()

        let resumed = try Checkrun.run(["resume"], in: folder.path, input: "")
        #expect(resumed.stderr.contains("\(Self.check) was answered against a version of its protocol that checkrun.sqlite does not keep, and is left out"),
                "\(resumed.stderr)")
        #expect(!resumed.stdout.contains("Answered before: expected 1, pass."), "\(resumed.stdout)")
        #expect(resumed.stdout.contains("tiny-target/touch-one-hand") || resumed.stdout.contains("Touch"), "the other check goes on: \(resumed.stdout)")
    }
}
