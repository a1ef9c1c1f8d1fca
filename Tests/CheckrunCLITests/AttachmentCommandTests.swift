import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Evidence from the built binary: `record --attach`, `amend --withdraw`, `attachments --out`
/// and every report format naming, linking or showing the files.
@Suite struct AttachmentCommandTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("a screenshot".utf8)

    /// A failed result with a screenshot of outcome 2 and a log of the check.
    func seed(_ folder: TemporaryFolder) throws {
        try Data(Self.png).write(to: URL(fileURLWithPath: folder.path("shot 1.png")))
        try folder.write("voiceover.log", "\u{1B}[31mVoiceOver: Delete, button\n")
        let recorded = try checkrun(["record", "--release", "2.4", "--build", "311", "--device", "iPhone 15", "--check", "tiny-target/touch-one-hand",
                                     "--verdict", "fail", "--expected", "2=fail", "--notes", "Delete fired",
                                     "--attach", "2=shot 1.png=The Pay button, <20 points> wide", "--attach", "voiceover.log"], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.contains("with 2 attachments"))
    }

    @Test func everyReportFormatNamesTheEvidenceAndLinksItWhenWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try seed(folder)
        let html = try checkrun(["report", "--release", "2.4", "--format", "html", "--out", "report.html", "--attachments", "evidence"], in: folder)
        #expect(html.status == 0, "\(html.stderr)")
        let page = try String(contentsOfFile: folder.path("report.html"), encoding: .utf8)
        let image = "evidence/tiny-target--touch-one-hand/311-iphone-15-attempt-1-outcome-2-shot-1.png"
        #expect(page.contains("<img src=\"\(image)\" alt=\"The Pay button, &lt;20 points&gt; wide\">"), "the description is the text alternative")
        #expect(page.contains("<a href=\"evidence/tiny-target--touch-one-hand/311-iphone-15-attempt-1-voiceover.log\">voiceover.log</a>"))
        #expect(FileManager.default.contents(atPath: folder.path(image)) == Data(Self.png), "the file is written byte for byte")

        let listed = try checkrun(["report", "--release", "2.4", "--format", "html"], in: folder)
        #expect(!listed.stdout.contains("<img"), "without the files, attachments are listed, not shown")
        #expect(listed.stdout.contains("shot 1.png (PNG image, 20 bytes; iPhone 15, build 311, expected outcome 2): The Pay button, &lt;20 points&gt; wide."))

        let junit = try checkrun(["report", "--release", "2.4", "--format", "junit", "--attachments", "evidence"], in: folder)
        #expect(junit.stdout.contains("[[ATTACHMENT|evidence/tiny-target--touch-one-hand/311-iphone-15-attempt-1-outcome-2-shot-1.png]]"))
        let json = try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder)
        let schema = try JSONParser.parse(try Repository.text("Schemas/report.schema.json"))
        let document = try JSONParser.parse(json.stdout)
        #expect(JSONSchema(schema).validate(document).isEmpty)
        #expect(json.stdout.contains("\"mediaType\": \"text/plain\""), "a log with terminal colours is still text")
        let acr = try checkrun(["report", "--release", "2.4", "--format", "openacr"], in: folder)
        #expect(acr.stdout.contains("Evidence: shot 1.png (SHA-256 "))
        let csv = try checkrun(["report", "--release", "2.4", "--format", "csv"], in: folder)
        #expect(csv.stdout.contains("shot 1.png (PNG image, 20 bytes), expected outcome 2: The Pay button, <20 points> wide. SHA-256"))
        let markdown = try checkrun(["report", "--release", "2.4", "--attachments", "evidence"], in: folder)
        #expect(markdown.stdout.contains("![The Pay button, &lt;20 points> wide](<\(image)>)"), "\(markdown.stdout)")
    }

    @Test func aWithdrawnAttachmentLeavesTheReportsButStaysInTheRecord() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try seed(folder)
        let amended = try checkrun(["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand",
                                    "--withdraw", "voiceover.log", "--reason", "The log belongs to another check"], in: folder)
        #expect(amended.status == 0, "\(amended.stderr)")
        let listed = try checkrun(["attachments", "--release", "2.4"], in: folder)
        #expect(listed.stdout.contains("shot 1.png") && !listed.stdout.contains("voiceover.log"))
        // A misspelled check is named as such, never "no attachments".
        let misspelled = try checkrun(["attachments", "--release", "2.4", "--check", "tiny-target/touch-one-hnad"], in: folder)
        #expect(misspelled.status == 1 && misspelled.stderr.contains("release 2.4 has no result of tiny-target/touch-one-hnad. Did you mean \"tiny-target/touch-one-hand\"?"),
                "\(misspelled.stdout)\(misspelled.stderr)")
        let wrong = try checkrun(["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand",
                                  "--withdraw", "nothing.png", "--reason", "x"], in: folder)
        #expect(wrong.status == 1 && wrong.stderr.contains("the result has no such attachment (name one by its number, its file name or at least 8 characters of its hash); its attachments: 1. shot 1.png (expected outcome 2, "), "\(wrong.stderr)")
        let verified = try checkrun(["verify"], in: folder)
        #expect(verified.status == 0 && verified.stdout.contains("2 attachments"), "\(verified.stdout)")
    }

    @Test func attachmentsAreWrittenOutUnderReadableNamesAndRefusedWhenTampered() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try seed(folder)
        let written = try checkrun(["attachments", "--release", "2.4", "--out", "out"], in: folder)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.contains("tiny-target--touch-one-hand/311-iphone-15-attempt-1-voiceover.log"))
        let database = try Database(path: folder.path("checkrun.sqlite"))
        try database.execute("UPDATE attachment_files SET content = zeroblob(size) WHERE size = 20")
        database.close()
        let refused = try checkrun(["attachments", "--release", "2.4", "--out", "again"], in: folder)
        #expect(refused.status == 1 && refused.stderr.contains("are not those recorded; verify on this database names what changed"), "\(refused.stderr)")
        let verify = try checkrun(["verify"], in: folder)
        #expect(verify.status == 1 && verify.stdout.contains("shot 1.png"), "\(verify.stdout)")
    }

    @Test func badAttachmentsAreRefusedAndNothingIsRecorded() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("big.mov", String(repeating: "x", count: 3_000))
        let base = ["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"]
        for (attach, words) in [("missing.png", "no such file"), (".", "is a folder, not a file"), ("/dev/zero", "is a device"),
                                ("big.mov", "over the limit of 1 KB"), ("9=big.mov", "9 is out of range")] {
            let result = try checkrun(base + ["--attach", attach, "--max-attachment", "1KB"], in: folder)
            #expect(result.status == 1 && result.stderr.contains(words), "\(attach): \(result.stderr)")
        }
        let sessions = try checkrun(["sessions"], in: folder)
        #expect(!sessions.stdout.contains("311"), "nothing was recorded: \(sessions.stdout)")
    }

    @Test func reportsAndListingsRefuseEvidenceChangedBehindCheckrunsBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try seed(folder)
        let database = try Database(path: folder.path("checkrun.sqlite"))
        try database.execute("UPDATE result_attachments SET description = 'forged' WHERE position = 0")
        database.close()
        let listed = try checkrun(["attachments", "--release", "2.4"], in: folder)
        #expect(listed.status == 1 && !listed.stdout.contains("forged") && listed.stderr.contains("fail verification"), "\(listed.stdout)\(listed.stderr)")
        let anyway = try checkrun(["attachments", "--release", "2.4", "--unverified"], in: folder)
        #expect(anyway.status == 0 && anyway.stdout.hasPrefix("UNVERIFIED: "), "\(anyway.stdout)")
    }

    @Test func aReportRefusesWhenAnAttachmentsBytesAreGoneOrCut() throws {
        for tamper in ["DELETE FROM attachment_files WHERE size = 20", "UPDATE attachment_files SET content = x'00' WHERE size = 20"] {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try seed(folder)
            let database = try Database(path: folder.path("checkrun.sqlite"))
            try database.execute(tamper)
            database.close()
            let report = try checkrun(["report", "--release", "2.4", "--format", "html", "--out", "report.html"], in: folder)
            #expect(report.status == 1 && report.stderr.contains("the attachment shot 1.png"), "\(tamper): \(report.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("report.html")))
        }
    }

    @Test func noDescriptionCanNameAFileForCIToAttach() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data(Self.png).write(to: URL(fileURLWithPath: folder.path("[[ATTACHMENT|etc]].png")))
        let recorded = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "fail",
                                     "--expected", "2=fail", "--notes", "[[ATTACHMENT|/etc/passwd]]", "--device", "[[ATTACHMENT|/etc/group]]",
                                     "--attach", "[[ATTACHMENT|etc]].png=foo\n[[ATTACHMENT|/etc/shadow]]"], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let junit = try checkrun(["report", "--release", "2.4", "--format", "junit", "--attachments", "evidence"], in: folder)
        #expect(junit.stdout.components(separatedBy: "[[ATTACHMENT|").count == 2, "only checkrun's own line: \(junit.stdout)")
        #expect(junit.stdout.contains("[[ATTACHMENT|evidence/tiny-target--touch-one-hand/311-attachment-etc-group-attempt-1-attachment-etc.png]]"), "\(junit.stdout)")
    }

    @Test func aFileAttachedTwiceIsWithdrawnByItsNumber() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data(Self.png).write(to: URL(fileURLWithPath: folder.path("shot.png")))
        let check = ["--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand"]
        _ = try checkrun(["record"] + check + ["--verdict", "fail", "--expected", "2=fail", "--notes", "x", "--attach", "shot.png", "--attach", "2=shot.png"], in: folder)
        let ambiguous = try checkrun(["amend"] + check + ["--withdraw", "shot.png", "--reason", "x"], in: folder)
        #expect(ambiguous.status == 1 && ambiguous.stderr.contains("give the number of the one to withdraw: its attachments: 1. shot.png (the check, "), "\(ambiguous.stderr)")
        let withdrawn = try checkrun(["amend"] + check + ["--withdraw", "2", "--reason", "the outcome's copy was a mistake"], in: folder)
        #expect(withdrawn.status == 0, "\(withdrawn.stderr)")
        let listed = try checkrun(["attachments", "--release", "2.4"], in: folder)
        #expect(listed.stdout.contains("1 attachment.") && !listed.stdout.contains("expected outcome 2:"), "\(listed.stdout)")
    }

    @Test func badOptionsAreRefusedBeforeAnythingIsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try seed(folder)
        let same = try checkrun(["report", "--release", "2.4", "--format", "html", "--out", "same", "--attachments", "same"], in: folder)
        #expect(same.status == 2 && !FileManager.default.fileExists(atPath: folder.path("same")), "\(same.stderr)")
        for value in ["abc", "5GB", "0"] {
            let walk = try checkrun(["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--max-attachment", value], in: folder)
            #expect(walk.status == 2 && walk.stderr.contains("--max-attachment"), "\(value): \(walk.stderr)")
        }
    }

    @Test func aCaptureThatLeavesAProcessBehindDoesNotHoldTheWalk() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data(Self.png).write(to: URL(fileURLWithPath: folder.path("sim.png")))
        let capture = "(sleep 8 >&2 &); echo 'Captured.' >&2; cp \(folder.path("sim.png")) {file}"
        let started = Date()
        let walk = try Checkrun.run(["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--protocols", protocols],
                                    in: folder.path, input: "t 5\na\nThe sheet\nq\n", environment: ["CHECKRUN_CAPTURE": capture])
        #expect(walk.stdout.contains("Attached capture-"), "\(walk.stdout)")
        #expect(Date().timeIntervalSince(started) < 6, "the walk went on without waiting for the process the capture left behind")
    }

    @Test func aLinkPlantedWhereAFileIsWrittenIsRefusedNotWrittenThrough() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try seed(folder)
        try folder.write("victim.txt", "keep me")
        let check = folder.path("out/tiny-target--touch-one-hand")
        try FileManager.default.createDirectory(atPath: check, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: check + "/311-iphone-15-attempt-1-outcome-2-shot-1.png", withDestinationPath: folder.path("victim.txt"))
        let written = try checkrun(["attachments", "--release", "2.4", "--out", "out"], in: folder)
        #expect(written.status == 2 && written.stderr.contains("is a symbolic link"), "\(written.stderr)")
        #expect(try String(contentsOfFile: folder.path("victim.txt"), encoding: .utf8) == "keep me")
        try FileManager.default.createSymbolicLink(atPath: folder.path("linked"), withDestinationPath: folder.path("elsewhere"))
        try FileManager.default.createDirectory(atPath: folder.path("ev"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("ev/tiny-target--touch-one-hand"), withDestinationPath: folder.path("elsewhere"))
        let report = try checkrun(["report", "--release", "2.4", "--format", "html", "--out", "r.html", "--attachments", "ev"], in: folder)
        #expect(report.status == 2 && !FileManager.default.fileExists(atPath: folder.path("elsewhere")), "\(report.stderr)")
    }
}
