import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A count forged behind a pass, its hash recomputed so the chain holds, is judged against the
/// check as the kept version had it: `verify`, `report` and `merge` each name it, where the
/// report showed a pass no tester gave ("hits 3" beside "10 out of 10 hits: pass").
@Suite struct ForgedCountTests {
    static let forgeries: [(from: String, to: String, named: String)] = [
        ("\"value\": 10,", "\"value\": 3,", "expected outcome 1 is pass, but hits 3 against at least 10 of 10 is a fail"),
        ("\"hits\": {", "\"misses\": {", "it counts misses, which the check does not have"),
        ("\"value\": null,", "\"value\": 7,", "expected outcome 2 holds the count 7, but it counts nothing"),
        ("\"outcomes\": [", "\"outcomes\": [{\"verdict\": \"pass\", \"value\": null, \"note\": null, \"answeredAt\": 1},",
         "it answers expected outcome 3, which the check does not have"),
    ]

    @Test(arguments: forgeries)
    func aCountForgedBehindAPassIsNamedEverywhere(forgery: (from: String, to: String, named: String)) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func checkrun(_ arguments: [String]) throws -> ProcessResult {
            try Checkrun.run(arguments + ["--protocols", Repository.path("protocols")], in: folder.path)
        }
        let recorded = try checkrun(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand",
                                     "--count", "hits=10", "--expected", "2=pass", "--db", "ana.sqlite"])
        #expect(recorded.status == 0 && recorded.stdout.contains(": pass,"), "\(recorded.stdout)\(recorded.stderr)")
        // Every place the value stands in the record, and the tables made to match it.
        let payload = try Self.firstPayload(folder.path("ana.sqlite"))
        try ForgedValueTests.forge(folder.path("ana.sqlite"), replacing: forgery.from, with: forgery.to)
        #expect(try Self.firstPayload(folder.path("ana.sqlite")) != payload)
        let raw = try Database(path: folder.path("ana.sqlite"))
        try raw.execute(Self.matchingTables[forgery.to] ?? "")
        raw.close()

        let verified = try checkrun(["verify", "--db", "ana.sqlite"])
        #expect(verified.status == 1 && verified.stdout.contains(forgery.named) && verified.stdout.contains("so it was forged"), "\(verified.stdout)")
        let reported = try checkrun(["report", "--release", "2.4", "--db", "ana.sqlite"])
        #expect(reported.status == 1 && reported.stderr.contains(forgery.named), "\(reported.stdout)\(reported.stderr)")
        let merged = try checkrun(["merge", "ana.sqlite", "--db", "team.sqlite"])
        #expect(merged.status == 1 && merged.stderr.contains("record 1 holds a result of tiny-target/touch-one-hand that checkrun never saves: \(forgery.named)"),
                "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("team.sqlite")), "nothing was written")
    }

    /// The tables made to say what each forged record says.
    static let matchingTables: [String: String] = [
        "\"value\": 3,": "UPDATE counter_values SET value = 3; UPDATE outcome_answers SET value = 3 WHERE value = 10",
        "\"misses\": {": "UPDATE counter_values SET counter = 'misses'",
        "\"value\": 7,": "UPDATE outcome_answers SET value = 7 WHERE value IS NULL",
        "\"outcomes\": [{\"verdict\": \"pass\", \"value\": null, \"note\": null, \"answeredAt\": 1},":
            "UPDATE outcome_answers SET position = position + 10; UPDATE outcome_answers SET position = position - 9; INSERT INTO outcome_answers SELECT id, 0, 'pass', NULL, NULL, 1 FROM results",
    ]

    static func firstPayload(_ path: String) throws -> String? {
        let raw = try Database(path: path)
        defer { raw.close() }
        return try raw.query("SELECT payload FROM records WHERE sequence = 1") { $0.string(0) }.first ?? nil
    }
}
