import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A lead sent a team database, without the protocol folder: reports, comparisons and resume
/// work from the database alone, with the text the testers saw.
@Suite struct StoredProtocolsTests {
    let protocols = Repository.path("protocols")

    @Test func aDatabaseAloneReportsComparesAndResumes() throws {
        let tester = try TemporaryFolder(), lead = try TemporaryFolder()
        defer { tester.remove(); lead.remove() }
        for (build, hits) in [("310", "10"), ("311", "9")] {
            let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", build, "--check", "tiny-target/touch-one-hand", "--count", "hits=\(hits)",
                                             "--expected", "2=pass", "--notes", "n", "--db", "team.sqlite", "--protocols", protocols], in: tester.path)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let started = try Checkrun.run(["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/voice-control-show-numbers", "--db", "team.sqlite",
                                        "--protocols", protocols], in: tester.path, input: "q\n")
        #expect(started.status == 0, "\(started.stderr)")
        #expect(try Checkrun.run(["export", "--out", "team.json", "--db", "team.sqlite"], in: tester.path).status == 0)
        try FileManager.default.copyItem(atPath: tester.path("team.json"), toPath: lead.path("team.json"))
        #expect(try Checkrun.run(["merge", "team.json", "--db", "lead.sqlite"], in: lead.path).status == 0)

        let report = try Checkrun.run(["report", "--release", "2.4", "--db", "lead.sqlite"], in: lead.path)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stderr.contains("No protocol folder at protocols: using the 1 protocol version kept in lead.sqlite."), "\(report.stderr)")
        #expect(report.stdout.contains("#### tiny-target/touch-one-hand: failed"))
        #expect(report.stdout.contains("10 out of 10 hits"), "the outcome text as the tester saw it")
        let compared = try Checkrun.run(["compare", "--release", "2.4", "--db", "lead.sqlite"], in: lead.path)
        #expect(compared.status == 0 && compared.stdout.contains("tiny-target/touch-one-hand on"), "\(compared.stderr)")
        let resumed = try Checkrun.run(["resume", "--db", "team.sqlite"], in: tester.path, input: "q\n")
        #expect(resumed.status == 0 && resumed.stdout.contains("Check 1 of 1: tiny-target/voice-control-show-numbers"), "\(resumed.stdout)\(resumed.stderr)")
        #expect(try Checkrun.run(["verify", "--db", "lead.sqlite"], in: lead.path).status == 0)
        let shown = try Checkrun.run(["show", "tiny-target/touch-one-hand", "--db", "lead.sqlite"], in: lead.path)
        #expect(shown.status == 0 && shown.stdout.contains("close the sheet 10 times in a row"), "\(shown.stdout)\(shown.stderr)")
    }

    /// Kept texts deleted and no folder: said as it is, not as a mistyped folder name.
    @Test func noFolderAndNoKeptTextsIsSaidPlainly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
                                         "--db", "a.sqlite", "--protocols", protocols], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let store = try ResultStore(path: folder.path("a.sqlite"), access: .existingOnly)
        try store.database.execute("DELETE FROM protocol_versions")
        store.close()
        for command in [["report", "--release", "2.4"], ["show", "tiny-target"]] {
            let said = try Checkrun.run(command + ["--db", "a.sqlite"], in: folder.path)
            #expect(said.status == 1 && said.stderr.contains("no protocol folder at protocols, and a.sqlite keeps no protocol texts to use instead; name the protocol folder with --protocols DIR"), "\(said.stderr)")
        }
    }

    @Test func aNewerFolderSaysWhichChecksChangedAndTamperedTextIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: protocols, toPath: folder.path("protocols"))
        #expect(try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"], in: folder.path).status == 0)
        let path = folder.path("protocols/tiny-target.json")
        try Data(try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "close the sheet 10 times in a row", with: "close the sheet 12 times in a row").utf8)
            .write(to: URL(fileURLWithPath: path))
        let report = try JSONParser.parse(try Checkrun.run(["report", "--release", "2.4", "--format", "json"], in: folder.path).stdout)
        let entry = report["protocols"]?.arrayValue?.first { $0["id"]?.stringValue == "tiny-target" }
        #expect(entry?["changedChecks"]?.arrayValue?.compactMap(\.stringValue) == ["tiny-target/touch-one-hand"])
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("UPDATE protocol_versions SET content = replace(content, '10 out of 10 hits', '9 out of 10 hits')")
        raw.close()
        let verified = try Checkrun.run(["verify"], in: folder.path)
        #expect(verified.status == 1 && verified.stdout.contains("the kept text of protocol tiny-target"), "\(verified.stdout)")
    }

    /// A kept text edited to map a failed check to other criteria (or none) would make a
    /// criterion read Supports in a report from the database alone: a kept text is used only
    /// while it is the text its hash names, with a protocol folder or without.
    @Test func aKeptTextEditedIsNeverUsed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--count", "hits=9",
                                  "--expected", "2=pass", "--notes", "missed", "--protocols", protocols], in: folder.path).status == 0)
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("UPDATE protocol_versions SET content = replace(content, '\"2.5.8\", ', '')")
        raw.close()
        for command in [["report", "--release", "2.4", "--fail-on-failure"], ["report", "--release", "2.4", "--protocols", protocols], ["show", "tiny-target"]] {
            let result = try Checkrun.run(command, in: folder.path)
            #expect(result.status == 1 && result.stdout.isEmpty, "\(command): \(result.stdout)")
            #expect(result.stderr.contains("the kept text of protocol tiny-target (version ") && result.stderr.contains("was changed behind checkrun's back"), "\(result.stderr)")
        }
    }

    /// A kept text filed under another protocol's id would be that protocol's newest version in
    /// a report from the database alone: named by `verify`, refused by reports and `merge`.
    @Test func aKeptTextFiledUnderAnotherIdIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
                                  "--protocols", protocols], in: folder.path).status == 0)
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("UPDATE protocol_versions SET protocol_id = 'assistive-access'")
        raw.close()
        let named = "the kept text of protocol assistive-access (version "
        let filed = "is the text of protocol tiny-target: the id it is filed under was changed behind checkrun's back"
        let verified = try Checkrun.run(["verify"], in: folder.path)
        #expect(verified.status == 1 && verified.stdout.contains(named) && verified.stdout.contains(filed), "\(verified.stdout)")
        let reported = try Checkrun.run(["report", "--release", "2.4"], in: folder.path)
        #expect(reported.status == 1 && reported.stdout.isEmpty && reported.stderr.contains(filed), "\(reported.stderr)")
        let merged = try Checkrun.run(["merge", "checkrun.sqlite", "--db", "team.sqlite"], in: folder.path)
        #expect(merged.status == 1 && merged.stderr.contains(filed) && merged.stderr.contains("nothing was merged"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("team.sqlite")))
    }

    /// A kept text that no longer passes lint was changed behind checkrun's back: said so, not
    /// "no such folder".
    @Test func aKeptTextThatFailsLintIsNamedAsChanged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
                                  "--protocols", protocols], in: folder.path).status == 0)
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("UPDATE protocol_versions SET content = replace(content, 'Tiny Target', 'Tiny' || char(27) || '[2J Target')")
        raw.close()
        for command in [["show", "tiny-target"], ["report", "--release", "2.4", "--unverified"]] {
            let result = try Checkrun.run(command, in: folder.path)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("the kept text of protocol tiny-target (version ") && result.stderr.contains("was changed behind checkrun's back"), "\(result.stderr)")
            #expect(!result.stderr.contains("no such file or folder") && !result.stderr.contains("\u{1B}"), "\(result.stderr)")
        }
    }

    @Test func aSessionWithoutAnswersResumesFromTheDatabaseAlone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let started = try Checkrun.run(["run", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--protocols", protocols], in: folder.path, input: "q\n")
        #expect(started.status == 0, "\(started.stderr)")
        let resumed = try Checkrun.run(["resume"], in: folder.path, input: "q\n")
        #expect(resumed.stdout.contains("Check 1 of 1: tiny-target/touch-one-hand"), "\(resumed.stdout)\(resumed.stderr)")
    }
}
