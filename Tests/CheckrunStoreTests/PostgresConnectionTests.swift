#if PostgreSQL
import CheckrunModel
@testable import CheckrunStore
import Foundation
import Testing

/// The libpq connection against a real server: `.ci/run` starts a throwaway cluster and gives
/// its address in CHECKRUN_TEST_POSTGRES (a password-protected user on a private socket).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CHECKRUN_TEST_POSTGRES"] != nil, "needs CHECKRUN_TEST_POSTGRES (see .ci/run)"))
struct PostgresConnectionTests {
    let address = ProcessInfo.processInfo.environment["CHECKRUN_TEST_POSTGRES"] ?? ""

    @Test func valuesGoThroughAsBoundParametersUnchanged() throws {
        let connection = try PostgresConnection(uri: address)
        #expect(connection.serverVersion >= 130_000)
        let hostile = "Robert'); DROP TABLE results; --\u{1B}[2J ünï"
        let rows = try connection.query("SELECT $1::text, $2::integer + 1, $3::text IS NULL", [hostile, "41", nil])
        #expect(rows == [[hostile, "42", "t"]])
    }

    @Test func aRefusedStatementSaysWhatTheServerSaid() throws {
        let connection = try PostgresConnection(uri: address)
        #expect { try connection.query("SELECT * FROM no_such_table") } throws: { error in
            let message = "\(error)"
            return message.contains("refused a statement") && message.contains("no_such_table") && !message.contains(password)
        }
    }

    var password: String { URLComponents(string: address)?.password ?? "\u{0}" }

    @Test func aWrongPasswordAnUnreachableServerAndAMissingDatabaseGiveOneClearLineEach() throws {
        guard var parts = URLComponents(string: address) else { Issue.record("CHECKRUN_TEST_POSTGRES is not an address"); return }
        parts.password = "wrong-password"
        let wrongPassword = try #require(parts.string)
        parts.password = password
        parts.path = "/no_such_database"
        let missingDatabase = try #require(parts.string)
        let cases = [
            (wrongPassword, "the user name or password is wrong"),
            (missingDatabase, "has no such database"),
            ("postgresql://postgres:secret@/checkrun?host=/nonexistent-socket-folder", "cannot reach the PostgreSQL server"),
        ]
        for (uri, words) in cases {
            #expect { try PostgresConnection(uri: uri) } throws: { error in
                let message = "\(error)"
                return message.contains(words) && !message.contains("wrong-password") && !message.contains("secret") && !message.contains("\n")
            }
        }
    }
}
#endif
