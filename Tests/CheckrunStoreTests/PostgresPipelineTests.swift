#if PostgreSQL
import CheckrunModel
@testable import CheckrunStore
import Foundation
import Testing

/// Statements a write transaction does not read are held and sent with the next read or the
/// COMMIT: nothing may be saved, reported as saved, or lost differently for it.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CHECKRUN_TEST_POSTGRES"] != nil, "needs CHECKRUN_TEST_POSTGRES (see .ci/run)"))
struct PostgresPipelineTests {
    let address = ProcessInfo.processInfo.environment["CHECKRUN_TEST_POSTGRES"] ?? ""

    /// A table of its own for one test, dropped afterwards.
    func withTable(_ body: (PostgresConnection, String) throws -> Void) throws {
        let connection = try PostgresConnection(uri: address)
        let table = "pipeline_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try connection.execute("CREATE TABLE \(table) (x BIGINT PRIMARY KEY)")
        defer { try? PostgresConnection(uri: address).execute("DROP TABLE IF EXISTS \(table)") }
        try body(connection, table)
    }

    /// Inserts `x` into `table`: held, inside a write transaction.
    func insert(_ x: Int64, _ connection: PostgresConnection, _ table: String) throws {
        try connection.run("INSERT INTO \(table) (x) VALUES (?)", [.integer(x)])
    }

    func values(_ connection: PostgresConnection, _ table: String) throws -> [Int] {
        try connection.query("SELECT x FROM \(table) ORDER BY x") { $0.int(0) ?? -1 }
    }

    @Test func heldStatementsRunInOrderBeforeTheReadThatFollowsThem() throws {
        try withTable { (connection: PostgresConnection, table: String) throws in
            let seen = try connection.transaction {
                try insert(1, connection, table)
                try connection.run("UPDATE \(table) SET x = x + 1", [])
                try insert(1, connection, table)
                // BEGIN, the lock and the three statements wait for the read, to go with it.
                #expect(connection.held.count == 5)
                return try values(connection, table)
            }
            #expect(seen == [1, 2])
            #expect(try values(connection, table) == [1, 2])
        }
    }

    @Test func aHeldStatementThatFailsFailsTheTransactionByItsOwnWordsAndSavesNothing() throws {
        try withTable { (connection: PostgresConnection, table: String) throws in
            #expect {
                try connection.transaction {
                    try insert(1, connection, table)
                    try insert(1, connection, table)
                    try insert(3, connection, table)
                }
            } throws: { error in
                let error = error as? StoreError
                return error?.message.contains("duplicate key") == true && error?.sql?.contains("INSERT INTO \(table)") == true
            }
            // Nothing of it landed, and the connection works on.
            #expect(try values(connection, table) == [])
            try connection.transaction { try insert(4, connection, table) }
            #expect(try values(connection, table) == [4])
        }
    }

    @Test func aCommitTheServerTurnedIntoARollbackIsNeverTakenForOne() throws {
        try withTable { (connection: PostgresConnection, table: String) throws in
            #expect {
                try connection.transaction {
                    try insert(5, connection, table)
                    // A failure caught inside the transaction: the server then rolls it all back.
                    _ = try? connection.scalarInt("SELECT 1 / 0")
                }
            } throws: { error in
                (error as? StoreError)?.message.contains("rolled the transaction back instead of committing it") == true
            }
            #expect(try values(connection, table) == [])
        }
    }

    @Test func aTransactionGivenUpBeforeAnythingWasSentLeavesNothing() throws {
        struct GivenUp: Error {}
        try withTable { (connection: PostgresConnection, table: String) throws in
            #expect(throws: GivenUp.self) {
                try connection.transaction {
                    try insert(7, connection, table)
                    throw GivenUp()
                }
            }
            #expect(try values(connection, table) == [])
        }
    }

    @Test func aNestedFailureStaysInsideItsSavepoint() throws {
        try withTable { (connection: PostgresConnection, table: String) throws in
            var caught = false
            try connection.transaction {
                try insert(10, connection, table)
                do {
                    try connection.transaction { try insert(10, connection, table) }
                } catch {
                    caught = true
                }
                try insert(11, connection, table)
            }
            #expect(caught)
            #expect(try values(connection, table) == [10, 11])
        }
    }

    @Test func aStatementTheServerCannotPrepareNeverTakesTheTransactionsBeginWithIt() throws {
        try withTable { (connection: PostgresConnection, table: String) throws in
            var returned = false
            do {
                try connection.transaction {
                    try insert(30, connection, table)
                    _ = try? connection.scalarInt("SELECT no_such_column FROM \(table)")
                    try insert(31, connection, table)
                }
                returned = true
            } catch {}
            // All of it or none of it; never the second insert alone, committed on its own.
            #expect(try values(connection, table) == (returned ? [30, 31] : []))
        }
    }

    @Test func largeValuesGoToTheServerAsTheyComeNotAtTheCommit() throws {
        try withTable { (connection: PostgresConnection, table: String) throws in
            try connection.execute("ALTER TABLE \(table) ADD COLUMN bytes TEXT")
            let piece = String(repeating: "ab", count: PostgresConnection.heldBytesLimit / 2)
            try connection.transaction {
                for number in 1...3 {
                    try connection.run("INSERT INTO \(table) (x, bytes) VALUES (?, ?)", [.integer(Int64(number)), .text(piece)])
                    #expect(connection.held.isEmpty, "a megabyte is sent at once")
                }
            }
            #expect(try values(connection, table) == [1, 2, 3])
        }
    }

    @Test func aConnectionLostAmidHeldStatementsSaysSoAndSavesNothing() throws {
        try withTable { (connection: PostgresConnection, table: String) throws in
            #expect {
                try connection.transaction {
                    try insert(20, connection, table)
                    try connection.run("SELECT pg_terminate_backend(pg_backend_pid())", [])
                    try insert(21, connection, table)
                }
            } throws: { error in
                (error as? StoreError)?.connectionLost == true
            }
            try connection.reconnect()
            #expect(try values(connection, table) == [])
        }
    }
}
#endif
