import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A record forged with a value checkrun never writes, its hash recomputed so the chain holds:
/// `merge` refuses it whole in its checking pass, naming the value, and `verify` names it;
/// neither reads it as some other answer (an unknown verdict as "no verdict", say).
@Suite struct ForgedValueTests {
    static let forgeries: [(from: String, to: String, named: String)] = [
        ("\"verdict\": \"fail\",", "\"verdict\": \"fial\",", "the result's verdict is \"fial\", which checkrun never writes"),
        ("\"attempt\": 1,", "\"attempt\": 0,", "the result's attempt is 0, which checkrun never writes"),
        ("\"verdict\": \"na\"", "\"verdict\": \"maybe\"", "an expected outcome's answer's verdict is \"maybe\", which checkrun never writes"),
        ("\"kind\": \"typed\"", "\"kind\": \"lap\"", "a stopwatch event's kind is \"lap\", which checkrun never writes"),
        ("\"notes\": \"Delete fired\"", "\"notes\": 7", "the result's notes is 7, which checkrun never writes"),
        ("\"tally\": 0,", "\"tally\": -1,", "the result's tally is -1, which checkrun never writes"),
        ("\"typedSeconds\": 12,", "\"typedSeconds\": -12,", "a stopwatch event's typedSeconds is -12, which checkrun never writes"),

    ]

    @Test(arguments: forgeries)
    func mergeRefusesAndVerifyNamesAValueCheckrunNeverWrites(forgery: (from: String, to: String, named: String)) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "fail",
                                         "--expected", "1=na", "--expected", "2=fail", "--seconds", "12", "--notes", "Delete fired", "--db", "ana.sqlite",
                                         "--protocols", Repository.path("protocols")], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        try Self.forge(folder.path("ana.sqlite"), replacing: forgery.from, with: forgery.to)

        let verified = try Checkrun.run(["verify", "--db", "ana.sqlite"], in: folder.path)
        #expect(verified.status == 1 && verified.stdout.contains(forgery.named), "\(verified.stdout)")
        let merged = try Checkrun.run(["merge", "ana.sqlite", "--db", "team.sqlite"], in: folder.path)
        #expect(merged.status == 1, "\(merged.stdout)")
        #expect(merged.stderr.contains("record 1 holds a result checkrun could not have written: \(forgery.named)"), "\(merged.stderr)")
        #expect(merged.stderr.contains("nothing was merged") && !merged.stderr.contains("SQL"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("team.sqlite")), "nothing was written")
    }

    /// An attachment's size forged in its record (hash recomputed) and in the tables to match:
    /// `verify`, `report` and `merge` each name it, where verify passed while every report of
    /// the release was refused "until verify passes".
    @Test func anAttachmentSizeForgedInItsRecordIsNamedEverywhere() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data("eleven byte".utf8).write(to: URL(fileURLWithPath: folder.path("shot.png")))
        let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
                                         "--attach", "shot.png", "--db", "ana.sqlite", "--protocols", Repository.path("protocols")], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        try Self.forge(folder.path("ana.sqlite"), replacing: "\"size\": 11", with: "\"size\": 999")
        let raw = try Database(path: folder.path("ana.sqlite"))
        try raw.execute("UPDATE result_attachments SET size = 999")
        raw.close()
        let said = "the attachment shot.png"
        let forged = "is recorded at 999 bytes, but the bytes its hash names are 11: the record was not written by checkrun"
        let verified = try Checkrun.run(["verify", "--db", "ana.sqlite"], in: folder.path)
        #expect(verified.status == 1 && verified.stdout.contains(said) && verified.stdout.contains(forged), "\(verified.stdout)")
        let reported = try Checkrun.run(["report", "--release", "2.4", "--db", "ana.sqlite", "--protocols", Repository.path("protocols")], in: folder.path)
        #expect(reported.status == 1 && reported.stderr.contains(forged), "\(reported.stderr)")
        let merged = try Checkrun.run(["merge", "ana.sqlite", "--db", "team.sqlite"], in: folder.path)
        #expect(merged.status == 1 && merged.stderr.contains("at 999 bytes, but its bytes are 11: the record was not written by checkrun; nothing was merged"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("team.sqlite")))
    }

    /// A result of a check its session never planned: merge refuses it before writing.
    @Test func mergeRefusesAResultOfACheckNotInItsSessionsPlan() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "fail",
                                         "--notes", "Delete fired", "--db", "ana.sqlite", "--protocols", Repository.path("protocols")], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        try Self.forge(folder.path("ana.sqlite"), replacing: "\"check\": \"tiny-target/touch-one-hand\"", with: "\"check\": \"tiny-target/accessibility-inspector\"")
        let merged = try Checkrun.run(["merge", "ana.sqlite", "--db", "team.sqlite"], in: folder.path)
        #expect(merged.status == 1 && merged.stderr.contains("holds a result of tiny-target/accessibility-inspector, which is not in the session's plan"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("team.sqlite")))
    }

    /// A record forged to read pass beside a failed outcome, hash recomputed and the tables
    /// made to agree: `merge` refuses such a result, and `verify`, `report` and `compare` name
    /// it by the same judge, whether the report shows it or only rests on it.
    @Test func aRecordThatContradictsItselfIsNamedEverywhere() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func checkrun(_ arguments: [String]) throws -> ProcessResult {
            try Checkrun.run(arguments + ["--protocols", Repository.path("protocols")], in: folder.path)
        }
        for build in ["311", "312"] {
            #expect(try checkrun(["record", "--release", "2.4", "--build", build, "--check", "tiny-target/touch-one-hand", "--expected", "1=fail",
                                  "--expected", "2=pass", "--count", "hits=9", "--notes", "missed"]).status == 0)
        }
        try Self.forge(folder.path("checkrun.sqlite"), replacing: "\"verdict\": \"fail\",\n  \"blockedReason\"", with: "\"verdict\": \"pass\",\n  \"blockedReason\"")
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("UPDATE results SET verdict = 'pass' WHERE session_id = (SELECT id FROM sessions WHERE build = '311')")
        raw.close()
        let named = "tiny-target/touch-one-hand: the record contradicts itself or its check (the verdict is pass, but expected outcome 1 failed)"
        let verified = try checkrun(["verify"])
        #expect(verified.status == 1 && verified.stdout.contains(named), "\(verified.stdout)")
        for command in [["report", "--release", "2.4", "--build", "311"], ["report", "--release", "2.4"], ["compare", "--release", "2.4"]] {
            let refused = try checkrun(command)
            #expect(refused.status == 1 && refused.stderr.contains(named), "\(command): \(refused.stderr)")
        }
    }

    /// A draft check's failure is saved before its notes are asked: a walk stopped there holds
    /// a failure without a reason, which is no forgery. `verify`, `report` and `merge` accept it, and
    /// `resume` asks for the notes rather than calling the session complete.
    @Test func aDraftFailureStoppedBeforeItsNotesIsNoForgery() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("p/draft.json", """
            {"id": "draft", "title": "Draft", "status": "draft", "source": "x.txt", "wcag": ["2.5.8"], "checks": [
              {"id": "one", "profile": "VoiceOver", "task": "look around", "expected": [], "review": "draft"}]}
            """)
        func checkrun(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
            try Checkrun.run(arguments + ["--protocols", folder.path("p")], in: folder.path, input: input)
        }
        let walked = try checkrun(["run", "--release", "1", "--build", "1", "--check", "draft/one"], input: "t 0:30\nf\n")
        #expect(walked.status == 1 && walked.stdout.contains("Notes (required"), "\(walked.stdout)")
        #expect(try checkrun(["verify"]).status == 0)
        #expect(try checkrun(["report", "--release", "1"]).status == 0)
        // Nor does `merge` refuse it: the tester's database is theirs to finish.
        let merged = try checkrun(["merge", "checkrun.sqlite", "--db", "team.sqlite"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try checkrun(["verify", "--db", "team.sqlite"]).status == 0)
        let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
        let session = try #require(try store.sessionSummaries().first?.session)
        store.close()
        let resumed = try checkrun(["resume", session.shortID], input: "it read the wrong label\n")
        #expect(resumed.stdout.contains("Notes saved: it read the wrong label") && !resumed.stdout.contains("is complete"), "\(resumed.stdout)")
    }

    /// Replaces text in the first record's payload and recomputes its hash: the chain holds.
    static func forge(_ path: String, replacing old: String, with new: String) throws {
        let store = try ResultStore(path: path, access: .existingOnly)
        let session = try #require(try store.sessionSummaries().first?.session)
        var records: [Record] = []
        try store.forEachRecord(inSession: session.id) { records.append($0) }
        store.close()
        let record = try #require(records.first)
        #expect(record.payload.contains(old), "the payload holds \(old): \(record.payload)")
        let forged = Record(sessionID: session.id, sequence: 1, resultID: record.resultID, kind: .answer, reason: nil,
                            payload: record.payload.replacingOccurrences(of: old, with: new), recordedAt: record.recordedAt,
                            previousHash: session.digest)
        let raw = try Database(path: path)
        defer { raw.close() }
        try raw.run("UPDATE records SET payload = ?1, hash = ?2 WHERE session_id = ?3 AND sequence = 1",
                    [.text(forged.payload), .text(forged.hash), .text(session.id.storageText)])
    }

    /// A lead's correction of a result whose tables and records disagree (a failed outcome made
    /// a pass in the tables, or the latest record deleted) is refused, and nothing is written:
    /// built on either, it would be signed by a new record and the edit `verify` names would be
    /// gone.
    @Test(arguments: ["UPDATE outcome_answers SET verdict = 'pass' WHERE position = 0; UPDATE counter_values SET value = 10",
                      "DELETE FROM records WHERE sequence = 2"])
    func anAmendmentOfAResultChangedBehindCheckrunsBackIsRefused(tamper: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func checkrun(_ arguments: [String]) throws -> ProcessResult {
            try Checkrun.run(arguments + ["--protocols", Repository.path("protocols")], in: folder.path)
        }
        let check = ["--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"]
        #expect(try checkrun(["record"] + check + ["--expected", "1=fail", "--expected", "2=pass", "--count", "hits=9", "--notes", "missed"]).status == 0)
        #expect(try checkrun(["amend"] + check + ["--notes", "missed twice", "--reason", "typo"]).status == 0)
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute(tamper)
        let records = try raw.scalarInt("SELECT count(*) FROM records")
        raw.close()
        let amended = try checkrun(["amend"] + check + ["--notes", "seen again", "--reason", "recheck"])
        #expect(amended.status == 1 && amended.stderr.contains("cannot be corrected: the results table differs from its latest record"),
                "\(amended.stdout)\(amended.stderr)")
        let after = try Database(path: folder.path("checkrun.sqlite"))
        #expect(try after.scalarInt("SELECT count(*) FROM records") == records, "nothing amended")
        after.close()
        #expect(try checkrun(["verify"]).status != 0, "the edit is still named")
    }
}
