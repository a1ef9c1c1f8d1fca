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
