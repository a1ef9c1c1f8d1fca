import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// One judge for the walk, `record`, `amend` and `merge`: a contradiction is refused with its
/// reason (exit 2) and nothing is stored.
@Suite struct JudgementTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    func record(_ extra: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"] + extra, in: folder)
    }

    func results(_ folder: TemporaryFolder) throws -> Int {
        guard FileManager.default.fileExists(atPath: folder.path("checkrun.sqlite")) else { return 0 }
        return try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly).database.scalarInt("SELECT count(*) FROM results") ?? 0
    }

    @Test(arguments: [
        (["--verdict", "pass", "--expected", "1=fail"], "the verdict is pass, but expected outcome 1 failed"),
        (["--count", "hits=12"], "hits 12 is more than the 10 possible"),
        (["--verdict", "fail"], "no expected outcome failed, no count is over its ceiling and there are no notes"),
        (["--verdict", "pass", "--count", "hits=9"], "the verdict is pass, but expected outcome 1 failed"),
        (["--verdict", "pass", "--expected", "1=pass", "--count", "hits=9"], "expected outcome 1 is pass, but hits 9 against at least 10 of 10 is a fail"),
        (["--verdict", "pass", "--reason", "no device"], "not blocked, but it still carries a blocked reason"),
        (["--count", "hits=3", "--expected", "1=na", "--expected", "2=pass"], "expected outcome 1 is not applicable, but hits 3 was counted against"),
    ])
    func recordRefusesAContradiction(arguments: [String], reason: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorded = try record(arguments, in: folder)
        #expect(recorded.status == 2, "\(arguments): \(recorded.stderr)")
        #expect(recorded.stderr.contains(reason), "\(recorded.stderr)")
        #expect(recorded.stderr.contains("Nothing was recorded"))
        #expect(try results(folder) == 0)
    }

    @Test func recordWithoutAVerdictDerivesIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var recorded = try record(["--count", "hits=10", "--expected", "2=pass"], in: folder)
        #expect(recorded.status == 0 && recorded.stdout.contains(": pass, attempt 1"), "\(recorded.stdout)\(recorded.stderr)")
        recorded = try record(["--count", "hits=9", "--expected", "2=pass", "--notes", "missed once"], in: folder)
        #expect(recorded.status == 0 && recorded.stdout.contains(": fail, attempt 2"), "\(recorded.stdout)\(recorded.stderr)")
        recorded = try record(["--expected", "2=pass"], in: folder)
        #expect(recorded.status == 2 && recorded.stderr.contains("missing: --expected 1"), "\(recorded.stderr)")
    }

    @Test func amendJudgesTheCorrectedResult() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try record(["--verdict", "blocked", "--reason", "no test device"], in: folder).status == 0)
        let amend = ["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--reason", "device arrived"]
        var amended = try checkrun(amend + ["--verdict", "pass", "--expected", "1=pass", "--expected", "2=pass"], in: folder)
        #expect(amended.status == 0, "\(amended.stderr)")
        let store = { try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly) }
        var result = try #require(try store().latestResults(check: "tiny-target/touch-one-hand", release: "2.4", build: "311", device: nil, osVersion: nil).first)
        #expect(result.blockedReason == nil, "the blocked reason goes with the blocked verdict")
        // A changed outcome is judged again: the verdict follows it, and a failure needs notes.
        amended = try checkrun(amend + ["--expected", "2=fail"], in: folder)
        #expect(amended.status == 2 && amended.stderr.contains("notes are required"), "\(amended.stderr)")
        amended = try checkrun(amend + ["--expected", "2=fail", "--notes", "Delete fired"], in: folder)
        #expect(amended.status == 0 && amended.stdout.contains("now fail"), "\(amended.stdout)\(amended.stderr)")
        amended = try checkrun(amend + ["--count", "hits=12"], in: folder)
        #expect(amended.status == 2 && amended.stderr.contains("more than the 10 possible"))
        result = try #require(try store().latestResults(check: "tiny-target/touch-one-hand", release: "2.4", build: "311", device: nil, osVersion: nil).first)
        #expect(result.verdict == .fail && result.counters["hits"] == nil)
        #expect(try store().verify().isClean)
    }

    /// A pass recorded without its outcomes, then a count that fails one of them: the outcome is
    /// judged by the count. Built on the tables, which keep no row for an outcome never
    /// answered, the amendment once skipped it and stayed a pass with 7 of 10 hits.
    @Test func aCountAmendedIntoAPassWithoutOutcomesIsJudged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try record(["--verdict", "pass"], in: folder).status == 0)
        let amend = ["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--reason", "recounted", "--count", "hits=7"]
        var amended = try checkrun(amend, in: folder)
        #expect(amended.status == 2 && amended.stderr.contains("notes are required"), "\(amended.stdout)\(amended.stderr)")
        amended = try checkrun(amend + ["--notes", "three missed"], in: folder)
        #expect(amended.status == 0 && amended.stdout.contains("now fail"), "\(amended.stdout)\(amended.stderr)")
    }

    /// A recount given with the outcome it decides (`--count hits=9 --expected 1=fail`) puts the
    /// new number on the outcome too. Before, the outcome kept the old one beside the new count:
    /// `verify` called checkrun's own record forged, and every report and merge was refused.
    @Test func aRecountGivenWithItsOutcomeMovesTheOutcomesNumber() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try record(["--count", "hits=8", "--expected", "2=pass", "--notes", "missed twice"], in: folder).status == 0)
        let amend = ["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--reason", "recounted from the recording"]
        let amended = try checkrun(amend + ["--count", "hits=9", "--expected", "1=fail"], in: folder)
        #expect(amended.status == 0, "\(amended.stderr)")
        let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
        let result = try #require(try store.latestResults(check: "tiny-target/touch-one-hand", release: "2.4", build: "311", device: nil, osVersion: nil).first)
        #expect(result.outcomes.first??.value == 9 && result.counters["hits"]?.value == 9)
        #expect(try store.verify().isClean)
        #expect(try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder).status == 3)
        // The count still judges the verdict given beside it.
        let contradicted = try checkrun(amend + ["--count", "hits=10", "--expected", "1=fail"], in: folder)
        #expect(contradicted.status == 2 && contradicted.stderr.contains("hits 10 against at least 10 of 10 is a pass"), "\(contradicted.stderr)")
    }

    /// A pass's notes ("all good") are not filed as the reason of a failure an amendment gives:
    /// as the walk asks for them again, `amend` asks for --notes.
    @Test func anAmendmentThatFailsAPassAsksForNotesWrittenForTheFailure() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try record(["--count", "hits=10", "--expected", "2=pass", "--notes", "all good"], in: folder).status == 0)
        let amend = ["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--reason", "seen on the recording", "--expected", "2=fail"]
        let refused = try checkrun(amend, in: folder)
        #expect(refused.status == 2 && refused.stderr.contains("its notes were written before it (\"all good\"): give --notes saying why it fails"), "\(refused.stderr)")
        let amended = try checkrun(amend + ["--notes", "Delete fired once"], in: folder)
        #expect(amended.status == 0 && amended.stdout.contains("now fail"), "\(amended.stderr)")
    }

    /// An outcome a count decided can be corrected to not applicable only with its count taken
    /// back (`--count NAME=none`): the count is refused beside it, so a failing count is never
    /// set aside while it stays in the result. A count taken back leaves no number on its outcome.
    @Test func amendTakesACountBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try record(["--count", "hits=3", "--expected", "2=pass", "--notes", "missed seven times"], in: folder).status == 0)
        let amend = ["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--reason", "no button in this build"]
        var amended = try checkrun(amend + ["--expected", "1=na"], in: folder)
        #expect(amended.status == 2 && amended.stderr.contains("add --count hits=none"), "\(amended.stderr)")
        amended = try checkrun(amend + ["--count", "hits=none", "--count", "hits=4"], in: folder)
        #expect(amended.status == 2 && amended.stderr.contains("given twice"), "\(amended.stderr)")
        amended = try checkrun(amend + ["--expected", "1=na", "--count", "hits=none"], in: folder)
        #expect(amended.status == 0 && amended.stdout.contains("hits: count taken back"), "\(amended.stdout)\(amended.stderr)")
        // The failure was the tester's, with notes: taking the count back does not make it a pass.
        #expect(amended.stdout.contains("now fail"), "\(amended.stdout)")
        let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
        let result = try #require(try store.latestResults(check: "tiny-target/touch-one-hand", release: "2.4", build: "311", device: nil, osVersion: nil).first)
        #expect(result.counters["hits"] == nil)
        #expect(result.outcomes.first??.verdict == .notApplicable && result.outcomes.first??.value == nil)
        #expect(try store.verify().isClean)
        let again = try checkrun(amend + ["--count", "hits=none"], in: folder)
        #expect(again.status == 2 && again.stderr.contains("no count of hits to take back"), "\(again.stderr)")
        // `record` has no count to take back: leaving the counter out says it.
        let recorded = try record(["--count", "hits=none"], in: folder)
        #expect(recorded.status == 2 && recorded.stderr.contains("leave --count hits out"), "\(recorded.stderr)")
    }

    /// A failure the tester judged without a failing outcome (the notes say why) is theirs:
    /// an amendment of the time, the notes or a passing outcome keeps it; only --verdict changes it.
    @Test func amendKeepsAFailureTheOutcomesDidNotGive() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let failed = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "over-grouped-control/voiceover", "--verdict", "fail",
                                   "--notes", "VoiceOver reads the row as one element"], in: folder)
        #expect(failed.status == 0, "\(failed.stderr)")
        let amend = ["amend", "--release", "2.4", "--build", "311", "--check", "over-grouped-control/voiceover", "--reason", "more detail"]
        for correction in [["--seconds", "40"], ["--notes", "VoiceOver reads the row as one element, twice"], ["--expected", "1=pass"],
                           ["--expected", "1=fail"], ["--expected", "1=pass"]] {
            let amended = try checkrun(amend + correction, in: folder)
            #expect(amended.status == 0 && amended.stdout.contains("now fail"), "\(correction): \(amended.stdout)\(amended.stderr)")
        }
        let told = try checkrun(amend + ["--expected", "2=pass"], in: folder)
        #expect(told.stdout.contains("the verdict stays fail until it is given: --verdict pass"), "\(told.stdout)")
        let report = try checkrun(["report", "--release", "2.4", "--fail-on-failure"], in: folder)
        #expect(report.status == 3 && report.stdout.contains("1 failed"), "\(report.stdout)")
        let changed = try checkrun(amend + ["--verdict", "pass", "--notes", "", "--expected", "1=pass", "--expected", "2=pass"], in: folder)
        #expect(changed.status == 0 && changed.stdout.contains("now pass"), "\(changed.stdout)\(changed.stderr)")
    }

    /// Two answers for one outcome or counter in one call: which is meant is unknown.
    @Test(arguments: [["--expected", "1=fail", "--expected", "1=pass"], ["--count", "hits=10", "--count", "hits=9"]])
    func anOutcomeOrCounterGivenTwiceIsRefused(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorded = try record(arguments + ["--expected", "2=pass"], in: folder)
        #expect(recorded.status == 2 && recorded.stderr.contains("is given twice"), "\(recorded.stderr)")
        #expect(try results(folder) == 0)
    }

    /// "hits=+2", typed to add two to a count, was saved as a count of 2 (and "amend" said so as
    /// a correction): a sign makes no count, in `record` and `amend` as in the walk.
    @Test func aCountWithASignIsRefusedNotTakenForTheNumber() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let signed = try record(["--count", "hits=+9", "--expected", "2=pass"], in: folder)
        #expect(signed.status == 2 && signed.stderr.contains("--count hits=+9: a count is the number counted, not a change to it: type the whole count, without the plus (+), e.g. hits=14"), "\(signed.stderr)")
        #expect(try results(folder) == 0)
        #expect(try record(["--count", "hits=10", "--expected", "2=pass"], in: folder).status == 0)
        let amend = ["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--reason", "two more hits"]
        let added = try checkrun(amend + ["--count", "hits=+2"], in: folder)
        #expect(added.status == 2 && added.stderr.contains("not a change to it"), "\(added.stderr)")
        let negative = try checkrun(amend + ["--count", "hits=-1"], in: folder)
        #expect(negative.status == 2 && negative.stderr.contains("a count can't be negative"), "\(negative.stderr)")
        // Every number that is no count is refused with its reason, never as a mistyped option.
        for (typed, reason) in [("\u{2212}1", "a count can't be negative"), ("\u{FF11}\u{FF12}", "type the count in the digits 0 to 9"),
                                ("9.5", "a count is a whole number, typed without a point or comma"), ("1,000", "a count is a whole number, typed without a point or comma"), ("1e2", "type the count in plain digits 0 to 9, e.g. hits=14"),
                                ("0x10", "type the count in plain digits"), ("99999999999999999999", "a count is a whole number from 0 to 100000")] {
            let refused = try checkrun(amend + ["--count", "hits=\(typed)"], in: folder)
            #expect(refused.status == 2 && refused.stderr.contains("--count hits=\(typed): \(reason)"), "\(refused.stderr)")
        }
        let shown = try checkrun(["report", "--release", "2.4", "--format", "csv"], in: folder)
        #expect(shown.stdout.contains("hits=10"), "\(shown.stdout)")
    }

    @Test func mergeRefusesAResultThatContradictsItself() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = try ResultStore(path: folder.path("old.sqlite"))
        let session = Session(release: "2.4", build: "311", plan: ["tiny-target/touch-one-hand"])
        try source.insert(session)
        var result = CheckResult(sessionID: session.id, check: "tiny-target/touch-one-hand", protocolHash: "h", attempt: 1, outcomeCount: 2)
        result.outcomes = [OutcomeAnswer(.fail, answeredAt: Date()), OutcomeAnswer(.pass, answeredAt: Date())]
        result.verdict = .pass
        try source.save(result)
        source.sqlite!.close()
        let merged = try checkrun(["merge", "old.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(merged.status == 1)
        #expect(merged.stderr.contains("that checkrun never saves: the verdict is pass, but expected outcome 1 failed"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("team.sqlite")))
    }
}

/// `amend` corrects the result the options name: by device, and by OS version when the same
/// device was tested on two.
@Suite struct AmendSelectionTests {
    /// Results on a named device and on none: the refusal names both, and how to choose the
    /// unnamed one.
    @Test func severalDevicesAreNamedTheUnnamedOneToo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = ["--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--protocols", Repository.path("protocols")]
        for device in [[], ["--device", "iPhone 15"]] {
            let recorded = try Checkrun.run(["record"] + base + device + ["--expected", "1=pass", "--expected", "2=pass", "--count", "hits=10"], in: folder.path)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let amend = ["amend"] + base + ["--notes", "seen twice", "--reason", "more detail"]
        let refused = try Checkrun.run(amend, in: folder.path)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("has results on several devices: no device named (--device \"\"), \"iPhone 15\"; choose one with --device"), "\(refused.stderr)")
        let chosen = try Checkrun.run(amend + ["--device", ""], in: folder.path)
        #expect(chosen.status == 0, "\(chosen.stderr)")
    }

    @Test func theOSVersionChoosesBetweenResultsOfOneDevice() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = ["--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--device", "iPhone 15",
                    "--protocols", Repository.path("protocols")]
        for os in ["18.1", "18.2"] {
            let recorded = try Checkrun.run(["record"] + base + ["--os", os, "--expected", "1=pass", "--expected", "2=fail", "--count", "hits=10", "--notes", "Delete fired"], in: folder.path)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let amended = try Checkrun.run(["amend"] + base + ["--os", "18.1", "--verdict", "pass", "--expected", "2=pass", "--reason", "retested on 18.1"], in: folder.path)
        #expect(amended.status == 0, "\(amended.stderr)")
        let store = try ResultStore(path: folder.path("checkrun.sqlite"))
        let on181 = try #require(try store.latestResults(check: "tiny-target/touch-one-hand", release: "2.4", build: "311", device: nil, osVersion: "18.1").first)
        let on182 = try #require(try store.latestResults(check: "tiny-target/touch-one-hand", release: "2.4", build: "311", device: nil, osVersion: "18.2").first)
        #expect(on181.verdict == .pass && on182.verdict == .fail, "only the 18.1 result was corrected")
        let none = try Checkrun.run(["amend"] + base + ["--os", "17.0", "--verdict", "pass", "--reason", "x"], in: folder.path)
        #expect(none.status == 1 && none.stderr.contains("on iPhone 15 with OS 17.0"), "\(none.stderr)")
    }
}
