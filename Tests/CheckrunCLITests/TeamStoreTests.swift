#if PostgreSQL
import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// The team store from the built binary, as a team would use it: `--db postgresql://…` on every
/// command, reports identical to SQLite's for the same answers, merges both ways, clear errors,
/// and no password anywhere in what checkrun prints.
@Suite(.enabled(if: TestEngine.server != nil, "needs CHECKRUN_TEST_POSTGRES and the PostgreSQL trait (see .ci/run)"))
struct TeamStoreTests {
    let protocols = Repository.path("protocols")

    func checkrun(_ arguments: [String], in folder: TemporaryFolder, input: String? = nil) throws -> ProcessResult {
        try Checkrun.run(arguments + ["--protocols", protocols], in: folder.path, input: input)
    }

    var password: String { URLComponents(string: TestEngine.server ?? "")?.password ?? "\u{0}" }

    /// A tester's day in ana.sqlite: a walk with a failure and notes, a record, an amendment.
    func answers(in folder: TemporaryFolder, database: String) throws {
        let walk = ["t 1:20", "9", "f Delete fired on try 4", "", "t 3", "s"].joined(separator: "\n") + "\n"
        let walked = try checkrun(["run", "--release", "2.4", "--build", "311", "--device", "iPhone 15", "--tester", "Ana",
                                   "--check", "tiny-target/touch-one-hand", "--check", "tiny-target/voice-control-show-numbers", "--db", database],
                                  in: folder, input: walk)
        #expect(walked.status == 0, "\(walked.stderr)")
        #expect(try checkrun(["record", "--release", "2.4", "--build", "312", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", database], in: folder).status == 0)
        let amended = try checkrun(["amend", "--release", "2.4", "--build", "312", "--check", "tiny-target/touch-one-hand", "--notes", "checked twice",
                                    "--reason", "a note was missing", "--db", database], in: folder)
        #expect(amended.status == 0, "\(amended.stderr)")
    }

    /// A report without the moment it was made.
    func withoutGenerationTime(_ text: String) -> String {
        text.replacingOccurrences(of: #"(generated |"generatedAt": ")\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, with: "$1…", options: .regularExpression)
    }

    @Test func theSameAnswersGiveTheSameReportsFromEitherEngineAndMergesGoBothWays() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let team = try TestDatabase(.postgresql)
        defer { team.remove() }
        try answers(in: folder, database: "ana.sqlite")
        let pushed = try checkrun(["merge", "ana.sqlite", "--db", team.address], in: folder)
        #expect(pushed.status == 0 && pushed.stdout.contains("added 2 sessions"), "\(pushed.stdout)\(pushed.stderr)")
        let again = try checkrun(["merge", "ana.sqlite", "--db", team.address], in: folder)
        #expect(again.status == 0 && again.stdout.contains("nothing new"), "merging twice adds nothing: \(again.stdout)")

        for format in ["markdown", "json", "csv", "junit", "html", "openacr"] {
            let fromFile = try checkrun(["report", "--release", "2.4", "--format", format, "--db", "ana.sqlite"], in: folder)
            let fromServer = try checkrun(["report", "--release", "2.4", "--format", format, "--db", team.address], in: folder)
            #expect(fromFile.status == 0 && fromServer.status == 0, "\(format): \(fromServer.stderr)")
            #expect(withoutGenerationTime(fromFile.stdout) == withoutGenerationTime(fromServer.stdout), "the \(format) reports differ")
            #expect(!fromServer.stdout.contains(password) && !fromServer.stderr.contains(password))
        }
        for command in [["sessions"], ["compare", "--release", "2.4"], ["verify"]] {
            let fromFile = try checkrun(command + ["--db", "ana.sqlite"], in: folder)
            let fromServer = try checkrun(command + ["--db", team.address], in: folder)
            #expect(fromFile.status == fromServer.status, "\(command)")
            if command != ["verify"] { #expect(fromFile.stdout == fromServer.stdout, "\(command)") }
        }
        #expect(try checkrun(["verify", "--db", team.address], in: folder).stdout.contains("every chain is intact"))

        // Down again, into a file of the team's results; twice adds nothing.
        let pulled = try checkrun(["merge", team.address, "--db", "mine.sqlite"], in: folder)
        #expect(pulled.status == 0 && pulled.stdout.contains("added 2 sessions"), "\(pulled.stdout)\(pulled.stderr)")
        #expect(!pulled.stdout.contains(password))
        #expect(try checkrun(["merge", team.address, "--db", "mine.sqlite"], in: folder).stdout.contains("nothing new"))
        let exported = try checkrun(["export", "--release", "2.4", "--out", "team.json", "--db", team.address], in: folder)
        let local = try checkrun(["export", "--release", "2.4", "--out", "mine.json", "--db", "mine.sqlite"], in: folder)
        #expect(exported.status == 0 && local.status == 0, "\(exported.stderr)")
        func exportedWithoutItsTime(_ name: String) throws -> String {
            try String(contentsOfFile: folder.path(name), encoding: .utf8)
                .replacingOccurrences(of: #""exportedAt": "[^"]*""#, with: "", options: .regularExpression)
        }
        #expect(try exportedWithoutItsTime("team.json") == exportedWithoutItsTime("mine.json"), "an export is the same from either engine")
    }

    @Test func theReadmesTeamStoreExamplesWorkAsPrinted() throws {
        let place = try ExampleFolder()
        defer { place.folder.remove() }
        let team = try TestDatabase(.postgresql)
        defer { team.remove() }
        let examples = try DocumentedExamples.readmeServerExamples()
        #expect(examples.count >= 4, "\(examples)")
        #expect(try place.shell("checkrun record --release 2.4 --build 310 --check tiny-target/touch-one-hand --verdict pass --db ana.sqlite", input: nil).status == 0)
        for example in examples {
            let command = example.replacingOccurrences(of: DocumentedExamples.serverPlaceholder, with: "'\(team.address)'")
            let result = try place.shell(command, input: "t 40\n10\np\n\n")
            #expect(result.status == 0, "\(example)\n\(result.stdout)\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(password))
        }
        #expect(try place.shell("checkrun sessions --db mine.sqlite", input: nil).stdout.contains("release 2.4, build 311"), "the walk on the server came down")
    }

    /// A lead with the team store and no protocol folder reports from the versions it keeps,
    /// as from a file (the query that picks them was SQLite's alone).
    @Test func aTeamStoreAloneReportsWithTheTextTheTestersSaw() throws {
        let tester = try TemporaryFolder(), lead = try TemporaryFolder()
        defer { tester.remove(); lead.remove() }
        let team = try TestDatabase(.postgresql)
        defer { team.remove() }
        #expect(try checkrun(["record", "--release", "2.4", "--build", "310", "--check", "tiny-target/touch-one-hand", "--count", "hits=9",
                              "--expected", "2=pass", "--notes", "n", "--db", team.address], in: tester).status == 0)
        let report = try Checkrun.run(["report", "--release", "2.4", "--db", team.address], in: lead.path)
        #expect(report.status == 0 && report.stderr.contains("using the 1 protocol version kept in"), "\(report.stderr)")
        #expect(report.stdout.contains("#### tiny-target/touch-one-hand: failed"), "\(report.stdout)")
    }

    @Test func aRoleThatMayOnlyReadRunsEveryCommandThatReadsAndAWriteIsRefusedInOneLine() throws {
        let folder = try TemporaryFolder()
        let team = try TestDatabase(.postgresql)
        let role = "checkrun_reader_" + UUID().uuidString.prefix(8).lowercased()
        defer {
            team.remove()
            try? PostgresFixture.execute("DROP ROLE IF EXISTS \(role)", on: TestEngine.server ?? "")
            folder.remove()
        }
        for build in ["310", "311"] {
            #expect(try checkrun(["record", "--release", "2.4", "--build", build, "--check", "tiny-target/touch-one-hand", "--verdict", "fail",
                                  "--expected", "1=fail", "--notes", "n", "--db", team.address], in: folder).status == 0)
        }
        var parts = try #require(URLComponents(string: team.address))
        try PostgresFixture.execute("CREATE ROLE \(role) LOGIN PASSWORD 'reader-pw'", on: team.address)
        try PostgresFixture.execute("GRANT CONNECT ON DATABASE \(parts.path.dropFirst()) TO \(role); GRANT USAGE ON SCHEMA public TO \(role); "
            + "GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)", on: team.address)
        parts.user = role
        parts.password = "reader-pw"
        let reader = try #require(parts.string)
        for command in [["sessions"], ["report", "--release", "2.4"], ["compare", "--release", "2.4"], ["verify"], ["export", "--out", "team.json"]] {
            let result = try checkrun(command + ["--db", reader], in: folder)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let write = try checkrun(["record", "--release", "2.4", "--build", "312", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", reader], in: folder)
        #expect(write.status == 1 && write.stderr.contains("permission denied for table"), "\(write.stderr)")
        #expect(write.stderr.split(separator: "\n").count == 1 && !write.stderr.contains("reader-pw"), "\(write.stderr)")
    }

    @Test func aPasswordGivenInTheAddressIsNotLeftInTheProcessList() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try #require(TestEngine.server)
        let walk = Process()
        walk.executableURL = URL(fileURLWithPath: Checkrun.executable)
        walk.arguments = ["run", "--release", "2.4", "--build", "1", "--check", "tiny-target/touch-one-hand", "--protocols", protocols, "--db=" + server]
        walk.currentDirectoryURL = folder.url
        let input = Pipe(), output = Pipe()
        walk.standardInput = input
        walk.standardOutput = output
        walk.standardError = output
        try walk.run()
        // The walk is waiting at its first question: what ps shows of it now.
        let said = Transcript()
        output.fileHandleForReading.readabilityHandler = { said.add($0.availableData) }
        #expect(said.waitFor("Press Enter to start the stopwatch", seconds: 20), "\(said.text)")
        let shown = String(decoding: try Data(contentsOf: URL(fileURLWithPath: "/proc/\(walk.processIdentifier)/cmdline")), as: UTF8.self)
        try input.fileHandleForWriting.close()
        walk.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        #expect(shown.contains("--db=postgresql://postgres:") && !shown.contains(password), "\(shown)")
        #expect(!said.text.contains(password), "and it is never printed: \(said.text)")
    }

    @Test func aWrongPasswordAnUnreachableServerAndAnotherApplicationsDatabaseGiveOneClearLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try #require(TestEngine.server)
        var parts = try #require(URLComponents(string: server))
        parts.password = "wrong-password"
        let wrong = try #require(parts.string)
        let foreign = try TestDatabase(.postgresql)
        defer { foreign.remove() }
        try PostgresFixture.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY); INSERT INTO photos VALUES (1)", on: foreign.address)
        let cases: [(String, String)] = [
            (wrong, "the user name or password is wrong"),
            ("postgresql://postgres:secret@/checkrun?host=/nonexistent-socket-folder", "cannot reach the PostgreSQL server"),
            (foreign.address, "holds tables or other objects of another application"),
        ]
        for (address, words) in cases {
            for command in [["sessions"], ["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"]] {
                let result = try checkrun(command + ["--db", address], in: folder)
                #expect(result.status == 1, "\(command) \(words)")
                #expect(result.stderr.contains(words), "\(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
                #expect(!result.stderr.contains("wrong-password") && !result.stderr.contains("secret") && !result.stderr.contains(password))
            }
        }
        #expect(try PostgresFixture.count("SELECT count(*) FROM photos", on: foreign.address) == 1, "another application's data is left untouched")
        #expect(try PostgresFixture.count("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", on: foreign.address) == 1, "no table of checkrun's was added")
    }
}

/// The server stopped and started again in the middle of a walk, on a cluster of the test's own.
@Suite(.enabled(if: TestEngine.server != nil && ThrowawayServer.programs != nil, "needs a PostgreSQL build and CHECKRUN_TEST_POSTGRES_BIN (see .ci/run)"))
struct ServerRestartTests {
    @Test(.hangGuard) func theServerStoppedAndStartedMidWalkLosesNoAnswer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try ThrowawayServer()
        defer { server.remove() }
        let walk = Process()
        walk.executableURL = URL(fileURLWithPath: Checkrun.executable)
        walk.arguments = ["run", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--check", "tiny-target/voice-control-show-numbers",
                          "--protocols", Repository.path("protocols"), "--db", server.address]
        walk.currentDirectoryURL = folder.url
        let input = Pipe(), output = Pipe(), errors = Pipe()
        walk.standardInput = input
        walk.standardOutput = output
        walk.standardError = errors
        let said = Transcript()
        errors.fileHandleForReading.readabilityHandler = { said.add($0.availableData) }
        output.fileHandleForReading.readabilityHandler = { said.add($0.availableData) }
        try walk.run()
        func answer(_ line: String) throws {
            try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
            Thread.sleep(forTimeInterval: 0.5)
        }
        try answer("t 1:20")
        try answer("9")
        try server.stop()
        try answer("f Delete fired on try 4")
        #expect(said.waitFor("Waiting for the server to come back", seconds: 20), "the walk says that it waits: \(said.text)")
        #expect(!said.text.contains("Expected 2: fail"), "the answer is not announced before it is saved")
        try server.start()
        #expect(said.waitFor("the answer is saved", seconds: 20), "\(said.text)")
        for line in ["Delete fired", "t 3", "p", ""] { try answer(line) }
        try input.fileHandleForWriting.close()
        walk.waitUntilExit()
        for pipe in [output, errors] {
            pipe.fileHandleForReading.readabilityHandler = nil
            said.add(pipe.fileHandleForReading.readDataToEndOfFile())
        }
        #expect(walk.terminationStatus == 0, "\(said.text)")
        let store = try ResultStore(path: server.address, access: .existingOnly)
        defer { store.close() }
        let results = try store.sessionSummaries(release: "2.4")
        #expect(results.first?.completed == 2 && results.first?.failed == 1 && results.first?.passed == 1, "\(said.text)")
        var payloads: [String] = []
        try store.forEachRecord(inSession: try #require(results.first?.session.id)) { payloads.append($0.payload) }
        #expect(!zip(payloads, payloads.dropFirst()).contains { $0 == $1 }, "the answer saved after the wait is recorded once")
        #expect(payloads.last.flatMap { CheckResult.decoding(payload: $0, sessionID: results[0].session.id)?.verdict } == .pass)
        let verification = try store.verify()
        #expect(verification.isClean, "\(verification.problems)")
    }
}

/// What a running process printed so far, waited on line by line.
final class Transcript: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func add(_ more: Data) { lock.withLock { data.append(more) } }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    func waitFor(_ words: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if text.contains(words) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }
}

/// SQL on a test server, as another application (or an attacker) would run it.
enum PostgresFixture {
    static func execute(_ sql: String, on address: String) throws {
        for statement in sql.split(separator: ";") { try PostgresConnection(uri: address).query(String(statement)) }
    }

    static func count(_ sql: String, on address: String) throws -> Int {
        Int(try PostgresConnection(uri: address).query(sql).first?.first??.description ?? "") ?? -1
    }
}
#endif
