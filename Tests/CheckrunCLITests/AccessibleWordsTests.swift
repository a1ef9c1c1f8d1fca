import CheckrunTestSupport
import Foundation
import Testing

/// Accessible mode, as speech reads it: keys named in words, symbols said in words.
@Suite struct AccessibleWordsTests {
    let protocols = Repository.path("protocols")

    @Test func keysAndSymbolsAreWords() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let walk = try Checkrun.run(["run", "--release", "2.4", "--build", "310", "--check", "tiny-target/accessibility-inspector", "--accessible",
                                     "--protocols", protocols], in: folder.path, input: "?\nt 20\np\np\n\n")
        #expect(walk.status == 0, "\(walk.stderr)")
        #expect(walk.stdout.contains("Type question mark (?) at any prompt for the keys."))
        #expect(walk.stdout.contains("minus (-) takes one back"), "\(walk.stdout)")
        #expect(walk.stdout.contains("44 by 44 pt"), "the × of the protocol text in words")
        for symbol in ["→", "×", "•", "✓"] { #expect(!walk.stdout.contains(symbol), "\(symbol)") }
        #expect(try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/accessibility-inspector", "--verdict", "pass",
                                  "--protocols", protocols], in: folder.path).status == 0)
        let compared = try Checkrun.run(["compare", "--release", "2.4", "--accessible", "--protocols", protocols], in: folder.path)
        #expect(compared.stdout.contains("builds 310 to 311") && !compared.stdout.contains("→"), "\(compared.stdout)")
    }
}

/// Usage mistakes, said once and clearly.
@Suite struct UsageTests {
    @Test func requiredOptionsShowAndAreReportedTogether() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let help = try Checkrun.run(["record", "--help"], in: folder.path)
        #expect(help.stdout.contains("Usage: checkrun record --release R --build B --check PROTOCOL/CHECK [--verdict V]"), "\(help.stdout)")
        let missing = try Checkrun.run(["amend", "--verdict", "pass"], in: folder.path)
        #expect(missing.status == 2 && missing.stderr.contains("missing --release R, --build B, --check PROTOCOL/CHECK, --reason TEXT"), "\(missing.stderr)")
        let typo = try Checkrun.run(["--versoin"], in: folder.path)
        #expect(typo.status == 2 && typo.stderr.contains("Did you mean '--version'?"))
        let lint = try Checkrun.run(["lint"], in: folder.path)
        #expect(lint.status == 1 && lint.stderr.contains("no such file or folder") && !lint.stderr.contains("0 files checked"), "\(lint.stderr)")
    }

    @Test func globalOptionsAreTakenBeforeTheCommandToo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let before = try Checkrun.run(["--protocols", Repository.path("protocols"), "--accessible", "list", "--profile", "Switch Control"], in: folder.path)
        let after = try Checkrun.run(["list", "--profile", "Switch Control", "--protocols", Repository.path("protocols"), "--accessible"], in: folder.path)
        #expect(before.status == 0 && before.stdout == after.stdout && before.stdout.contains("switch-control"), "\(before.stderr)")
        let joined = try Checkrun.run(["--protocols=" + Repository.path("protocols"), "show", "tiny-target"], in: folder.path)
        #expect(joined.status == 0 && joined.stdout.contains("Tiny Target"))
        let alone = try Checkrun.run(["--accessible"], in: folder.path)
        #expect(alone.status == 2 && alone.stderr.contains("a command is missing after the global options"), "\(alone.stderr)")
        let typo = try Checkrun.run(["--protocolz", "x", "list"], in: folder.path)
        #expect(typo.status == 2 && typo.stderr.contains("Did you mean '--protocols'?"))
    }

    @Test func recordTakesTheWalksAnswerWordsAndLimits() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = ["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--protocols", Repository.path("protocols")]
        let words = try Checkrun.run(base + ["--expected", "1=passed", "--expected", "2=Not applicable"], in: folder.path)
        #expect(words.status == 0, "\(words.stderr)")
        let ambiguous = try Checkrun.run(base + ["--expected", "2=no"], in: folder.path)
        #expect(ambiguous.status == 2 && ambiguous.stderr.contains("a verdict is p, pass or passed; f, fail or failed; n, na, n/a or not applicable"), "\(ambiguous.stderr)")
        let count = try Checkrun.run(base + ["--count", "hits=100001"], in: folder.path)
        #expect(count.status == 2 && count.stderr.contains("from 0 to 100000"), "a usage error: \(count.stderr)")
    }
}
