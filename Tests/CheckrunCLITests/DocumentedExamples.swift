@testable import CheckrunCLI
import CheckrunTestSupport
import Foundation

/// The documented examples, and the order they are run in: each example's files and results
/// come from the ones before it, as they would for a user following the documentation.
enum DocumentedExamples {
    struct Step {
        var command: String
        /// What is typed (piped) into it: walks are ended with q, which saves and quits.
        var input: String? = nil
        var status: Int32 = 0
        var says: [String] = []
        /// A step that only prepares what a documented example needs (another build's results, a
        /// colleague's database): not itself documented.
        var setup = false
    }

    static let tinyTarget = "tiny-target/touch-one-hand"

    static let scenario: [Step] = [
        // Earlier builds, for the comparisons.
        Step(command: "checkrun record --release 2.3 --build 298 --check \(tinyTarget) --count hits=10 --expected 2=pass --seconds 40", setup: true),
        Step(command: "checkrun record --release 2.4 --build 310 --check \(tinyTarget) --count hits=10 --expected 2=pass --seconds 40", setup: true),
        // Walking.
        Step(command: "printf 't 1:05\\n10\\nf Delete fired\\n\\n' | checkrun run --release 2.4 --build 311 --check \(tinyTarget)",
             says: ["Result: fail"]),
        Step(command: "checkrun run --release 2.4 --build 311 --device \"iPhone 15\"", input: "q\n", says: ["Resume with: checkrun resume "]),
        Step(command: "checkrun run --release 2.4 --build 311 --device \"iPhone 15\" --tester Ana", input: "q\n", says: ["Saved"]),
        Step(command: "checkrun run --release 2.4 --build 311 --profile \"Switch Control\" --accessible", input: "q\n", says: ["Saved"]),
        Step(command: "checkrun run --release 2.4 --build 311 --profile \"Switch Control\"", input: "q\n", says: ["Saved"]),
        Step(command: "checkrun run --release 2.4 --build 311 --capture \"xcrun simctl io booted screenshot {file}\"", input: "q\n", says: ["Saved"]),
        Step(command: "checkrun run --release 2.4 --build 311 --check \(tinyTarget) --accessible", input: "q\n", says: ["Saved"]),
        Step(command: "checkrun resume", input: "q\n", says: ["Saved"]),
        Step(command: "checkrun resume 3f2a91c4", input: "q\n", says: ["Resuming session 3f2a91c4"]),
        Step(command: "checkrun resume 28100dc5", input: "q\n", says: ["Resuming session 28100dc5"]),
        Step(command: "checkrun sessions --release 2.4", says: ["3f2a91c4"]),
        Step(command: "checkrun sessions --json", says: ["\"release\""]),
        // Recording without the walk.
        Step(command: "checkrun record --release 2.4 --build 311 --check \(tinyTarget) --verdict fail --expected 1=pass --expected 2=fail --count hits=10 --notes \"Delete fired once\""),
        Step(command: "checkrun record --release 2.4 --build 311 --check \(tinyTarget) --verdict fail --expected 1=pass --expected 2=fail --count hits=10 --seconds 42 --notes \"Delete fired once\""),
        Step(command: "checkrun record --release 2.4 --build 311 --check motor-accessibility/switch-control-stops-to-pay --verdict pass --count stops=14 --seconds 1:05"),
        Step(command: "printf '\\211PNG\\r\\n\\032\\n a screenshot' > shot.png && printf '\\211PNG\\r\\n\\032\\n another one' > retake.png", setup: true),
        Step(command: "checkrun record --release 2.4 --build 311 --check \(tinyTarget) --verdict fail --expected 2=fail --notes \"Delete fired\" --attach 2=shot.png=\"Delete fired from a 20-point button\"",
             says: ["with 1 attachment"]),
        // Reports.
        Step(command: "checkrun report --release 2.4", says: ["- Summary: 22 checks"]),
        Step(command: "checkrun report --release 2.4 --format html --out report.html"),
        Step(command: "checkrun report --release 2.4 --format html --out report.html --attachments evidence"),
        Step(command: "checkrun report --release 2.4 --build 311 --format json --out report.json"),
        Step(command: "checkrun report --release 2.4 --format junit --out results.xml --fail-on-failure", status: 3),
        Step(command: "checkrun report --release 2.4 --format openacr --out acr.yaml"),
        Step(command: "checkrun report --release 2.4 --format openacr --product \"Acme Pay\" --out acme-2.4.yaml"),
        // A later build passes (after the failure above made the JUnit gate exit 3).
        Step(command: "checkrun record --release 2.4 --build 312 --check \(tinyTarget) --count hits=10 --expected 2=pass"),
        Step(command: "checkrun compare --release 2.4", says: ["310", "312"]),
        Step(command: "checkrun compare --release 2.4 --builds 310,311 --threshold 10 --fail-on-regression", status: 3, says: ["REGRESSION"]),
        Step(command: "checkrun compare --from 2.3:298 --to 2.4:311 --format markdown", says: ["| Check and device |"]),
        // Teams and trust.
        Step(command: "cp checkrun.sqlite ana.sqlite && checkrun record --release 2.4 --build 311 --device iPad --check \(tinyTarget) --verdict pass --expected 1=pass --expected 2=pass --count hits=10 --db ben.sqlite", setup: true),
        Step(command: "checkrun merge ana.sqlite ben.sqlite --db team.sqlite"),
        Step(command: "checkrun export --release 2.4 --out ana-2.4.json"),
        Step(command: "checkrun merge ana-2.4.json"),
        Step(command: "checkrun merge ana-2.4.json --db team.sqlite"),
        Step(command: "checkrun amend --release 2.4 --build 311 --check \(tinyTarget) --verdict pass --expected 2=pass --reason \"Delete fired from a test build's debug overlay\""),
        Step(command: "checkrun amend --release 2.4 --build 311 --check \(tinyTarget) --verdict pass --expected 2=pass --reason \"Delete fired from the debug overlay, not the app\""),
        Step(command: "checkrun amend --release 2.4 --build 311 --check \(tinyTarget) --withdraw shot.png --attach 2=retake.png=\"Delete fired from a 20-point button\" --reason \"The first screenshot showed another screen\"",
             says: ["The earlier record is kept"]),
        Step(command: "checkrun amend --release 2.4 --build 312 --check \(tinyTarget) --expected 1=na --count hits=none --reason \"Build 312 closes the sheet with a swipe; there is no button to hit\"",
             says: ["now pass", "hits: count taken back"]),
        Step(command: "checkrun attachments --release 2.4", says: ["retake.png, image/png"]),
        Step(command: "checkrun attachments --release 2.4 --check \(tinyTarget) --out evidence", says: ["tiny-target--touch-one-hand/311-attempt-"]),
        Step(command: "checkrun verify --db team.sqlite", says: ["every chain is intact"]),
        Step(command: "checkrun report --release 2.4 --format json --out report-2.4.json --db team.sqlite"),
        Step(command: "checkrun verify --against report-2.4.json --db team.sqlite"),
        // Protocols.
        Step(command: "checkrun lint", says: ["no problems"]),
        Step(command: "checkrun lint protocols/tiny-target.json", says: ["no problems"]),
        Step(command: "checkrun list", says: [tinyTarget]),
        Step(command: "checkrun list --profile \"Switch Control\"", says: ["switch-control"]),
        Step(command: "checkrun list --profile voiceover", says: ["VoiceOver"]),
        Step(command: "checkrun list --profile voiceover --wcag 4.1.2", says: ["VoiceOver"]),
        Step(command: "checkrun list --json", says: ["\"profile\""]),
        Step(command: "checkrun list --wcag 2.5.8 --json", says: [tinyTarget]),
        Step(command: "checkrun show tiny-target", says: ["Tiny Target"]),
        Step(command: "checkrun show \(tinyTarget) --json", says: ["\"task\""]),
        Step(command: "checkrun import catalog/tiny-target.md --dry-run", says: ["\"checks\""]),
        Step(command: "checkrun import catalog/tiny-target.txt --dry-run", says: ["\"checks\""]),
        Step(command: "checkrun import catalog/tiny-target.md --force"),
        Step(command: "checkrun import catalog/*.txt --out imported", says: ["imported/tiny-target.json"]),
        // The shell and help.
        Step(command: "source <(checkrun completion bash)"),
        Step(command: "checkrun completion zsh > ~/.zfunc/_checkrun"),
        Step(command: "checkrun completion fish > ~/.config/fish/completions/checkrun.fish"),
        Step(command: "checkrun help lint", says: ["Usage: checkrun lint"]),
    ]

    /// The top-level help and every command's, so a new command's examples cannot be missed.
    static let commands = [""] + CheckrunCLI.commands.map { $0.definition.name }

    /// The example lines of `checkrun --help` and of every command's `--help`.
    static func fromHelp() throws -> [String] {
        var examples: [String] = []
        for command in commands {
            let help = try Checkrun.run(command.isEmpty ? ["--help"] : [command, "--help"])
            guard let section = help.stdout.components(separatedBy: "\nExamples:\n").dropFirst().first else { continue }
            for line in section.components(separatedBy: "\n") where line.hasPrefix("  ") && !line.hasPrefix("    ") {
                examples.append(String(line.dropFirst(2)))
            }
        }
        return examples
    }

    /// The commands of the README's `sh` blocks, continuation lines joined and comments cut.
    /// Left out: `swift …` (building and testing checkrun itself), `.ci/…` (CI's scripts, which run
    /// these tests and the fuzzers), `sqlite3 …` (another tool) and commands on a team store's
    /// server (`readmeServerExamples`, run by `TeamStoreTests` against the test server).
    /// The server the README's team store examples name.
    static let serverPlaceholder = "postgresql://ana@db.example.com/checkrun"

    /// The README's commands on a team store's server, comments cut.
    static func readmeServerExamples() throws -> [String] {
        let readme = try Repository.text("README.md")
        return readme.components(separatedBy: "```sh\n").dropFirst().flatMap { block in
            (block.components(separatedBy: "\n```").first ?? "").components(separatedBy: "\n")
                .filter { $0.contains(serverPlaceholder) }.map { $0.replacing(/\s+#\s.*$/, with: "") }
        }
    }

    static func fromReadme() throws -> [String] {
        let readme = try Repository.text("README.md")
        var examples: [String] = []
        for block in readme.components(separatedBy: "```sh\n").dropFirst() {
            let body = block.components(separatedBy: "\n```").first ?? ""
            let joined = body.replacingOccurrences(of: " \\\n    ", with: " ")
            for line in joined.components(separatedBy: "\n") where !line.hasPrefix("swift ") && !line.hasPrefix(".ci/") && !line.hasPrefix("sqlite3 ")
                && !line.isEmpty && !line.contains(serverPlaceholder) {
                let command = line.replacing(/\s+#\s.*$/, with: "")
                examples.append(command)
            }
        }
        return examples
    }
}
