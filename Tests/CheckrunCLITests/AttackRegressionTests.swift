import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Ways a hostile or hurried user lost data before, each kept from coming back.
@Suite struct AttackRegressionTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    func recordOne(_ folder: TemporaryFolder, db: String = "a.sqlite") throws {
        let recorded = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", db], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    @Test func anOutputPathThatIsADatabaseIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try recordOne(folder)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: folder.path("a.sqlite"))
        let before = FileManager.default.contents(atPath: folder.path("a.sqlite"))
        for command in [["report", "--release", "2.4", "--out", "a.sqlite"], ["export", "--out", "a.sqlite"], ["export", "--out", "link"],
                        ["compare", "--release", "2.4", "--out", "./a.sqlite"]] {
            let result = try checkrun(command + ["--db", "a.sqlite"], in: folder)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("is an SQLite database"), "\(result.stderr)")
        }
        #expect(FileManager.default.contents(atPath: folder.path("a.sqlite")) == before)
        #expect(try checkrun(["verify", "--db", "a.sqlite"], in: folder).status == 0)
    }

    /// A report or export written over a protocol file would leave every later command without it.
    @Test func anOutputPathThatIsAProtocolFileIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try recordOne(folder)
        try FileManager.default.copyItem(atPath: Repository.path("protocols"), toPath: folder.path("protocols"))
        let before = FileManager.default.contents(atPath: folder.path("protocols/tiny-target.json"))
        for command in [["report", "--release", "2.4", "--out", "protocols/tiny-target.json"], ["export", "--out", "protocols/tiny-target.json"]] {
            let result = try Checkrun.run(command + ["--db", "a.sqlite"], in: folder.path)
            #expect(result.status == 2 && result.stderr.contains("is a protocol file; name another file for the output"), "\(command): \(result.stderr)")
        }
        #expect(FileManager.default.contents(atPath: folder.path("protocols/tiny-target.json")) == before)
        // Without its $schema line it is still a protocol file of the folder in use.
        let bare = try String(contentsOfFile: folder.path("protocols/tiny-target.json"), encoding: .utf8).split(separator: "\n").filter { !$0.contains("$schema") }.joined(separator: "\n")
        try bare.write(toFile: folder.path("protocols/tiny-target.json"), atomically: true, encoding: .utf8)
        let result = try Checkrun.run(["report", "--release", "2.4", "--db", "a.sqlite", "--out", "protocols/tiny-target.json"], in: folder.path)
        #expect(result.status == 2 && result.stderr.contains("is a protocol file"), "\(result.stderr)")
        // A copy elsewhere is known by its opening: its $schema, after a byte order mark, or
        // not the first member.
        let text = try Repository.text("protocols/tiny-target.json")
        try folder.write("copy.json", text)
        try folder.write("bom.json", "\u{FEFF}" + text)
        try folder.write("second.json", text.replacingOccurrences(of: "{\n  \"$schema\"", with: "{\n  \"note\": \"x\",\n  \"$schema\""))
        for copy in ["copy.json", "bom.json", "second.json"] {
            #expect(try Checkrun.run(["export", "--db", "a.sqlite", "--out", copy], in: folder.path).status == 2, "\(copy)")
        }
    }

    /// An export quotes the protocol texts near its start, yet is no protocol file: exporting
    /// again replaces it, and a report may be written over it.
    @Test func anEarlierExportIsReplaced() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try recordOne(folder)
        for command in [["export", "--out", "ana-2.4.json"], ["export", "--release", "2.4", "--out", "ana-2.4.json"], ["report", "--release", "2.4", "--format", "json", "--out", "ana-2.4.json"]] {
            let result = try Checkrun.run(command + ["--db", "a.sqlite", "--protocols", Repository.path("protocols")], in: folder.path)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
    }

    /// The files SQLite keeps beside a database hold answers not yet written into it (a walk's,
    /// while it is open): an output over one of them would lose those answers unseen.
    @Test func anOutputPathBesideADatabaseIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try recordOne(folder)
        // A writer still open, its answer in the write-ahead log only.
        let open = try ResultStore(path: folder.path("a.sqlite"), access: .existingOnly)
        let session = Session(release: "2.4", build: "312", plan: ["tiny-target/touch-one-hand"])
        try open.insert(session)
        #expect(FileManager.default.fileExists(atPath: folder.path("a.sqlite-wal")))
        for command in [["report", "--release", "2.4", "--out", "a.sqlite-wal"], ["export", "--out", "a.sqlite-shm"],
                        ["compare", "--release", "2.4", "--out", "a.sqlite-journal"]] {
            let result = try checkrun(command + ["--db", "a.sqlite"], in: folder)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("belongs to the SQLite database a.sqlite"), "\(result.stderr)")
        }
        open.close()
        let kept = try ResultStore(path: folder.path("a.sqlite"), access: .existingOnly)
        defer { kept.close() }
        #expect(try kept.session(id: session.id) != nil, "the open writer's session was kept")
    }

    @Test func aDatabasePathThatLooksLikeAURIIsAFileName() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try recordOne(folder, db: "file:y.sqlite?mode=memory")
        #expect(FileManager.default.fileExists(atPath: folder.path("file:y.sqlite?mode=memory")), "the answers are in a file of that name")
        let listed = try checkrun(["sessions", "--db", "file:y.sqlite?mode=memory"], in: folder)
        #expect(listed.status == 0 && listed.stdout.contains("1 of 1 checks done"), "\(listed.stdout)\(listed.stderr)")
    }

    @Test func aTemporaryFileLeftByAKilledWriteIsRemovedByTheNextOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try recordOne(folder)
        // A process that has ended: its pid is free, so its temporary file is stale.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = ".out.json.checkrun-\(ended.processIdentifier)-42.tmp"
        try folder.write(stale, "half an export")
        try folder.write(".out.json.checkrun-\(getpid())-7.tmp", "a live writer's file")
        #expect(try checkrun(["export", "--out", "out.json", "--db", "a.sqlite"], in: folder).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains(stale))
        #expect(names.contains(".out.json.checkrun-\(getpid())-7.tmp"), "a file of a process still running is left alone")
    }

    @Test func mergeReadsRecordsInAnyOrderAndRefusesNewerExportsByName() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let walked = try Checkrun.run(["run", "--release", "2.4", "--build", "1", "--check", "tiny-target/touch-one-hand", "--db", "a.sqlite", "--protocols", protocols],
                                      in: folder.path, input: "t 3\n10\np\nnotes\n")
        #expect(walked.status == 0, "\(walked.stderr)")
        #expect(try checkrun(["export", "--out", "a.json", "--db", "a.sqlite"], in: folder).status == 0)
        let text = try String(contentsOfFile: folder.path("a.json"), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        var entry = try JSONParser.parse(lines[1])
        guard case .object(var members) = entry.value, let index = members.firstIndex(where: { $0.key == "records" }),
              case .array(let records) = members[index].value.value else { Issue.record("no records"); return }
        #expect(records.count > 2)
        members[index].value = JSONNode(.array(records.reversed()))
        entry = JSONNode(.object(members))
        lines[1] = JSONWriter.compact(entry.value)
        try folder.write("reversed.json", lines.joined(separator: "\n"))
        let merged = try checkrun(["merge", "reversed.json", "--db", "b.sqlite"], in: folder)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try checkrun(["verify", "--db", "b.sqlite"], in: folder).status == 0)
        try folder.write("newer.json", text.replacingOccurrences(of: "\"version\": 2", with: "\"version\": \(ResultStore.exportVersion + 1)"))
        let newer = try checkrun(["merge", "newer.json", "--db", "c.sqlite"], in: folder)
        #expect(newer.status == 1)
        #expect(newer.stderr.contains("written by a newer checkrun"), "\(newer.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c.sqlite")), "a refused merge leaves no new database behind")
        #expect(newer.stderr.contains("Nothing was merged; c.sqlite was not created."), "not 'unchanged': \(newer.stderr)")
        let missing = try checkrun(["merge", "nowhere.sqlite", "--db", "d.sqlite"], in: folder)
        #expect(missing.status == 1 && !FileManager.default.fileExists(atPath: folder.path("d.sqlite")))
    }

    @Test func aLinkToTheTargetIsTheTarget() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try recordOne(folder)
        try FileManager.default.createSymbolicLink(atPath: folder.path("alias.sqlite"), withDestinationPath: folder.path("a.sqlite"))
        try FileManager.default.linkItem(atPath: folder.path("a.sqlite"), toPath: folder.path("hard.sqlite"))
        for source in ["alias.sqlite", "hard.sqlite"] {
            let merged = try checkrun(["merge", source, "--db", "a.sqlite"], in: folder)
            #expect(merged.status == 1 && merged.stderr.contains("is the database being merged into"), "\(merged.stderr)")
        }
    }
}

extension AttackRegressionTests {
    /// A time of nothing was kept as "0 seconds" and counted in the report's medians as a
    /// task that took none; `record` and `amend` refuse it as the walk does, and save nothing.
    @Test func aTimeOfNothingIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try recordOne(folder)
        let scope = ["--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--db", "a.sqlite"]
        for seconds in ["0", "0:00", "0.01"] {
            let recorded = try checkrun(["record", "--release", "2.4", "--build", "312", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--seconds", seconds, "--db", "a.sqlite"], in: folder)
            #expect(recorded.status == 2 && recorded.stderr.contains("--seconds '\(seconds)': 0 seconds is no time for a task"), "\(recorded.stderr)")
            let amended = try checkrun(["amend", "--seconds", seconds, "--reason", "typo"] + scope, in: folder)
            #expect(amended.status == 2 && amended.stderr.contains("is no time for a task"), "\(amended.stderr)")
        }
        let sessions = try checkrun(["sessions", "--db", "a.sqlite"], in: folder)
        #expect(!sessions.stdout.contains("312"), "nothing was saved: \(sessions.stdout)")
    }

    /// SIGTERM or Ctrl-C in the middle of writing a file leaves no temporary file and the old
    /// file whole.
    @Test(.hangGuard)
    func aStoppedExportLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SourceDatabase.make(at: folder.path("big.sqlite"), sessions: 3_000) { _ in String(repeating: "a note long enough to take time to write ", count: 20) }.sqlite!.close()
        try folder.write("out.json", "the old file")
        for (round, signal) in [SIGTERM, SIGINT, SIGTERM, SIGHUP, SIGTERM, SIGINT].enumerated() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Checkrun.executable)
            process.arguments = ["export", "--out", "out.json", "--db", "big.sqlite"]
            process.currentDirectoryURL = folder.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(30_000 + round * 40_000))
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!names.contains { $0.hasSuffix(".tmp") }, "round \(round): \(names)")
            let text = try String(contentsOfFile: folder.path("out.json"), encoding: .utf8)
            #expect(text == "the old file" || text.hasSuffix("]}\n"), "the old file or a whole new one")
        }
    }

    /// The database deleted, or another file put in its place, while a walk is open: the walk
    /// said "saved" into the deleted file until the end. It now stops at the next answer and
    /// says why (exit 1), before announcing anything.
    @Test(.hangGuard, arguments: [false, true])
    func aDatabaseDeletedOrReplacedUnderAWalkStopsIt(replaced: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let walk = try PseudoTerminal(["run", "--release", "2.4", "--build", "311", "--device", "D", "--tester", "Ana", "--check", "tiny-target/touch-one-hand",
                                       "--protocols", protocols, "--db", folder.path("db.sqlite")], directory: folder.path)
        try walk.expect("Press Enter")
        walk.sendLine("t 10")
        try walk.expect("Time: 10 seconds.")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.path("db.sqlite" + suffix)) }
        if replaced { try recordOne(folder, db: "db.sqlite") }
        walk.sendLine("9")
        try walk.expect("was deleted, moved or replaced while checkrun had it open")
        #expect(walk.waitForExit() == 1)
        #expect(!walk.output.contains("Expected 1: fail"), "nothing is announced after the file went")
    }
}
