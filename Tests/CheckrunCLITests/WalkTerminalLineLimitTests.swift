import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A terminal in line mode keeps 4,095 bytes of a line and drops the rest unseen: such a line
/// is refused whole, never saved cut short as if it were what the tester typed.
@Suite(.serialized, .hangGuard) struct WalkTerminalLineLimitTests {
    @Test func aLineCutByTheTerminalIsRefusedNotSavedShort() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let terminal = try PseudoTerminal(["run", "--release", "2.4", "--build", "311", "--device", "iPhone 15", "--tester", "Ana",
                                           "--check", "tiny-target/accessibility-inspector",
                                           "--protocols", Repository.path("protocols"), "--db", folder.path("db.sqlite")], directory: folder.path)
        try terminal.expect("Press Enter to start the stopwatch")
        terminal.sendLine("t 30")
        try terminal.expect("Pass, fail or not applicable?")
        terminal.sendLine("p")
        try terminal.expect("Pass, fail or not applicable?")
        terminal.sendLine("f")
        try terminal.expect("Notes (required, something failed)")
        terminal.sendLine(String(repeating: "word ", count: 1000))
        try terminal.expect("reached the terminal's limit of 4,095 bytes")
        try terminal.expect("Notes (required, something failed)")
        terminal.sendLine("the info button is 20 pt")
        try terminal.expect("Result: fail")
        try terminal.expect("complete")
        let store = try ResultStore(path: folder.path("db.sqlite"), access: .existingOnly)
        let results = try store.sessionSummaries().flatMap { try store.results(inSession: $0.session.id) }
        #expect(results.map(\.notes) == ["the info button is 20 pt"])
    }
}
