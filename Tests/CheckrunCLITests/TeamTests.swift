import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Several testers, several processes, one release: merge, export, concurrent writers, amend, verify.
@Suite struct TeamTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder, input: String? = nil) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path, input: input)
    }

    @Test(.hangGuard)
    func fourWritersAndAWalkAtOnceLoseNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = """
            for i in $(seq 1 250); do
              "$0" record --db shared.sqlite --protocols "$1" --release 9 --build "$2" --check tiny-target/touch-one-hand --verdict pass --count hits=10 --seconds $((i % 11 + 5)) >/dev/null || echo "failed $i"
            done
            """
        var writers: [Process] = []
        var outputs: [Pipe] = []
        for build in 1...4 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, Checkrun.executable, protocols, String(build)]
            process.currentDirectoryURL = folder.url
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            writers.append(process)
            outputs.append(pipe)
        }
        let answers = "t 3\np\np\n\nt 3\n10\np\n\nt 3\np\n\n"
        let walk = try Checkrun.run(["run", "--db", "shared.sqlite", "--release", "9", "--build", "walk", "--protocol", "tiny-target", "--protocols", protocols], in: folder.path, input: answers)
        var messages = ""
        for (process, pipe) in zip(writers, outputs) {
            messages += String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
        }
        #expect(messages.isEmpty, "no writer failed: \(messages.prefix(500))")
        #expect(!messages.contains("locked") && !walk.stderr.contains("locked") && !walk.stdout.contains("locked"))
        #expect(walk.status == 0, "\(walk.stderr)")
        let store = try ResultStore(path: folder.path("shared.sqlite"))
        #expect(try store.database.scalarInt("SELECT count(*) FROM results r JOIN sessions s ON s.id = r.session_id WHERE s.build <> 'walk'") == 1000)
        #expect(try store.database.scalarInt("SELECT count(*) FROM results r JOIN sessions s ON s.id = r.session_id WHERE s.build = 'walk' AND verdict IS NOT NULL") == 3)
        let verify = try checkrun(["verify", "--db", "shared.sqlite"], in: folder)
        #expect(verify.status == 0, "\(verify.stdout)")
    }

    @Test func mergeExportAmendAndVerifyFromTheCommandLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (tester, db) in [("Ana", "ana.sqlite"), ("Ben", "ben.sqlite")] {
            let run = try checkrun(["run", "--db", db, "--release", "2.4", "--build", "311", "--tester", tester, "--protocol", "tiny-target"], in: folder,
                                   input: "t 5\np\nf\nfocus lands on the wrong button\nt 9\n10\np\n\ns\n")
            #expect(run.status == 0, "\(run.stderr)")
        }
        let merged = try checkrun(["merge", "ana.sqlite", "ben.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("From ana.sqlite: added 1 session, 3 results, 9 records."))
        #expect(merged.stdout.contains("In all: added 2 sessions, 6 results, 18 records."))
        let twice = try checkrun(["merge", "ana.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(twice.stdout.contains("From ana.sqlite: nothing new (1 session already here)."))

        let export = try checkrun(["export", "--db", "team.sqlite", "--release", "2.4", "--out", "team.json"], in: folder)
        #expect(export.stdout == "Exported 2 sessions with 18 records to team.json.\n")
        let back = try checkrun(["merge", "team.json", "--db", "copy.sqlite"], in: folder)
        #expect(back.status == 0 && back.stdout.contains("added 2 sessions, 6 results, 18 records"))
        let original = try checkrun(["report", "--release", "2.4", "--format", "json", "--db", "team.sqlite"], in: folder)
        let copy = try checkrun(["report", "--release", "2.4", "--format", "json", "--db", "copy.sqlite"], in: folder)
        let strip: (String) -> String = { $0.split(separator: "\n").filter { !$0.contains("\"generatedAt\"") }.joined(separator: "\n") }
        #expect(strip(original.stdout) == strip(copy.stdout), "the round trip loses nothing a report shows")

        let noReason = try checkrun(["amend", "--db", "team.sqlite", "--release", "2.4", "--build", "311", "--check", "tiny-target/accessibility-inspector", "--verdict", "pass"], in: folder)
        #expect(noReason.status == 2)
        let ambiguous = try checkrun(["amend", "--db", "team.sqlite", "--release", "2.4", "--build", "311", "--check", "tiny-target/accessibility-inspector", "--verdict", "pass", "--expected", "2=pass", "--reason", "r"], in: folder)
        #expect(ambiguous.status == 0 || ambiguous.stderr.contains("several devices"))
        let report = try checkrun(["report", "--release", "2.4", "--db", "team.sqlite"], in: folder)
        #expect(report.stdout.contains("- Verdict: pass (amended once: r)"))
        #expect(report.stdout.contains("- Evidence digest: `"))

        let verified = try checkrun(["verify", "--db", "team.sqlite"], in: folder)
        #expect(verified.stdout.contains("Verified: 19 records in 2 sessions; every chain is intact and the file is sound."))
        let shell = try Subprocess.run("/usr/bin/env", ["sqlite3", folder.path("team.sqlite"),
            "UPDATE results SET notes = 'nothing happened' WHERE notes IS NOT NULL AND notes <> ''; DELETE FROM records WHERE sequence = 2"])
        if shell.status == 0 {
            let tampered = try checkrun(["verify", "--db", "team.sqlite"], in: folder)
            #expect(tampered.status == 1)
            #expect(tampered.stdout.contains("the results table differs from the record (the notes differ); it was edited behind checkrun's back"))
            #expect(tampered.stdout.contains(": record 2 was deleted"))
        }
    }

    @Test func aMergeThatRunsOutOfSpaceKeepsWholeSessionsAndCompletesWhenRunAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A source big enough to outgrow a small file size limit.
        try SourceDatabase.make(at: folder.path("big.sqlite"), sessions: 400) { _ in String(repeating: "a long note to take up room ", count: 40) }.sqlite!.close()
        _ = try ResultStore(path: folder.path("small.sqlite"))
        let limited = try Subprocess.run("/bin/sh", ["-c", "ulimit -f 256; exec \"$0\" merge big.sqlite --db small.sqlite", Checkrun.executable], in: folder.path)
        let message = limited.stderr
        #expect(limited.status == 1, "\(message)")
        #expect(message.contains("run the same merge again to complete it"))
        #expect(message.contains("disk is full") || message.contains("too large") || message.contains("full"))
        let after = try ResultStore(path: folder.path("small.sqlite"))
        #expect(try after.database.scalarInt("SELECT count(*) FROM sessions") ?? 0 < 400)
        #expect(try after.database.scalarInt("SELECT count(*) FROM sessions WHERE id NOT IN (SELECT session_id FROM records)") == 0,
                "every session that landed has its records")
        #expect(try after.verify().problems.isEmpty)
        let again = try checkrun(["merge", "big.sqlite", "--db", "small.sqlite"], in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try after.database.scalarInt("SELECT count(*) FROM sessions") == 400)
        #expect(try after.verify().problems.isEmpty)
    }

    @Test func badMergeSourcesAreRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("notes.txt", "hello")
        let text = try checkrun(["merge", "notes.txt"], in: folder)
        #expect(text.status == 1)
        #expect(text.stderr.contains("notes.txt:1:1: expected a JSON object"))
        #expect(text.stderr.contains("Nothing was merged; checkrun.sqlite was not created."))
        let missing = try checkrun(["merge", "nowhere.sqlite"], in: folder)
        #expect(missing.stderr.contains("nowhere.sqlite: no such file"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("checkrun.sqlite")), "a refused merge leaves no new database")
        _ = try ResultStore(path: folder.path("checkrun.sqlite"))
        let again = try checkrun(["merge", "notes.txt"], in: folder)
        #expect(again.status == 1 && again.stderr.contains("Nothing was merged; checkrun.sqlite is unchanged."), "\(again.stderr)")
        let itself = try checkrun(["merge", "checkrun.sqlite"], in: folder)
        #expect(itself.stderr.contains("is the database being merged into"))
    }

    /// A database from an earlier checkrun is upgraded on first use, with a word about why the
    /// command waits, and keeps every answer; later runs say nothing.
    @Test func anOlderDatabaseIsUpgradedOnceWithANotice() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorded = try checkrun(["record", "--db", "old.sqlite", "--release", "9", "--build", "1",
                                     "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--count", "hits=10"], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        // Turn it back into a version-2 file: records WITHOUT ROWID.
        let raw = try Database(path: folder.path("old.sqlite"))
        try raw.execute(OlderSchema.version2)
        raw.close()
        let first = try checkrun(["verify", "--db", "old.sqlite"], in: folder)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stderr.contains("Upgrading old.sqlite from schema version 2 to \(Schema.latestVersion), once"))
        let second = try checkrun(["verify", "--db", "old.sqlite"], in: folder)
        #expect(second.status == 0)
        #expect(!second.stderr.contains("Upgrading"))
        let report = try checkrun(["report", "--db", "old.sqlite", "--release", "9", "--format", "csv"], in: folder)
        #expect(report.stdout.contains("tiny-target/touch-one-hand"))
    }
}
