import CheckrunStore
import Foundation

/// The engines a store test runs on: SQLite always, and PostgreSQL when the build has the trait
/// and `.ci/run` (or a developer) names a throwaway server in CHECKRUN_TEST_POSTGRES.
package enum TestEngine: String, Sendable {
    case sqlite, postgresql

    /// The server's address, for tests of PostgreSQL.
    package static var server: String? {
        guard ResultStore.canUseServers, let address = ProcessInfo.processInfo.environment["CHECKRUN_TEST_POSTGRES"], !address.isEmpty else { return nil }
        return address
    }

    /// Every engine this run can test.
    package static var available: [TestEngine] { server == nil ? [.sqlite] : [.sqlite, .postgresql] }

}


/// A fresh, empty database on one engine: a file in a temporary folder, or a database of its
/// own on the test server, dropped again by `remove()`.
package final class TestDatabase: @unchecked Sendable {
    package let engine: TestEngine
    /// What `--db` or `ResultStore(path:)` takes.
    package let address: String
    private let folder: TemporaryFolder
    private let serverDatabase: String?

    package init(_ engine: TestEngine, name: String = "checkrun.sqlite") throws {
        self.engine = engine
        folder = try TemporaryFolder()
        switch engine {
        case .sqlite:
            address = folder.path(name)
            serverDatabase = nil
        case .postgresql:
            guard let server = TestEngine.server, var parts = URLComponents(string: server) else {
                throw TestDatabaseError("CHECKRUN_TEST_POSTGRES names no server")
            }
            let database = "checkrun_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            try ResultStore.createServerDatabase(database, administering: server)
            parts.path = "/" + database
            address = parts.string ?? server
            serverDatabase = database
        }
    }

    /// A file or database of another name on the same engine (a merge source, say).
    package func sibling(_ name: String) throws -> TestDatabase { try TestDatabase(engine, name: name) }

    package func remove() {
        if let serverDatabase, let server = TestEngine.server {
            try? ResultStore.dropServerDatabase(serverDatabase, administering: server)
        }
        folder.remove()
    }
}

package struct TestDatabaseError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
