import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Results are filed under their session's labels exactly: a label that would file them apart
/// from what the tester meant ("2.4 "), or begin a line of its own in a listing, is refused
/// where it is given, and nothing is stored.
@Suite struct SessionLabelTests {
    let protocols = Repository.path("protocols")

    @Test(arguments: [
        (["--release", "2.4 "], "--release \"2.4 \" begins or ends with a space, which would file results apart from \"2.4\"; give \"2.4\""),
        (["--release", ""], "--release is empty"),
        (["--build", " 311"], "--build \" 311\" begins or ends with a space"),
        (["--device", "iPad\nf00dbabe  release L, build 1, complete"], "--device holds a line break, a control character or a direction control"),
        (["--tester", "Ana\u{1B}[2J"], "--tester holds a line break, a control character or a direction control"),
        (["--os", "18.1\u{202E}"], "--os holds a line break, a control character or a direction control"),
        (["--release", "2.4\u{FFFD}"], "--release holds bytes that are not UTF-8 text"),
        (["--release", "2.4\u{FEFF}"], "--release holds an invisible character (U+FEFF)"),
        (["--device", "iPad\u{200E}"], "--device holds an invisible character (U+200E)"),
        (["--build", "3\u{AD}11"], "--build holds an invisible character (U+AD)"),
        // Lookalikes of "311" that filed a failure apart from `report --build 311`.
        (["--build", "3\u{200D}11"], "--build holds an invisible character (U+200D)"),
        (["--build", "311\u{3164}"], "--build holds an invisible character (U+1160)"),  // as filed (NFKC)
        (["--build", "3\u{2800}11"], "--build holds an invisible character (U+2800)"),
        (["--build", "31\u{FE0F}1"], "--build holds an invisible character (U+FE0F)"),
        (["--build", "311\u{17B4}"], "--build holds an invisible character (U+17B4)"),
    ])
    func recordRefusesALabelThatWouldMisfileOrForgeALine(label: [String], message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var arguments = ["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--protocols", protocols]
        if let at = arguments.firstIndex(of: label[0]) { arguments.removeSubrange(at...at + 1) }
        let recorded = try Checkrun.run(arguments + label, in: folder.path)
        #expect(recorded.status == 2, "\(recorded.stderr)")
        #expect(recorded.stderr.contains(message), "\(recorded.stderr)")
        #expect(!recorded.stderr.contains("\u{1B}") && !recorded.stderr.contains("\nf00dbabe"), "the refusal itself shows the label neutralised")
        #expect(!FileManager.default.fileExists(atPath: folder.path("checkrun.sqlite")), "nothing was stored")
    }

    /// Scripts and emoji that need joiners are labels like any other.
    @Test func labelsInAnyScriptAreTaken() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for device in ["iPhone 15 Pro Max", "آیفون\u{200C}ها", "👩\u{200D}💻 iPad", "Ελληνικά", "❤\u{FE0F} iPad", "क्\u{200D}ष Pixel", "iPad 1\u{FE0F}\u{20E3}", "葛\u{E0100}飾 iPad", "ᠮᠣ\u{180B}ᠩ", "⠃⠗⠁⠊⠇⠇⠑\u{2800}⠙⠊⠎⠏⠇⠁⠽"] {
            let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
                                             "--device", device, "--protocols", protocols], in: folder.path)
            #expect(recorded.status == 0, "\(device): \(recorded.stderr)")
        }
    }

    /// The tester taken from $USER when none is named is taken only when it can be a label.
    @Test func anUnfitUserNameIsNotStored() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
                                         "--protocols", protocols], in: folder.path, environment: ["USER": "ana \u{1B}]0;x\u{07}\nFAKE"])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
        defer { store.close() }
        #expect(try store.sessionSummaries().first?.session.tester == "")
        // Said, in one neutralised line: not filed unnamed without a word.
        #expect(recorded.stderr.contains("checkrun: note: $USER holds a line break, a control character or a direction control")
                && recorded.stderr.contains("It is not taken for the tester, so none is named: name one with --tester NAME."), "\(recorded.stderr)")
        #expect(!recorded.stderr.contains("\u{1B}") && recorded.stderr.split(separator: "\n").count == 1, "\(recorded.stderr)")
        let piped = try Checkrun.run(["run", "--release", "2.4", "--build", "312", "--check", "tiny-target/touch-one-hand", "--protocols", protocols],
                                     in: folder.path, input: "q\n", environment: ["USER": "ana "])
        #expect(piped.stderr.contains("$USER \"ana \" begins or ends with a space"), "\(piped.stderr)")
    }

    @Test func runRefusesALabelWithASpaceAtItsEnd() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Checkrun.run(["run", "--release", "2.4 ", "--build", "311", "--check", "tiny-target/touch-one-hand", "--protocols", protocols],
                                   in: folder.path, input: "")
        #expect(run.status == 2 && run.stderr.contains("--release \"2.4 \" begins or ends with a space"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("checkrun.sqlite")))
    }

    /// A label written before labels were checked (or edited into the file) stays on its line.
    @Test func aLabelHoldingALineBreakStaysOnItsLineInSessionsAndVerify() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try Checkrun.run(["record", "--release", "L", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
                                  "--protocols", protocols], in: folder.path).status == 0)
        let raw = try Database(path: folder.path("checkrun.sqlite"))
        try raw.execute("UPDATE sessions SET device = 'iPad' || char(10) || 'f00dbabe  release L, complete'; UPDATE results SET check_name = 'x' || char(10) || 'forged'")
        raw.close()
        let sessions = try Checkrun.run(["sessions"], in: folder.path)
        #expect(sessions.stdout.split(separator: "\n").count == 1, "\(sessions.stdout)")
        let verified = try Checkrun.run(["verify"], in: folder.path)
        #expect(verified.status == 1)
        #expect(!verified.stdout.split(separator: "\n").contains { $0.hasPrefix("forged") || $0.hasPrefix("f00dbabe") }, "\(verified.stdout)")
    }

    /// "é" typed as one character on one machine and as "e" and an accent on another was two
    /// devices in a report, one in `compare`, and `amend` found only one of them.
    @Test func aLabelTypedInEitherUnicodeFormIsOneLabel() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let composed = "Pixel \u{E9}", decomposed = "Pixel e\u{301}", noBreakSpace = "Pixel\u{A0}\u{E9}"
        for (device, answer) in [(decomposed, ["--expected", "1=fail", "--notes", "numbers overlap"]), (composed, ["--expected", "1=pass"]),
                                 (noBreakSpace, ["--expected", "1=pass"])] {
            let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--device", device, "--check", "tiny-target/voice-control-show-numbers",
                                             "--protocols", protocols] + answer, in: folder.path)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let store = try ResultStore(path: folder.path("checkrun.sqlite"))
        let devices = try store.participants(release: "2.4", build: nil).devices
        store.close()
        #expect(devices.map { Array($0.unicodeScalars) } == [Array(composed.unicodeScalars)], "stored once, composed")
        let report = try Checkrun.run(["report", "--release", "2.4", "--format", "json", "--protocols", protocols], in: folder.path)
        #expect(report.stdout.components(separatedBy: "\"device\": ").count == 2, "one result on one device: \(report.stdout)")
        let amended = try Checkrun.run(["amend", "--release", "2.4", "--build", "311", "--device", composed, "--check", "tiny-target/voice-control-show-numbers",
                                        "--notes", "checked again", "--reason", "context", "--protocols", protocols], in: folder.path)
        #expect(amended.status == 0, "\(amended.stderr)")
        // Full-width digits, as a Japanese input method types them, are filed as release 2.4;
        // a lookup takes a label as typed and names the one filed.
        let filedWide = try Checkrun.run(["record", "--release", "\u{FF12}.4", "--build", "\u{FF13}12", "--check", "tiny-target/voice-control-show-numbers",
                                          "--expected", "1=pass", "--protocols", protocols], in: folder.path)
        #expect(filedWide.status == 0, "\(filedWide.stderr)")
        let builds = try Checkrun.run(["report", "--release", "2.4", "--build", "312", "--format", "json", "--protocols", protocols], in: folder.path)
        #expect(builds.status == 0 && builds.stdout.contains("\"release\": \"2.4\""), "\(builds.stderr)")
        let wide = try Checkrun.run(["report", "--release", "\u{FF12}.4", "--protocols", protocols], in: folder.path)
        #expect(wide.status == 1 && wide.stderr.contains("Did you mean \"2.4\""), "\(wide.stderr)")
    }
}
