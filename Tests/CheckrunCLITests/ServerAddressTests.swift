import CheckrunTestSupport
import Foundation
import Testing

/// A PostgreSQL address where a database file is expected is refused in one line, its
/// password never shown, and nothing is created under a name made of it.
@Suite struct ServerAddressTests {
    @Test func aServerAddressIsRefusedWithoutShowingItsPassword() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let address = "postgresql://ana:s3cret@db.example/checkrun?sslmode=verify-full&password=other"
        let runs: [[String]] = [
            ["sessions", "--db", address], ["report", "--release", "2.4", "--db", address], ["verify", "--db", address],
            ["merge", address, "--db", "team.sqlite"], ["merge", "x.json", "--db", address],
        ]
        for arguments in runs {
            let result = try Checkrun.run(arguments, in: folder.path)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("postgresql://ana:…@db.example/checkrun?sslmode=verify-full&password=… is a PostgreSQL address"), "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("s3cret") && !(result.stdout + result.stderr).contains("other"))
        }
        let fromEnvironment = try Checkrun.run(["sessions"], in: folder.path, environment: ["CHECKRUN_DB": "postgres://db/team"])
        #expect(fromEnvironment.status == 1 && fromEnvironment.stderr.contains("postgres://db/team is a PostgreSQL address"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing was created")
    }
}

extension ServerAddressTests {
    @Test func aPasswordHoldingSlashesOrQuestionMarksIsMaskedWhole() throws {
        let result = try Checkrun.run(["sessions", "--db", "postgresql://ana:pa/ss?w@rd@db.example/checkrun"])
        #expect(result.status == 1 && result.stderr.contains("postgresql://ana:…@db.example/checkrun is a PostgreSQL address"), "\(result.stderr)")
        #expect(!result.stderr.contains("pa/ss"))
    }
}
