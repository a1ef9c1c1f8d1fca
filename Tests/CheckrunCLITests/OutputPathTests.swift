import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Paths a user may type by mistake: none of them may cost a file or a folder, and every
/// command that writes a file writes it whole or not at all.
@Suite struct OutputPathTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: String, input: String? = nil) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder, input: input)
    }

    /// A folder holding a database with one result, a README and a subfolder, inside a parent
    /// folder with a file of its own: everything an `--out` mistake could destroy.
    func workspace() throws -> (root: TemporaryFolder, work: String) {
        let root = try TemporaryFolder()
        try root.write("keep.txt", "the parent's file")
        try root.write("work/README.md", "# readme")
        try root.write("work/sub/inner.txt", "inner")
        let work = root.path("work")
        let recorded = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"], in: work)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        return (root, work)
    }

    func snapshot(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            let path = (folder as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue, !name.hasSuffix("-shm"), !name.hasSuffix("-wal") {
                files[name] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    @Test(arguments: ["..", ".", "sub", "sub/", "./", "../work", ""])
    func anOutPathThatNamesAFolderIsRefusedAndNothingIsTouched(out: String) throws {
        let (root, work) = try workspace()
        defer { root.remove() }
        let before = snapshot(root.path)
        for command in [["export", "--out", out], ["report", "--release", "2.4", "--out", out], ["compare", "--release", "2.4", "--out", out]] {
            let result = try checkrun(command, in: work)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(out.isEmpty ? "the output path is empty" : "a folder; name a file"), "\(command): \(result.stderr)")
            // The file offered is the command's own kind of output.
            #expect(result.stderr.contains(command[0] == "export" ? "export.json" : command[0] == "compare" ? "compare.md" : "report.md"), "\(result.stderr)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Backtrac"))
        }
        #expect(snapshot(root.path) == before, "nothing in or above the folder changed")
    }

    /// The commands that write into a folder: an empty one is a usage error, never the
    /// system's own message.
    @Test(arguments: [["attachments", "--release", "2.4", "--out", ""], ["import", "page.txt", "--out", ""]])
    func anEmptyOutFolderIsAUsageError(command: [String]) throws {
        let (root, work) = try workspace()
        defer { root.remove() }
        let result = try checkrun(command, in: work)
        #expect(result.status == 2 && result.stderr.contains("--out needs a folder, e.g. --out "), "\(command): \(result.stderr)")
    }

    @Test func aReaderAlwaysFindsTheOldFileOrTheNewOneWhole() throws {
        let (root, work) = try workspace()
        defer { root.remove() }
        #expect(try checkrun(["export", "--out", "out.json"], in: work).status == 0)
        let path = (work as NSString).appendingPathComponent("out.json")
        let complete = Flag()
        let missing = Counter(), partial = Counter(), polls = Counter()
        let poller = Thread {
            while !complete.isSet {
                polls.add()
                guard let data = FileManager.default.contents(atPath: path) else { missing.add(); continue }
                if !data.starts(with: Data("{".utf8)) || !String(decoding: data, as: UTF8.self).hasSuffix("]}\n") { partial.add() }
            }
        }
        poller.start()
        for _ in 0..<20 { _ = try checkrun(["export", "--out", "out.json"], in: work) }
        complete.set()
        Thread.sleep(forTimeInterval: 0.05)
        #expect(polls.value > 100)
        #expect(missing.value == 0, "the file was missing in \(missing.value) of \(polls.value) polls")
        #expect(partial.value == 0, "the file was half written in \(partial.value) of \(polls.value) polls")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work).filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty, "no temporary file is left behind: \(leftovers)")
    }

    @Test func anEmptyDatabasePathIsRefused() throws {
        let (root, work) = try workspace()
        defer { root.remove() }
        for form in [["--db", ""], ["--db="], ["--db", ":memory:"]] {
            let result = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"] + form, in: work)
            #expect(result.status == 2, "\(form): \(result.stderr)")
            #expect(result.stderr.contains("--db needs a file name"))
            #expect(!result.stdout.contains("Recorded"))
        }
        for command in [["list"], ["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"]] {
            let result = try Checkrun.run(command + ["--protocols", ""], in: work)
            #expect(result.status == 2 && result.stderr.contains("--protocols needs a folder"), "\(command): \(result.stderr)")
        }
    }

    @Test func aFolderAsTheDatabaseOrAsAMergeSourceIsAnErrorNotACrash() throws {
        let (root, work) = try workspace()
        defer { root.remove() }
        let asDatabase = try checkrun(["sessions", "--db", "sub"], in: work)
        #expect(asDatabase.status == 1)
        #expect(asDatabase.stderr.contains("sub is a folder; name a database file"), "\(asDatabase.stderr)")
        let asWritable = try checkrun(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", "sub"], in: work)
        #expect(asWritable.status == 1)
        #expect(asWritable.stderr.contains("sub is a folder"))
        let asSource = try checkrun(["merge", "sub"], in: work)
        #expect(asSource.status == 1)
        #expect(asSource.stderr.contains("sub is a folder; name a checkrun database"), "\(asSource.stderr)")
    }

    @Test func commandsThatOnlyReadNeverCreateADatabase() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let reads: [[String]] = [
            ["verify", "--db", "team.sqlit"], ["report", "--release", "2.4"], ["compare", "--release", "2.4"],
            ["sessions"], ["export", "--out", "x.json"], ["resume"],
            ["amend", "--release", "2.4", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--reason", "r"],
        ]
        for command in reads {
            let result = try checkrun(command, in: folder.path)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("no checkrun database at"), "\(command): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no file was left behind")
    }

    @Test func importWritesEveryFileOrNone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let seeds = Repository.path("Tests/Fixtures/seeds")
        let pages = ["001_505cf892b4e0d64b.txt", "003_57918516d2719cbd.txt", "004_2959898c3ab0ac2f.txt"].map { seeds + "/" + $0 }
        // The second of three targets is a folder: nothing at all may be written.
        try FileManager.default.createDirectory(atPath: folder.path("out/system-gesture-safe-zone.json"), withIntermediateDirectories: true)
        let imported = try Checkrun.run(["import"] + pages + ["--out", "out", "--force"], in: folder.path)
        #expect(imported.status == 1, "\(imported.stderr)")
        #expect(imported.stderr.contains("is a folder") && imported.stderr.contains("nothing was written"), "\(imported.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path("out"))
        #expect(written == ["system-gesture-safe-zone.json"], "only the folder that was there: \(written)")
        // With the folder gone, all three are written.
        try FileManager.default.removeItem(atPath: folder.path("out/system-gesture-safe-zone.json"))
        #expect(try Checkrun.run(["import"] + pages + ["--out", "out"], in: folder.path).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).count == 3)
    }
    /// One-character names: Foundation's folder-of-a-path trapped on them, so a database named
    /// `x` could be walked and recorded into but never listed, verified, reported or merged.
    /// `--out -` is refused rather than making a file named "-".
    @Test func oneCharacterNamesWorkAndAnOutOfDashIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let record = ["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", "x"]
        #expect(try checkrun(record, in: folder.path).status == 0)
        for command in [["sessions"], ["verify"], ["report", "--release", "1", "--out", "r"], ["export", "--out", "e"], ["attachments", "--release", "1"]] {
            let ran = try checkrun(command + ["--db", "x"], in: folder.path)
            #expect(ran.status == 0 && !ran.stderr.contains("crashed"), "\(command): \(ran.stderr)")
        }
        #expect(try checkrun(["merge", "x", "--db", "y"], in: folder.path).status == 0)
        #expect(try checkrun(["report", "--release", "1", "--db", "y"], in: folder.path).stdout.contains("1 passed"))
        for command in [["report", "--release", "1", "--out", "-"], ["export", "--out", "-"], ["attachments", "--release", "1", "--out", "-"],
                        ["report", "--release", "1", "--attachments", "-"], ["sessions", "--db", "-"]] {
            let dash = try checkrun(command + (command.contains("--db") ? [] : ["--db", "x"]), in: folder.path)
            #expect(dash.status == 2 && dash.stderr.contains("would name a file or folder called \"-\""), "\(command): \(dash.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("-")))
    }

}

/// Thread-safe test helpers for the polling reader.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

extension OutputPathTests {
    /// Standard output that cannot be written (a full disk, here `/dev/full`): a report cut
    /// short passed a CI gate with exit 0; every command now says so and exits 1, and a gate
    /// does not say "exiting with status 3" of a report that never reached its reader.
    @Test(arguments: [["report", "--release", "2.4", "--fail-on-failure"], ["compare", "--release", "2.4", "--fail-on-regression"],
                      ["report", "--release", "2.4", "--format", "junit"], ["sessions"], ["--version"]])
    func standardOutputThatCannotBeWrittenIsAnError(command: [String]) throws {
        let (root, work) = try workspace()
        defer { root.remove() }
        let failed = try checkrun(["record", "--release", "2.4", "--build", "312", "--check", "tiny-target/touch-one-hand", "--verdict", "fail", "--expected", "2=fail", "--notes", "Delete fired"], in: work)
        #expect(failed.status == 0, "\(failed.stderr)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Checkrun.executable)
        process.arguments = command + (command == ["--version"] ? [] : ["--protocols", protocols])
        process.currentDirectoryURL = URL(fileURLWithPath: work)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(command): \(said)")
        #expect(said.contains("standard output could not be written in full (no space left on device)"), "the reason, though the write failed long before the end: \(said)")
        #expect(!said.contains("exiting with status 3"), "\(said)")
    }
}
