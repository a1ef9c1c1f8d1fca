import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Escape sequences in every value a tester, a database or a file can give: run every command
/// that prints such values on a real terminal and find none of them raw.
@Suite struct HostileTextTests {
    let protocols = Repository.path("protocols")
    static let release = "2.4\u{1B}[2J"
    static let build = "311\u{1B}]0;owned\u{07}"
    static let device = "\u{1B}[31mPhone"
    static let tester = "\r\u{1B}[KMallory"
    static let notes = "\u{1B}[1A\u{1B}[2KVerified: every chain is intact \u{9B}31m"

    /// What a terminal would act on: ESC, BEL, the one-byte CSI, or a carriage return that
    /// does not end a line (the terminal's own line ends are "\r\n").
    func rawControls(_ output: String) -> [String] {
        var found: [String] = []
        let scalars = Array(output.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0x1B, 0x07, 0x9B: found.append(String(format: "U+%04X at %d", scalar.value, index))
            case 0x0D where index + 1 < scalars.count && scalars[index + 1] != "\n": found.append("a lone carriage return at \(index)")
            default: break
            }
        }
        return found
    }

    func onTerminal(_ arguments: [String], in folder: TemporaryFolder, input: String? = nil) throws -> String {
        let terminal = try PseudoTerminal(arguments + ["--protocols", protocols], directory: folder.path, environment: ["NO_COLOR": "1"])
        if let input { for line in input.split(separator: "\n", omittingEmptySubsequences: false) { terminal.sendLine(String(line)) } }
        _ = terminal.waitForExit(timeout: 20)
        return terminal.output
    }

    @Test(.hangGuard)
    func noCommandPrintsAHostileValueRaw() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = ["--release", Self.release, "--build", Self.build, "--device", Self.device]
        try Self.sessionsWithHostileLabels(at: folder.path("checkrun.sqlite"))
        // Evidence with a hostile name and description.
        let shot = "shot\u{1B}[2J.png"
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2]).write(to: URL(fileURLWithPath: folder.path(shot)))
        let attached = try Checkrun.run(["amend"] + base + ["--check", "tiny-target/accessibility-inspector", "--attach", "\(shot)=\(Self.notes)",
                                                            "--reason", Self.notes, "--protocols", protocols], in: folder.path)
        #expect(attached.status == 0, "\(attached.stderr)")
        // A result with a hostile check name, added behind checkrun's back, for verify to name.
        let store = try ResultStore(path: folder.path("checkrun.sqlite"), access: .existingOnly)
        let session = try #require(try store.database.query("SELECT id FROM sessions LIMIT 1") { $0.string(0) }.first ?? nil)
        try store.database.run("INSERT INTO results (id, session_id, check_name, protocol_hash, attempt, verdict, started_at, updated_at) VALUES ('x', ?, ?, 'h', 9, 'pass', 0, 0)",
                               [.text(session), .text("\u{1B}[2K\rVerified: every chain is intact")])
        store.sqlite!.close()

        let commands: [[String]] = [
            ["sessions"], ["sessions", "--release", Self.release],
            ["report", "--release", Self.release], ["report", "--release", Self.release, "--format", "csv"],
            ["report", "--release", Self.release, "--format", "html"], ["report", "--release", Self.release, "--format", "junit"],
            ["report", "--release", Self.release, "--format", "openacr"],
            ["report", "--release", "nope"], ["report", "--release", Self.release, "--build", "nope"],
            ["compare", "--release", Self.release], ["verify"],
            ["amend", "--release", Self.release, "--build", Self.build, "--check", "tiny-target/touch-one-hand", "--notes", Self.notes, "--reason", Self.notes],
            ["export", "--out", "out\u{1B}[2J.json"],
            ["attachments", "--release", Self.release], ["attachments", "--release", Self.release, "--out", "evidence\u{1B}[2J"],
            ["report", "--release", Self.release, "--attachments", "evidence\u{1B}[2J"],
            ["amend", "--release", Self.release, "--build", Self.build, "--check", "tiny-target/accessibility-inspector", "--withdraw", "nope\u{1B}[2J", "--reason", "x"],
            ["record", "--release", Self.release, "--build", Self.build, "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--attach", "nowhere\u{1B}[2J.png"],
            ["record", "--release", Self.release, "--build", Self.build, "--check", "nope\u{1B}[2J", "--verdict", "pass"],
        ]
        for command in commands {
            let output = try onTerminal(command, in: folder)
            #expect(rawControls(output).isEmpty, "\(command.first ?? ""): \(rawControls(output).prefix(3)) in \(output.debugDescription.prefix(600))")
        }
        // A walk may not start under such labels: the refusal shows them neutralised.
        let refused = try onTerminal(["run"] + base + ["--tester", Self.tester, "--check", "tiny-target/touch-one-hand"], in: folder)
        #expect(refused.contains("holds a line break, a control character or a direction control"), "\(refused)")
        #expect(rawControls(refused).isEmpty, "\(rawControls(refused)) in \(refused.debugDescription.prefix(600))")
        // A session that has them is resumed: its header and hints.
        let resumed = try onTerminal(["resume"], in: folder,
                                     // (typed ahead, so the terminal itself echoes them: no one-byte CSI here)
                                     input: "a \(shot)\n\u{1B}[1A\u{1B}[2KVerified\na /nowhere\u{1B}[2J.png\nq\n")
        #expect(resumed.contains("Resuming session") && resumed.contains("Attached shot") && resumed.contains("Not attached"), "\(resumed)")
        #expect(rawControls(resumed).isEmpty, "\(rawControls(resumed)) in \(resumed.debugDescription.prefix(600))")
    }

    /// Sessions whose labels hold escape sequences, written through the store as a checkrun
    /// that did not yet refuse such labels wrote them (or a file merged from one): whole chains.
    static func sessionsWithHostileLabels(at path: String) throws {
        let store = try ResultStore(path: path)
        defer { store.close() }
        let walked: [(build: String, checks: [(name: String, verdict: Verdict)])] = [
            (build, [("tiny-target/touch-one-hand", .fail), ("tiny-target/voice-control-show-numbers", .pass), ("tiny-target/accessibility-inspector", .fail)]),
            ("312\u{1B}[5m", [("tiny-target/touch-one-hand", .pass)]),
        ]
        // The newest, unfinished: what `resume` takes.
        try store.insert(Session(release: release, build: build, device: device, tester: tester, plan: ["tiny-target/touch-one-hand"],
                                 startedAt: Date().addingTimeInterval(60)))
        for (build, checks) in walked {
            let session = Session(release: release, build: build, device: device, tester: tester, plan: checks.map(\.name), startedAt: Date())
            try store.insert(session)
            for (name, verdict) in checks {
                var result = CheckResult(sessionID: session.id, check: name, protocolHash: "h", attempt: 1, outcomeCount: 0)
                result.verdict = verdict
                result.notes = notes
                try store.save(result)
            }
        }
    }

    @Test func aProtocolWithAControlCharacterIsRefusedAtItsPlace() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = try Repository.text("protocols/tiny-target.json").replacingOccurrences(of: "\"Tiny Target\"", with: "\"Tiny \\u001b[31mTarget\"")
        try folder.write("p/tiny-target.json", text)
        let linted = try Checkrun.run(["lint", "p"], in: folder.path)
        #expect(linted.status == 1)
        #expect(linted.stdout.contains("tiny-target.json:4:12: /title: the text holds a control character (U+001B)"), "\(linted.stdout)")
    }

    @Test func idsComeFromVisibleTextOnly() {
        #expect(Slug.make("\u{1B}[31mAccessibility Inspector\u{1B}[0m") == "accessibility-inspector")
        #expect(Slug.make("\u{1B}]0;title\u{07}Switch Control") == "switch-control")
    }
}

/// A note holding a right-to-left override was kept raw in JUnit and OpenACR, which a dashboard
/// or an ACR viewer shows: the text after it displayed reversed. Every format a person reads
/// now shows the direction controls as marks.
@Suite struct DirectionControlTests {
    @Test func aNoteCannotReorderTheTextOfAReportAPersonReads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let protocols = Repository.path("protocols")
        let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--device", "iPhone 15", "--check", "tiny-target/voice-control-show-numbers",
                                         "--expected", "1=fail", "--notes", "numbers \u{202E}pass\u{202C} overlap \u{1B}]0;owned\u{07}", "--protocols", protocols], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        for format in ["markdown", "html", "csv", "junit", "openacr"] {
            let report = try Checkrun.run(["report", "--release", "2.4", "--format", format, "--protocols", protocols], in: folder.path)
            #expect(!report.stdout.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) }, "\(format)")
            #expect(report.stdout.contains("u{202E}pass") && report.stdout.contains("u{202C} overlap"), "\(format): \(report.stdout.suffix(800))")
            // Nor an escape a reader of the format turns back into one (OpenACR's YAML kept `\u001B`).
            #expect(report.stdout.contains("u{1B}") && report.stdout.contains("0;owned") && !report.stdout.contains("\\u001B"), "\(format): \(report.stdout.suffix(800))")
        }
        // JSON keeps them, escaped: a reader of the file sees escapes, a parser the note as typed.
        for command in [["report", "--release", "2.4", "--format", "json"], ["sessions", "--json"]] {
            let json = try Checkrun.run(command + ["--protocols", protocols], in: folder.path)
            #expect(json.status == 0 && !json.stdout.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x80...0x9F).contains($0.value) }, "\(command)")
            if command.contains("report") {
                #expect(json.stdout.contains("numbers \\u202Epass\\u202C overlap \\u001B]0;owned\\u0007"), "\(json.stdout.prefix(2000))")
                let checks = try JSONParser.parse(json.stdout)["checks"]?.arrayValue ?? []
                let notes = checks.compactMap { $0["results"]?.arrayValue?.first?["notes"]?.stringValue }.first
                #expect(notes == "numbers \u{202E}pass\u{202C} overlap \u{1B}]0;owned\u{07}")
            }
        }
        // The product's name stands in OpenACR's title: one line of plain text, as a label is.
        for product in ["Acme\u{1B}[31m", "Acme\nPay", " ", String(repeating: "a", count: 201)] {
            let refused = try Checkrun.run(["report", "--release", "2.4", "--format", "openacr", "--product", product, "--protocols", protocols], in: folder.path)
            #expect(refused.status == 2 && refused.stdout.isEmpty && refused.stderr.contains("--product"), "\(refused.stderr)")
        }
    }
}

/// JUnit's `system-out` tells a testcase's details a line each ("build: 311"): a note of several
/// lines stood in a CI dashboard as details of its own ("build: 999", "amended: verified OK").
@Suite struct JUnitDetailLineTests {
    @Test func aNoteOfSeveralLinesStaysOneDetail() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let protocols = Repository.path("protocols")
        let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--device", "iPhone 15", "--check", "tiny-target/voice-control-show-numbers",
                                         "--expected", "1=fail", "--notes", "Delete fired\nbuild: 999\r\ntester: Compliance Lead\ramended: verified OK by lead", "--protocols", protocols], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let junit = try Checkrun.run(["report", "--release", "2.4", "--format", "junit", "--protocols", protocols], in: folder.path)
        let out = try #require(junit.stdout.components(separatedBy: "<system-out>").first { $0.contains("notes: ") }?.components(separatedBy: "</system-out>").first)
        let lines = out.components(separatedBy: "&#10;")
        #expect(lines.contains("notes: Delete fired / build: 999 / tester: Compliance Lead / amended: verified OK by lead"), "\(lines)")
        #expect(lines.filter { $0.hasPrefix("build: ") } == ["build: 311"] && !lines.contains { $0.hasPrefix("amended:") }, "\(lines)")
    }

    /// A check whose only attempt holds a failed answer but is not finished was "not run in
    /// this release" in JUnit: it was run, and failed. The testcase says what it holds.
    @Test func anUnfinishedFailureIsNotCalledNotRun() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let protocols = Repository.path("protocols")
        let walked = try Checkrun.run(["run", "--release", "1", "--build", "10", "--device", "A", "--tester", "Ana", "--check", "tiny-target/voice-control-show-numbers",
                                       "--protocols", protocols], in: folder.path, input: "t 5\nf numbers overlap\nq\n")
        #expect(walked.status == 0 || walked.status == 1, "\(walked.stderr)")
        let recorded = try Checkrun.run(["record", "--release", "1", "--build", "10", "--device", "A", "--check", "tiny-target/touch-one-hand", "--count", "hits=10",
                                         "--expected", "2=pass", "--protocols", protocols], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let junit = try Checkrun.run(["report", "--release", "1", "--format", "junit", "--protocols", protocols], in: folder.path)
        let testcase = try #require(junit.stdout.components(separatedBy: "<testcase ").first { $0.contains("name=\"voice-control-show-numbers\"") })
        #expect(testcase.contains("<skipped message=\"not finished: attempt 1 (build 10) holds a failed answer; resume session "), "\(testcase)")
        #expect(!testcase.contains("not run in this release"))
    }

    /// A timing over the check's time limit was flagged in Markdown, HTML and JSON, but in
    /// neither CSV nor JUnit, where a CI dashboard reads it.
    @Test func aTimingOverItsLimitIsSaidInCSVAndJUnit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let protocols = Repository.path("protocols")
        for (build, seconds) in [("1", "200"), ("2", "30")] {
            let recorded = try Checkrun.run(["record", "--release", "1", "--build", build, "--device", "A", "--check", "motor-accessibility/switch-control-checkout-time",
                                             "--expected", "1=pass", "--seconds", seconds, "--protocols", protocols], in: folder.path)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let over = try Checkrun.run(["report", "--release", "1", "--build", "1", "--format", "junit", "--protocols", protocols], in: folder.path)
        #expect(over.stdout.contains("time_limit: 60 s, over</system-out>"), "\(over.stdout)")
        let csv = try Checkrun.run(["report", "--release", "1", "--format", "csv", "--protocols", protocols], in: folder.path)
        let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.first?.hasSuffix(",os_version,over_time_limit") == true && rows.dropFirst().first?.hasSuffix(",no") == true, "\(rows)")
    }

    /// Said in whole seconds, 60.4 seconds read "1 minute (limit 1 minute, over)": a time the
    /// same as the limit it was over. Tenths are said at any length, and how far over.
    @Test func aTimingJustOverItsLimitReadsAsOverIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let protocols = Repository.path("protocols")
        for (build, seconds) in [("1", "60.4"), ("2", "60")] {
            let recorded = try Checkrun.run(["record", "--release", "1", "--build", build, "--device", "A", "--check", "motor-accessibility/switch-control-checkout-time",
                                             "--expected", "1=pass", "--seconds", seconds, "--protocols", protocols], in: folder.path)
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        let over = try Checkrun.run(["report", "--release", "1", "--build", "1", "--protocols", protocols], in: folder.path)
        #expect(over.stdout.contains("- Active time: 1 minute 0.4 seconds (limit 1 minute, over by 0.4 seconds)\n"), "\(over.stdout)")
        let within = try Checkrun.run(["report", "--release", "1", "--format", "html", "--protocols", protocols], in: folder.path)
        #expect(within.stdout.contains("<td>1 minute (limit 1 minute)</td>"), "\(within.stdout)")
        let compared = try Checkrun.run(["compare", "--release", "1", "--builds", "1,2", "--protocols", protocols], in: folder.path)
        #expect(compared.stdout.contains("1 minute 0.4 seconds"), "\(compared.stdout)")
        // The CSV keeps tenths, with the places it takes to read as over the limit beside "yes".
        let recorded = try Checkrun.run(["record", "--release", "1", "--build", "3", "--device", "A", "--check", "motor-accessibility/switch-control-checkout-time",
                                         "--expected", "1=pass", "--seconds", "60.04", "--protocols", protocols], in: folder.path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let csv = try Checkrun.run(["report", "--release", "1", "--format", "csv", "--protocols", protocols], in: folder.path)
        let rows = csv.stdout.components(separatedBy: "\r\n").filter { $0.hasPrefix("1,") }
        #expect(rows.map { $0.contains(",60.04,") && $0.hasSuffix(",yes") } == [true], "\(rows)")
        let tenths = try Checkrun.run(["report", "--release", "1", "--build", "2", "--format", "csv", "--protocols", protocols], in: folder.path)
        #expect(tenths.stdout.contains(",60.0,") && tenths.stdout.hasSuffix(",no\r\n"), "\(tenths.stdout)")
    }
}
