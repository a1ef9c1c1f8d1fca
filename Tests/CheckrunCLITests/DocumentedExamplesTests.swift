import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Every example `--help` prints and every command the README shows, run as printed by a
/// shell, with an installed `checkrun` on the PATH: a changed option, a renamed check or a stale
/// session id in the documentation fails here. A documented example missing from
/// `DocumentedExamples.scenario`, or one there that is no longer documented, fails too.
@Suite(.serialized) struct DocumentedExamplesTests {
    @Test func everyDocumentedExampleIsRunHere() throws {
        let documented = try DocumentedExamples.fromHelp() + DocumentedExamples.fromReadme()
        let covered = Set(DocumentedExamples.scenario.filter { !$0.setup }.map(\.command))
        let uncovered = Set(documented).subtracting(covered)
        let stale = covered.subtracting(documented)
        #expect(uncovered.isEmpty, "documented but not run by this test: \(uncovered.sorted())")
        #expect(stale.isEmpty, "run by this test but documented nowhere: \(stale.sorted())")
    }

    @Test func everyDocumentedExampleWorksAsPrinted() throws {
        let place = try ExampleFolder()
        defer { place.folder.remove() }
        try place.addSessionsTheExamplesResume()
        for step in DocumentedExamples.scenario {
            let result = try place.shell(step.command, input: step.input)
            #expect(result.status == step.status, "\(step.command)\nexit \(result.status)\n\(result.stdout)\(result.stderr)")
            #expect(!result.stderr.contains("Usage:") && !result.stderr.contains("unknown option"), "\(step.command)\n\(result.stderr)")
            for expected in step.says {
                #expect((result.stdout + result.stderr).contains(expected), "\(step.command) says \(expected)\n\(result.stdout)\(result.stderr)")
            }
        }
    }

    /// The README's transcript, line for line: only the session's id differs from run to run.
    @Test func theReadmeTranscriptIsWhatCheckrunPrints() throws {
        let place = try ExampleFolder()
        defer { place.folder.remove() }
        let readme = try Repository.text("README.md")
        let block = try #require(readme.components(separatedBy: "```text\n$ ").dropFirst().first?.components(separatedBy: "\n```").first)
        var lines = block.components(separatedBy: "\n")
        let command = lines.removeFirst()
        let result = try place.shell(command, input: nil)
        #expect(result.status == 0, "\(result.stderr)")
        let shown = try #require(result.stdout.firstMatch(of: /Session ([0-9a-f]{8}) started/)?.1)
        // The transcript shows each piped answer after "> ", as a terminal would echo it.
        let printed = result.stdout.replacingOccurrences(of: String(shown), with: "28100dc5")
        let expected = lines.joined(separator: "\n") + "\n"
        #expect(printed == expected)
    }
}

/// A folder set up as a newcomer's would be: the repository's protocols, a catalog page in
/// both formats, a home folder, and `checkrun` installed on the PATH (a copy outside `.build`,
/// so hints read `checkrun …` as the README prints them).
struct ExampleFolder {
    let folder: TemporaryFolder
    let environment: [String: String]

    init() throws {
        folder = try TemporaryFolder()
        let files = FileManager.default
        try files.createDirectory(atPath: folder.path("bin"), withIntermediateDirectories: true)
        // A link, not a copy: a copy is a file opened for writing, and a process another test
        // starts at that moment inherits the descriptor, so running the copy failed now and
        // then with "Text file busy".
        try files.createSymbolicLink(atPath: folder.path("bin/checkrun"), withDestinationPath: Checkrun.executable)
        try files.copyItem(atPath: Repository.path("protocols"), toPath: folder.path("protocols"))
        let page = try Repository.text("Tests/Fixtures/seeds/001_505cf892b4e0d64b.txt")
        try folder.write("catalog/tiny-target.txt", page)
        try folder.write("catalog/tiny-target.md", page)
        try files.createDirectory(atPath: folder.path("home/.config/fish/completions"), withIntermediateDirectories: true)
        try files.createDirectory(atPath: folder.path("home/.zfunc"), withIntermediateDirectories: true)
        environment = ["PATH": folder.path("bin") + ":/usr/bin:/bin", "HOME": folder.path("home"), "USER": "Ana"]
    }

    /// The unfinished sessions `checkrun resume 3f2a91c4` (help) and `checkrun resume 28100dc5`
    /// (README) name, on a device of their own so no other example meets them.
    func addSessionsTheExamplesResume() throws {
        let store = try ResultStore(path: folder.path("checkrun.sqlite"))
        for id in ["3F2A91C4-5B6D-4E7F-8091-A2B3C4D5E6F7", "28100DC5-5B6D-4E7F-8091-A2B3C4D5E6F7"] {
            try store.insert(Session(id: try #require(UUID(uuidString: id)), release: "2.4", build: "311", device: "iPad mini",
                                     tester: "Ben", plan: ["tiny-target/touch-one-hand"], startedAt: Date()))
        }
    }

    /// Runs a line as bash runs it (`source <(…)` is bash's).
    func shell(_ line: String, input: String?) throws -> ProcessResult {
        try Subprocess.run("/bin/bash", ["-c", line], in: folder.path, input: input ?? "", environment: environment)
    }
}
