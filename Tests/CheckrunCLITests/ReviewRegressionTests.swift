import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Holes a cold review found, each kept shut.
@Suite struct ReviewRegressionTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path)
    }

    func tamper(_ folder: TemporaryFolder, _ sql: String, name: String = "checkrun.sqlite") throws {
        let raw = try Database(path: folder.path(name))
        try raw.execute(sql)
        raw.close()
    }

    @Test func aLowerCaseCopyOfASessionCannotSlipAPassIntoAReport() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "fail", "--notes", "x"], in: folder).status == 0)
        try tamper(folder, """
            INSERT INTO sessions SELECT lower(id), release, build, device, os_version, tester, plan, started_at, NULL FROM sessions;
            INSERT INTO results (id, session_id, check_name, protocol_hash, attempt, verdict, started_at, updated_at)
                SELECT '01234567-89AB-7DEF-8123-456789ABCDEF', lower(session_id), check_name, protocol_hash, 2, 'pass', started_at, updated_at + 10 FROM results;
            """)
        let verified = try checkrun(["verify"], in: folder)
        #expect(verified.status == 1 && verified.stdout.contains("an id checkrun did not write"), "\(verified.stdout)")
        let report = try checkrun(["report", "--release", "2.4"], in: folder)
        #expect(report.status == 1 && report.stdout.isEmpty, "\(report.stderr)")
    }

    @Test func aReportChecksSessionsWithoutRecordsToo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "fail", "--notes", "x"], in: folder).status == 0)
        try tamper(folder, """
            INSERT INTO sessions (id, release, build, plan, started_at) VALUES ('11111111-1111-4111-8111-111111111111', '2.4', '311', '[]', 0);
            INSERT INTO results (id, session_id, check_name, protocol_hash, attempt, verdict, started_at, updated_at)
                VALUES ('01234567-89AB-7DEF-8123-456789ABCDEF', '11111111-1111-4111-8111-111111111111', 'tiny-target/touch-one-hand', 'h', 2, 'pass', 0, 9999999999);
            """)
        let report = try checkrun(["report", "--release", "2.4"], in: folder)
        #expect(report.status == 1 && report.stderr.contains("was never recorded"), "\(report.stderr)")
    }

    @Test func twoSourcesThatDisagreeWriteNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", "a.sqlite"], in: folder).status == 0)
        try FileManager.default.copyItem(atPath: folder.path("a.sqlite"), toPath: folder.path("b.sqlite"))
        for (db, count) in [("a.sqlite", "10"), ("b.sqlite", "9")] {
            let amended = try checkrun(["amend", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--count", "hits=\(count)", "--notes", "recount",
                                        "--reason", "recount \(db)", "--db", db], in: folder)
            #expect(amended.status == 0, "\(amended.stderr)")
        }
        let merged = try checkrun(["merge", "a.sqlite", "b.sqlite", "--db", "team.sqlite"], in: folder)
        #expect(merged.status == 1 && merged.stderr.contains("arrives twice in this merge with other content"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("team.sqlite")), "nothing was written")
    }

    @Test func aCheckPassedOnOneDeviceAndSkippedOnAnotherIsNotPassed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--device", "iPhone"], in: folder).status == 0)
        #expect(try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "skipped", "--device", "iPad"], in: folder).status == 0)
        let report = try JSONParser.parse(try checkrun(["report", "--release", "2.4", "--format", "json"], in: folder).stdout)
        let status = report["checks"]?.arrayValue?.first { $0["check"]?.stringValue == "tiny-target/touch-one-hand" }?["status"]?.stringValue
        #expect(status == "skipped")
    }
}
