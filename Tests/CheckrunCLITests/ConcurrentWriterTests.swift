import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Writers at the same time: each waits its turn, none fails with "busy" or "locked", and no
/// change is lost or numbered twice.
@Suite(.serialized) struct ConcurrentWriterTests {
    let protocols = Repository.path("protocols")

    /// Starts `count` shell loops at once and waits for all; returns what each printed.
    func together(_ count: Int, in folder: TemporaryFolder, script: String) throws -> [String] {
        var processes: [(Process, Pipe)] = []
        for index in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, Checkrun.executable, protocols, String(index)]
            process.currentDirectoryURL = folder.url
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            processes.append((process, pipe))
        }
        for (process, _) in processes { try process.run() }
        return processes.map { process, pipe in
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return output
        }
    }

    @Test(.hangGuard)
    func twoAmendsOfOneResultAtOnceBothLand() throws {
        for round in 0..<10 {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let recorded = try Checkrun.run(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--protocols", protocols], in: folder.path)
            #expect(recorded.status == 0)
            // One changes the notes, the other the count (one that keeps the pass, so either
            // may go first): both changes must be in the end state.
            let outputs = try together(2, in: folder, script: """
                if [ "$2" = 0 ]; then what="--notes amended-$2"; else what="--count hits=10"; fi
                "$0" amend --protocols "$1" --release 1 --build 1 --check tiny-target/touch-one-hand $what --reason "round" 2>&1
                """)
            #expect(outputs.allSatisfy { $0.contains("Amended") }, "\(outputs)")
            let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
            let result = try #require(try store.latestResults(check: "tiny-target/touch-one-hand", release: "1", build: "1", device: nil, osVersion: nil).first)
            #expect(result.notes == "amended-0" && result.counters["hits"]?.value == 10, "round \(round): one change was lost")
            #expect(try store.verify().problems.isEmpty)
        }
    }

    @Test(.hangGuard)
    func sixRecordsOfOneCheckAtOnceGetSixAttempts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try Checkrun.run(["record", "--release", "1", "--build", "0", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--protocols", protocols], in: folder.path).status == 0)
        let outputs = try together(6, in: folder, script: """
            "$0" record --protocols "$1" --release 1 --build 1 --check tiny-target/touch-one-hand --verdict pass 2>&1
            """)
        #expect(outputs.allSatisfy { $0.contains("Recorded") }, "\(outputs)")
        let attempts = outputs.compactMap { $0.components(separatedBy: "attempt ").dropFirst().first?.split(separator: ",").first }.map(String.init).sorted()
        #expect(attempts == ["1", "2", "3", "4", "5", "6"], "\(attempts)")
    }

    @Test(.hangGuard)
    func processesCreatingOneNewDatabaseAtOnceAllSucceed() throws {
        for _ in 0..<15 {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let outputs = try together(6, in: folder, script: """
                "$0" record --protocols "$1" --release 1 --build "$2" --check tiny-target/touch-one-hand --verdict pass --db new.sqlite 2>&1
                """)
            #expect(outputs.allSatisfy { $0.contains("Recorded") }, "\(outputs.filter { !$0.contains("Recorded") })")
        }
    }

    /// A source of 100,000 results merged while `record` and a walk write to the same target:
    /// none of them waits much longer than a batch, and the merge completes.
    @Test(.hangGuard)
    func writersGoOnDuringALongMerge() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SourceDatabase.make(at: folder.path("big.sqlite"), sessions: 20_000, checks: (1...5).map { "p/c\($0)" }).sqlite!.close()
        _ = try ResultStore(path: folder.path("team.sqlite"))
        let merge = Process()
        merge.executableURL = URL(fileURLWithPath: Checkrun.executable)
        merge.arguments = ["merge", "big.sqlite", "--db", "team.sqlite"]
        merge.currentDirectoryURL = folder.url
        let mergeOutput = Pipe()
        merge.standardOutput = mergeOutput
        merge.standardError = mergeOutput
        let mergeStarted = Date()
        try merge.run()
        var slowest = 0.0, saved = 0
        while merge.isRunning {
            let started = Date()
            let recorded = try Checkrun.run(["record", "--release", "2", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", "team.sqlite", "--protocols", protocols], in: folder.path)
            #expect(recorded.status == 0, "\(recorded.stderr)")
            if recorded.status == 0 { saved += 1 }
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        let output = String(decoding: mergeOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(merge.terminationStatus == 0, "\(output)")
        #expect(saved > 3, "records were saved during the merge")
        // A batch's time, not the merge's: on a machine slowed by other work the batches slow
        // down too, so the bound is a tenth of the whole merge, and 3 s at least.
        let mergeSeconds = Date().timeIntervalSince(mergeStarted)
        #expect(slowest < max(3, mergeSeconds / 10), "a record waited \(slowest) s of a merge of \(mergeSeconds) s")
        let team = try ResultStore(path: folder.path("team.sqlite"), access: .existingOnly)
        #expect(try team.database.scalarInt("SELECT count(*) FROM results") == 100_000 + saved)
        #expect(try team.verify().problems.isEmpty)
    }
}
