import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// SIGKILL at random moments: whatever a command said it saved is there, the chains verify,
/// and no half of anything is left (a session without its result, half a merged session).
@Suite(.serialized) struct KillTests {
    let protocols = Repository.path("protocols")

    /// Runs checkrun, kills it after a random delay up to `within` seconds (unless it ended
    /// first), and returns what it had printed.
    func runAndKill(_ arguments: [String], in folder: TemporaryFolder, input: String? = nil, within: Double) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Checkrun.executable)
        process.arguments = arguments + ["--protocols", protocols]
        process.currentDirectoryURL = folder.url
        let output = Pipe(), inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try? inputPipe.fileHandleForWriting.close()
        usleep(UInt32(Double.random(in: 0...within) * 1_000_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    func store(_ folder: TemporaryFolder, _ name: String = "checkrun.sqlite") throws -> ResultStore {
        try ResultStore(path: folder.path(name), access: .existingOnly)
    }

    @Test(.hangGuard)
    func recordKilledAtRandom() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var reported = 0
        for _ in 0..<50 {
            let output = try runAndKill(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"], in: folder, within: 0.06)
            if output.contains("Recorded") { reported += 1 }
            guard FileManager.default.fileExists(atPath: folder.path("checkrun.sqlite")) else { continue }
            let store = try store(folder)
            #expect(try store.verify().problems.isEmpty)
            #expect(try store.database.scalarInt("SELECT count(*) FROM sessions WHERE id NOT IN (SELECT session_id FROM results)") == 0,
                    "a session without its result")
            #expect(try store.database.scalarInt("SELECT count(*) FROM results") ?? 0 >= reported)
        }
        // One more, left to finish: on a busy machine every kill may have come before the
        // database was made.
        let finished = try Checkrun.run(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
                                         "--protocols", protocols], in: folder.path)
        #expect(finished.status == 0 && finished.stdout.contains("Recorded"), "\(finished.stderr)")
        let store = try store(folder)
        let attempts = try store.database.query("SELECT attempt FROM results ORDER BY attempt") { $0.int(0) ?? 0 }
        #expect(attempts == Array(1...max(attempts.count, 1)).prefix(attempts.count).map { $0 }, "attempts are numbered without gaps or repeats")
    }

    @Test(.hangGuard)
    func aPipedWalkKilledAtRandom() throws {
        let answers = String(repeating: "t 3\np\np\n\nt 3\n10\np\n\nt 3\np\n\n", count: 1)
        for _ in 0..<50 {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let output = try runAndKill(["run", "--release", "1", "--build", "1", "--protocol", "tiny-target"], in: folder, input: answers, within: 0.25)
            let reported = output.components(separatedBy: "\nResult: ").count - 1
            guard FileManager.default.fileExists(atPath: folder.path("checkrun.sqlite")) else {
                #expect(reported == 0)
                continue
            }
            let store = try store(folder)
            #expect(try store.verify().problems.isEmpty)
            let judged = try store.database.scalarInt("SELECT count(*) FROM results WHERE verdict IS NOT NULL") ?? 0
            #expect(judged >= reported, "\(reported) results announced, \(judged) saved")
        }
    }

    @Test(.hangGuard)
    func mergeKilledAtRandomKeepsWholeSessionsAndCompletesWhenRunAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SourceDatabase.make(at: folder.path("source.sqlite"), sessions: 2_000, checks: ["p/a", "p/b"]).sqlite!.close()
        for round in 0..<50 {
            let target = "target\(round % 5).sqlite"
            _ = try runAndKill(["merge", "source.sqlite", "--db", target], in: folder, within: 1.0)
            guard FileManager.default.fileExists(atPath: folder.path(target)) else { continue }
            let store = try store(folder, target)
            #expect(try store.verify().problems.isEmpty)
            let partial = try store.database.scalarInt(
                "SELECT count(*) FROM sessions s WHERE (SELECT count(*) FROM records r WHERE r.session_id = s.id) <> 2")
            #expect(partial == 0, "round \(round): a session landed without all its records")
        }
        for index in 0..<5 {
            let completed = try Checkrun.run(["merge", "source.sqlite", "--db", "target\(index).sqlite"], in: folder.path)
            #expect(completed.status == 0, "\(completed.stderr)")
            #expect(try store(folder, "target\(index).sqlite").database.scalarInt("SELECT count(*) FROM results") == 4_000)
        }
    }

    @Test(.hangGuard)
    func amendKilledAtRandom() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try Checkrun.run(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--protocols", protocols], in: folder.path).status == 0)
        var reported = 0
        for round in 0..<50 {
            let output = try runAndKill(["amend", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--notes", "round \(round)", "--reason", "kill test"], in: folder, within: 0.06)
            if output.contains("Amended") { reported += 1 }
            let store = try store(folder)
            #expect(try store.verify().problems.isEmpty)
            let amends = try store.database.scalarInt("SELECT count(*) FROM records WHERE kind = 'amend'") ?? 0
            #expect(amends >= reported, "\(reported) amendments announced, \(amends) recorded")
            #expect(try store.database.scalarInt("SELECT amendments FROM results") == amends)
        }
    }
}

/// A disk that fills in the middle of a walk: nothing is announced as saved that was not.
@Suite struct FullDiskWalkTests {
    @Test(.hangGuard)
    func noAnswerIsAnnouncedBeforeItsCommitReturned() throws {
        let protocols = Repository.path("protocols")
        var sawAFailedSave = false
        for limit in stride(from: 56, through: 200, by: 8) {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            #expect(try Checkrun.run(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--protocols", protocols], in: folder.path).status == 0)
            // The file size limit makes writes past it fail, as a full disk does.
            let run = try Subprocess.run("/bin/sh", ["-c", "ulimit -f \(limit); printf 't 1:05\\n9\\nf Delete fired\\nthe notes\\nq\\n' | exec \"$0\" run --release 2.4 --build 311 --check tiny-target/touch-one-hand --protocols \"$1\"", Checkrun.executable, protocols], in: folder.path)
            guard run.stderr.contains("could not save the last answer") else { continue }
            sawAFailedSave = true
            let lines = run.stdout.split(separator: "\n")
            let announced = lines.filter { $0.hasPrefix("Time: ") || $0.hasPrefix("Expected 1: ") || $0.hasPrefix("Expected 2: ") || $0.hasPrefix("Notes saved") }.count
            let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
            let saved = try store.database.scalarInt("""
                SELECT (SELECT count(*) FROM stopwatch_events e JOIN results r ON r.id = e.result_id JOIN sessions s ON s.id = r.session_id WHERE s.release = '2.4')
                     + (SELECT count(*) FROM outcome_answers o JOIN results r ON r.id = o.result_id JOIN sessions s ON s.id = r.session_id WHERE s.release = '2.4')
                     + (SELECT count(*) FROM results r JOIN sessions s ON s.id = r.session_id WHERE s.release = '2.4' AND r.notes_answered_at IS NOT NULL)
                """) ?? 0
            #expect(announced <= saved, "limit \(limit): \(announced) answers announced, \(saved) saved\n\(run.stdout)")
        }
        #expect(sawAFailedSave, "some limit made a save fail mid-walk")
    }
}
