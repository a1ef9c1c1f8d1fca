#if PostgreSQL
import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// What a team store's server does that a file cannot: databases set up by opening, and an
/// administrator's settings that checkrun's own words must outlast.
extension TeamStoreTests {
    /// A merge refused for its source, into a server's empty database, says what the store
    /// set up on opening holds: no result, only its empty tables (not "unchanged").
    @Test func aRefusedMergeIntoAnEmptyServerDatabaseSaysWhatItHolds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let team = try TestDatabase(.postgresql)
        defer { team.remove() }
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: folder.path("junk.json")))
        let refused = try checkrun(["merge", "junk.json", "--db", team.address], in: folder)
        #expect(refused.status == 1 && refused.stderr.contains("holds no result, only the empty tables it was set up with"), "\(refused.stderr)")
    }

    /// A database whose administrator asks for every debug notice: none reaches the terminal,
    /// those sent while connecting included (they came before checkrun could take them).
    @Test func theServersNoticesNeverReachTheTerminalRaw() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let team = try TestDatabase(.postgresql)
        defer { team.remove() }
        let name = try #require(URLComponents(string: team.address)?.path.dropFirst())
        let setup = try ResultStore(path: team.address)
        try setup.database.execute("ALTER DATABASE \"\(name)\" SET client_min_messages = debug5")
        setup.close()
        let listed = try checkrun(["sessions", "--db", team.address], in: folder)
        #expect(listed.status == 0 && !listed.stderr.contains("DEBUG"), "\(listed.stderr)")
    }
}
#endif
