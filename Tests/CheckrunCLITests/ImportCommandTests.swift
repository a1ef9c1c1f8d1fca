import CheckrunModel
import CheckrunTestSupport
import Foundation
import Testing

@Suite struct ImportCommandTests {
    let seeds = Repository.path("Tests/Fixtures/seeds")

    @Test func writesProtocolsThatPassLintAndNeverOverwritesWithoutForce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path("protocols")
        let pages = ["000_8e018cc43fb1914c.txt", "001_505cf892b4e0d64b.txt", "003_57918516d2719cbd.txt", "004_2959898c3ab0ac2f.txt"].map { "\(seeds)/\($0)" }
        let first = try Checkrun.run(["import"] + pages + ["--out", out])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Wrote \(out)/tiny-target.json: Tiny Target, 3 checks, status ready."))
        #expect(first.stderr.contains("warning: \"Check:\" sentence imported as draft check \"decision-1\""))
        let lint = try Checkrun.run(["lint", out])
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stderr.contains("4 files checked, no problems."))

        let written = try String(contentsOfFile: "\(out)/tiny-target.json", encoding: .utf8)
        let again = try Checkrun.run(["import", "\(seeds)/001_505cf892b4e0d64b.txt", "--out", out])
        #expect(again.status == 1)
        #expect(again.stderr.contains("tiny-target.json exists already; pass --force to overwrite it"))
        #expect(again.stderr.contains("nothing was written"))
        let forced = try Checkrun.run(["import", "\(seeds)/001_505cf892b4e0d64b.txt", "--out", out, "--force"])
        #expect(forced.status == 0)
        #expect(try String(contentsOfFile: "\(out)/tiny-target.json", encoding: .utf8) == written, "same page, same ids, same file")
    }

    /// A link whose file is missing was taken for nothing there: the protocol was written
    /// where it pointed, outside the folder, without --force and without a word.
    @Test func aLinkWhereAProtocolWouldGoIsSomethingThere() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("out/tiny-target.json"), withDestinationPath: folder.path("outside.json"))
        let refused = try Checkrun.run(["import", "\(seeds)/001_505cf892b4e0d64b.txt", "--out", folder.path("out")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("tiny-target.json exists already, as a link to \(folder.path("outside.json")); pass --force"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("outside.json")))
    }

    @Test func dryRunPrintsJSONAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try Checkrun.run(["import", "\(seeds)/004_2959898c3ab0ac2f.txt", "--dry-run", "--out", folder.path("out")])
        #expect(result.status == 0)
        let document = try JSONParser.parse(result.stdout)
        #expect(document["id"]?.stringValue == "over-grouped-control")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test func aPageWithoutChecksFailsAndNothingIsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path("out")
        let result = try Checkrun.run(["import", "\(seeds)/001_505cf892b4e0d64b.txt", "\(seeds)/002_a83402323fac066f.txt", "--out", out])
        #expect(result.status == 1)
        #expect(result.stderr.contains("002_a83402323fac066f.txt: no check found"))
        #expect(!FileManager.default.fileExists(atPath: "\(out)/tiny-target.json"), "one bad page writes nothing")
    }

    @Test func badPagesGetClearErrors() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let noTask = try folder.write("no-task.md", "# Page\n\n**Profile:** VoiceOver\n**Expected:** it works\n")
        let binary = try folder.write("image.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let result = try Checkrun.run(["import", noTask, binary, "/no/such/page.txt", "--out", folder.path("out")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no-task.md:3: the Profile \"VoiceOver\" has no Task"))
        #expect(result.stderr.contains("image.png: not UTF-8 text"))
        #expect(result.stderr.contains("/no/such/page.txt: cannot read the page (no such file)"))
        #expect(!result.stderr.contains("Fatal error"))
    }

    /// Each mistake is named with the fix that works (a folder as the target once advised a
    /// file inside it, which import never writes; a NUL was "not UTF-8", with no line).
    @Test func eachMistakeIsNamedWithAFixThatWorks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = try folder.write("page.txt", "Crlf Page\nProfile: VoiceOver\nTask: a\nExpected: b\n")
        let nul = try folder.write("nul.txt", "Nul Page\nProfile: Voice\u{0}Over\nTask: a\nExpected: b\n")
        let crNul = try folder.write("cr-nul.txt", "Nul Page\rProfile: VoiceOver\r\nTask: a\rExpected: b\u{0}\r")
        let japanese = try folder.write("ja.txt", "日本語のページ\nProfile: VoiceOver\nTask: a\nExpected: b\n")
        let utf16 = try folder.write("utf16.txt", bytes: Array("Page\nProfile: VoiceOver\nTask: a\nExpected: b\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        try FileManager.default.createDirectory(atPath: folder.path("out/crlf-page.json"), withIntermediateDirectories: true)
        let marked = try folder.write("marked-nul.txt", "Nul Page\nProfile: VoiceOver\nTask: a\u{0}\u{301}\nExpected: b\n")
        let said = try Checkrun.run(["import", page, nul, crNul, marked, japanese, utf16, folder.path("out"), "", "--out", folder.path("out"), "--force"])
        #expect(said.status == 1)
        for message in ["out/crlf-page.json is a folder where the protocol from \(page) would be written; move it aside, or import into another folder with --out DIR",
                        "nul.txt:2: a NUL character (a zero byte), which is no text; remove it",
                        "cr-nul.txt:4: a NUL character (a zero byte), which is no text; remove it",
                        "marked-nul.txt:3: a NUL character (a zero byte), which is no text; remove it",
                        "an id is made of the Latin letters a to z and digits, and the title has none",
                        "\(folder.path("out")) is a folder; name the page files in it, e.g. \(folder.path("out"))/*.md",
                        "an empty path was given as a page; name each page file",
                        "utf16.txt: not UTF-8 text (a zero byte in every other place, as UTF-16 text has)"] {
            #expect(said.stderr.contains(message), "\(message) in \(said.stderr)")
        }
        let lint = try Checkrun.run(["lint", ""])
        #expect(lint.status == 2 && lint.stderr.contains("an empty path was given; name a protocol folder or file"), "\(lint.stderr)")
    }

    /// A protocol a page made that fails lint was said at a line of its JSON file, a file never
    /// written (and for a long title, named by the 300-character id): said at the page's line.
    @Test func aProtocolThatFailsLintIsSaidAtThePagesLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let long = try folder.write("long.txt", String(repeating: "Long ", count: 40) + "\n\nProfile: VoiceOver\nTask: a\nExpected: b\n")
        let bell = try folder.write("bell.txt", "Bell\n\nProfile: VoiceOver\nTask: a\nExpected: b\n\nProfile: Voice\u{7}Control\nTask: c\nExpected:\n  - d\n  - e\u{7}\n")
        let said = try Checkrun.run(["import", long, bell, "--out", folder.path("out")])
        #expect(said.status == 1)
        #expect(said.stderr.contains("\(long):1: the protocol made from this page does not pass lint: /id: is too long: 199 characters, at most 100 (the id is made from the page's title: shorten the title)"), "\(said.stderr)")
        #expect(said.stderr.contains("\(bell):7: the protocol made from this page does not pass lint: /checks/1/profile: the text holds a control character (U+0007)"), "\(said.stderr)")
        #expect(said.stderr.contains("\(bell):11: the protocol made from this page does not pass lint: /checks/1/expected/1: the text holds a control character (U+0007)"), "\(said.stderr)")
        #expect(!said.stderr.contains(".json:"), "\(said.stderr)")
        let good = try folder.write("good.txt", "Good\n\nProfile: VoiceOver\nTask: a\nExpected: b\n")
        let intoFile = try Checkrun.run(["import", good, "--out", long])
        #expect(intoFile.status == 2 && intoFile.stderr.contains("--out \(long) is a file, not a folder; choose a folder with --out DIR"), "\(intoFile.stderr)")
        // A folder asked for inside a file is the same mistake, said the same way.
        let underFile = try Checkrun.run(["import", good, "--out", long + "/sub/deeper"])
        #expect(underFile.status == 2 && underFile.stderr.contains("--out \(long)/sub/deeper: \(long) is a file, not a folder, so no folder can be made in it"), "\(underFile.stderr)")
        try FileManager.default.createSymbolicLink(atPath: folder.path("dangling"), withDestinationPath: folder.path("nowhere"))
        let intoNothing = try Checkrun.run(["import", good, "--out", folder.path("dangling")])
        #expect(intoNothing.status == 1 && !intoNothing.stderr.contains("Created the folder"), "\(intoNothing.stderr)")
        #expect(intoNothing.stderr.contains("--out \(folder.path("dangling")) is a link to \(folder.path("nowhere")), which is not a folder and could not be made one"), "\(intoNothing.stderr)")
    }

    /// An import holds a temporary file a page until every page is written; only the first 32
    /// were removed when it was stopped, and one made as the signal came was left behind.
    @Test func anImportStoppedWhileWritingLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let checks = (0..<200).map { "Profile:   VoiceOver \($0)\nTask:      do \($0) with a task\nExpected:  outcome \($0) one\n           outcome \($0) two" }.joined(separator: "\n")
        let pages = try (0..<120).map { page in
            try folder.write("pages/page-\(page).txt", "Page Number \(page)\n\nStatus: ready\n\nCheck\n\n\(checks)\n")
            return folder.path("pages/page-\(page).txt")
        }
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        for signalNumber in [SIGTERM, SIGINT] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Checkrun.executable)
            process.arguments = ["import"] + pages + ["--out", folder.path("out"), "--force"]
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let temporary = { (try? FileManager.default.contentsOfDirectory(atPath: folder.path("out")))?.filter { $0.hasSuffix(".tmp") } ?? [] }
            var caught = false
            while process.isRunning && !caught {
                if !temporary().isEmpty { kill(process.processIdentifier, signalNumber); caught = true } else { usleep(1_000) }
            }
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(caught, "the import ended before a temporary file was seen: the test proves nothing")
            #expect(temporary().isEmpty, "\(temporary().count) left after \(signalNumber)")
            // Stopped, it says so, and what it says is true: no protocol, or every one.
            let written = (try? FileManager.default.contentsOfDirectory(atPath: folder.path("out")))?.filter { $0.hasSuffix(".json") } ?? []
            #expect(process.terminationStatus == 130, "\(signalNumber): \(process.terminationStatus)")
            if written.isEmpty {
                #expect(said.contains("Import stopped; no protocol was written."), "\(said)")
            } else {
                #expect(written.count == 120 && !said.contains("no protocol was written"), "\(written.count) written; \(said)")
            }
        }
    }
}
