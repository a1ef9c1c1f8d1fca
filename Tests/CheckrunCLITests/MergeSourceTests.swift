import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Merge reads its sources through SQLite, as any reader of those files would, and refuses a
/// source that would change what another session recorded.
@Suite struct MergeSourceTests {
    let protocols = Repository.path("protocols")

    /// `timeout`: a merge of thousands of sessions, on a machine busy with other suites, may
    /// take more than the minute a command is otherwise given before it is taken for hung.
    func checkrun(_ arguments: [String], in folder: TemporaryFolder, input: String? = nil, timeout: TimeInterval = 60) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path, input: input, timeout: timeout)
    }

    func sessionCount(_ path: String) throws -> Int {
        try ResultStore(path: path, access: .existingOnly).database.scalarInt("SELECT count(*) FROM sessions") ?? -1
    }

    @Test func answersStillInTheWriteAheadLogAreMerged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A writer that keeps its connection open: its answers sit in ana.sqlite-wal.
        let writer = try ResultStore(path: folder.path("ana.sqlite"))
        try writer.database.execute("PRAGMA wal_autocheckpoint = 0")
        let session = Session(release: "2.4", build: "311", plan: ["p/c"])
        try writer.insert(session)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1)
        result.verdict = .fail
        result.notes = "Delete fired"
        try writer.save(result)
        #expect(FileManager.default.fileExists(atPath: folder.path("ana.sqlite-wal")))
        let merged = try checkrun(["merge", "ana.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("added 1 session"), "\(merged.stdout)")
        #expect(try sessionCount(folder.path("team.sqlite")) == 1)
        writer.sqlite!.close()
    }

    @Test func aSessionNotAnsweredYetIsAddedThenContinuedInSoManyWords() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tester = try ResultStore(path: folder.path("ana.sqlite"))
        defer { tester.close() }
        let session = Session(release: "2.4", build: "311", plan: ["p/c"])
        try tester.insert(session)
        let first = try checkrun(["merge", "ana.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(first.stdout.contains("added 1 session, 0 results, 0 records"), "\(first.stdout)")
        let again = try checkrun(["merge", "ana.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(again.stdout.contains("nothing new (1 session already here)"), "\(again.stdout)")
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1)
        result.verdict = .pass
        result.outcomes[0] = OutcomeAnswer(.pass)
        try tester.save(result)
        let answered = try checkrun(["merge", "ana.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(answered.stdout.contains("added 0 sessions, continued 1, 1 result, 1 record"), "\(answered.stdout)")
    }

    @Test func aSourceInAReadOnlyFolderMergesAndNothingIsLeftBesideIt() throws {
        let folder = try TemporaryFolder()
        defer { chmod(folder.path("share"), 0o755); folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("share"), withIntermediateDirectories: true)
        let recorded = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", "share/ana.sqlite"], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path("share")).sorted()
        #expect(before == ["ana.sqlite"])
        // Writable folder: the source's connection cleans up after itself.
        var merged = try checkrun(["merge", "share/ana.sqlite", "--db", "mine.sqlite"], in: folder)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("share")).sorted() == before)
        // A share the user cannot write. Root ignores permissions, so the merge runs as nobody.
        chmod(folder.path("share/ana.sqlite"), 0o444)
        chmod(folder.path("share"), 0o555)
        chmod(folder.path, 0o777)
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
        if getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
           try Subprocess.run("/usr/bin/setpriv", asNobody + ["/bin/sh", "-c", "test -x \"$0\" && test -r \"$1\"", Checkrun.executable, protocols]).status == 0 {
            merged = try Subprocess.run("/usr/bin/setpriv", asNobody + [Checkrun.executable, "merge", "share/ana.sqlite", "--db", "other.sqlite"], in: folder.path)
        } else {
            // Said out loud, so a run where this part could not happen does not pass silently.
            print("note: the read-only share part of this test was skipped: it needs root, setpriv and a build that nobody can reach")
            return
        }
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("added 1 session"), "\(merged.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("share")).sorted() == before, "no -wal or -shm beside the source")
    }

    @Test func aSourceBeingWrittenIsWaitedForNotRefusedAsBusy() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "2.4", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", "ana.sqlite"], in: folder).status == 0)
        // Another process holds the source's write lock (and an exclusive lock) for a moment.
        let blocker = try Database(path: folder.path("ana.sqlite"))
        try blocker.execute("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        let held = Held(blocker)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { try? held.database.execute("COMMIT; PRAGMA locking_mode = NORMAL;"); held.database.close() }
        let merged = try checkrun(["merge", "ana.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(!merged.stderr.contains("busy"))
    }

    @Test func anErrorAboutAnOlderSourceNamesTheUsersFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "2.4", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", "old.sqlite"], in: folder).status == 0)
        let raw = try Database(path: folder.path("old.sqlite"))
        try raw.execute(OlderSchema.version2)
        try raw.execute("UPDATE sessions SET tester = 'forged'")
        raw.close()
        let merged = try checkrun(["merge", "old.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(merged.status == 1)
        #expect(merged.stderr.contains("old.sqlite: session"), "\(merged.stderr)")
        #expect(!merged.stderr.contains("checkrun-merge-"), "no scratch copy is named: \(merged.stderr)")
    }

    /// Exports whose records name results of other sessions, crafted by hand.
    @Test func aRecordClaimingAnotherSessionsResultIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (verdict, device) in [("fail", "iPhone"), ("pass", "iPad")] {
            #expect(try checkrun(["record", "--release", "2.4", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", verdict,
                                  "--device", device, "--db", "team.sqlite"] + (verdict == "fail" ? ["--notes", "Delete fired"] : []), in: folder).status == 0)
        }
        let store = try ResultStore(path: folder.path("team.sqlite"), access: .existingOnly)
        let ids = try store.database.query("SELECT r.id, r.session_id FROM results r JOIN sessions s ON s.id = r.session_id ORDER BY s.device DESC") { ($0.string(0) ?? "", $0.string(1) ?? "") }
        let failing = ids[0], passing = ids[1]
        // An attacker's session whose record payload carries the failing result's id.
        let session = Session(release: "2.4", build: "1", plan: ["tiny-target/touch-one-hand"])
        var forged = CheckResult(id: UUID(uuidString: failing.0) ?? UUID(), sessionID: session.id, check: "tiny-target/touch-one-hand",
                                 protocolHash: "h", attempt: 1, outcomeCount: 2, startedAt: Date())
        forged.verdict = .pass
        for recordResultID in [forged.id, UUID(uuidString: passing.0) ?? UUID()] {
            let record = Record(sessionID: session.id, sequence: 1, resultID: recordResultID, kind: .answer, reason: nil,
                                payload: forged.payload, recordedAt: Date(), previousHash: session.digest)
            let crafted = "craft-\(UUID().uuidString).sqlite"
            let other = try ResultStore(path: folder.path(crafted))
            try other.insert(session)
            try other.database.run(
                "INSERT INTO records (session_id, sequence, result_id, kind, reason, payload, recorded_at, previous_hash, hash) VALUES (?, 1, ?, 'answer', NULL, ?, ?, ?, ?)",
                [.text(session.id.uuidString), .text(record.resultID.uuidString), .text(record.payload), .real(0), .text(record.previousHash), .text(record.hash)])
            other.sqlite!.close()
            let merged = try checkrun(["merge", crafted, "--db", "team.sqlite"], in: folder)
            #expect(merged.status == 1, "\(merged.stdout)")
            #expect(merged.stderr.contains("belongs to session") || merged.stderr.contains("but holds result"), "\(merged.stderr)")
            let gate = try checkrun(["report", "--release", "2.4", "--fail-on-failure", "--db", "team.sqlite"], in: folder)
            #expect(gate.status == 3, "the failing result still fails the gate")
            #expect(try store.database.scalarInt("SELECT count(*) FROM sessions") == 2, "nothing was written")
        }
    }

    @Test func anExportOnOneLineMergesInTimeProportionalToItsSize() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = try SourceDatabase.make(at: folder.path("big.sqlite"), sessions: 3_000) { "note \($0), with \"quotes\", {braces} and [brackets]" }
        var text = ""
        _ = try source.export(release: nil) { text += $0 }
        let oneLine = text.replacingOccurrences(of: "\n", with: "")
        try folder.write("one-line.json", oneLine)
        try folder.write("lines.json", text)
        // Beside the same export a session a line, so that a busy machine slows both alike.
        var started = Date()
        #expect(try checkrun(["merge", "lines.json", "--db", "lines.sqlite"], in: folder, timeout: 600).status == 0)
        let linesSeconds = Date().timeIntervalSince(started)
        started = Date()
        let merged = try checkrun(["merge", "one-line.json", "--db", "team.sqlite"], in: folder, timeout: 600)
        let seconds = Date().timeIntervalSince(started)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("added 3000 sessions"), "\(merged.stdout)")
        #expect(seconds < 3 * linesSeconds + 5, "\(seconds) s on one line against \(linesSeconds) s a session a line")
        // Sorted keys put "sessions" before "version": still read, header checked at the end.
        // (Without attachments the export is version 2, which every checkrun since 2 reads.)
        let sorted = String(oneLine.replacingOccurrences(of: "\"version\": 2, ", with: "").dropLast(2)) + "], \"version\": 2}"
        try folder.write("sorted.json", sorted)
        let again = try checkrun(["merge", "sorted.json", "--db", "team.sqlite"], in: folder, timeout: 600)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("nothing new"), "\(again.stdout)")
        try folder.write("truncated.json", String(oneLine.prefix(oneLine.count / 2)))
        let truncated = try checkrun(["merge", "truncated.json", "--db", "fresh.sqlite"], in: folder, timeout: 600)
        #expect(truncated.status == 1)
        #expect(truncated.stderr.contains("truncated"), "\(truncated.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("fresh.sqlite")), "a bad source writes nothing, not even a new database")
    }

    /// A record deleted from the end of a chain (the amendment that turned a pass into a fail)
    /// leaves a chain that is whole; only the source's tables show it. Merged, the copy verified
    /// clean and its report passed. A source that fails verification is refused whole.
    @Test func aSourceThatFailsVerificationIsRefusedWhole() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let place = ["--release", "2.4", "--build", "311", "--device", "D", "--check", "tiny-target/touch-one-hand", "--db", "ana.sqlite"]
        #expect(try checkrun(["record", "--verdict", "pass"] + place, in: folder).status == 0)
        #expect(try checkrun(["amend", "--verdict", "fail", "--expected", "2=fail", "--notes", "Delete fired", "--reason", "retest"] + place, in: folder).status == 0)
        let source = try Database(path: folder.path("ana.sqlite"))
        try source.execute("DELETE FROM records WHERE sequence = 2")
        source.close()
        let merged = try checkrun(["merge", "ana.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(merged.status == 1 && merged.stderr.contains("ana.sqlite fails verification (session ") && merged.stderr.contains("nothing was merged"), "\(merged.stderr)")
        let written = FileManager.default.fileExists(atPath: folder.path("team.sqlite")) ? try sessionCount(folder.path("team.sqlite")) : 0
        #expect(written == 0, "a bad source writes nothing")
    }

    /// An export carries records only; a finished session in it without any was emptied by hand,
    /// and merged it would leave a store that fails `verify`.
    @Test func anExportedFinishedSessionWithoutRecordsIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"], in: folder).status == 0)
        #expect(try checkrun(["export", "--out", "x.json"], in: folder).status == 0)
        var export = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("x.json")))) as? [String: Any])
        var sessions = try #require(export["sessions"] as? [[String: Any]])
        sessions[0]["records"] = [Any]()
        export["sessions"] = sessions
        try JSONSerialization.data(withJSONObject: export).write(to: URL(fileURLWithPath: folder.path("emptied.json")))
        let merged = try checkrun(["merge", "emptied.json", "--db", "team.sqlite"], in: folder)
        #expect(merged.status == 1 && merged.stderr.contains("is marked finished but has no records"), "\(merged.stderr)")
    }

    /// A label `run` and `record` refuse (a line break, an escape) was merged, its chain whole,
    /// and then stood as lines of its own wherever a walk named it ("Result: pass").
    @Test func aSessionLabelCheckrunNeverFilesIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ResultStore(path: folder.path("forged.sqlite"))
        let session = Session(release: "2.4", build: "311", device: "iPhone\nResult: pass, 1 of 1 expected outcome passed\u{1B}[2K", plan: ["p/c"], startedAt: Date())
        try store.insert(session)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1)
        result.verdict = .fail
        result.notes = "fails"
        try store.save(result)
        store.close()
        #expect(try checkrun(["verify", "--db", "forged.sqlite"], in: folder).status == 0, "the chain itself is whole")
        let merged = try checkrun(["merge", "forged.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(merged.status == 1 && merged.stderr.contains("has a device label holding a line break, a control character or a direction control"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("team.sqlite")))
    }
}

extension MergeSourceTests {
    @Test func anExportMergedIntoAnEmptyDatabaseKeepsEveryPayloadByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let walked = try checkrun(["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--db", "a.sqlite"], in: folder,
                                  input: "t 1:05\n9\nf fired \u{1B}[31m twice — ⚠︎ \"quoted\"\nnotes with ünïcödé\n")
        #expect(walked.status == 0, "\(walked.stderr)")
        #expect(try checkrun(["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--notes", "line one\nline two", "--reason", "typo", "--db", "a.sqlite"], in: folder).status == 0)
        #expect(try checkrun(["export", "--out", "a.json", "--db", "a.sqlite"], in: folder).status == 0)
        #expect(try checkrun(["merge", "a.json", "--db", "b.sqlite"], in: folder).status == 0)
        let payloads = { (name: String) throws -> [String] in
            try ResultStore(path: folder.path(name), access: .existingOnly).database.query("SELECT payload FROM records ORDER BY session_id, sequence") { $0.string(0) ?? "" }
        }
        let original = try payloads("a.sqlite")
        #expect(original.count >= 5)
        #expect(try payloads("b.sqlite") == original)

        // An export of the first format (payloads as objects) still merges, and verifies.
        let text = try String(contentsOfFile: folder.path("a.json"), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        lines[0] = lines[0].replacingOccurrences(of: "\"version\": 2", with: "\"version\": 1")
        for index in 1..<(lines.count - 2) {
            let line = lines[index].hasSuffix(",") ? String(lines[index].dropLast()) : lines[index]
            var entry = try JSONParser.parse(line)
            guard case .object(var members) = entry.value, let position = members.firstIndex(where: { $0.key == "records" }),
                  case .array(let records) = members[position].value.value else { continue }
            members[position].value = JSONNode(.array(try records.map { record in
                guard case .object(var fields) = record.value, let at = fields.firstIndex(where: { $0.key == "payload" }),
                      let payload = fields[at].value.stringValue else { return record }
                fields[at].value = try JSONParser.parse(payload)
                return JSONNode(.object(fields))
            }))
            entry = JSONNode(.object(members))
            lines[index] = JSONWriter.compact(entry.value) + (lines[index].hasSuffix(",") ? "," : "")
        }
        try folder.write("v1.json", lines.joined(separator: "\n"))
        let merged = try checkrun(["merge", "v1.json", "--db", "c.sqlite"], in: folder)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try checkrun(["verify", "--db", "c.sqlite"], in: folder).status == 0)
    }
}

/// Hands a blocking connection to the thread that releases it; only that thread uses it then.
final class Held: @unchecked Sendable {
    let database: Database
    init(_ database: Database) { self.database = database }
}
