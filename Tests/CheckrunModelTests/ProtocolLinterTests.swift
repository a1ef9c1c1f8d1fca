import CheckrunModel
import CheckrunTestSupport
import Foundation
import Testing

@Suite struct ProtocolLinterTests {
    let linter = ProtocolLinter()

    static let valid = """
    {
      "$schema": "../Schemas/protocol.schema.json",
      "id": "sample",
      "title": "Sample",
      "status": "ready",
      "source": "sample.txt",
      "wcag": ["2.5.8"],
      "checks": [
        {
          "id": "touch",
          "profile": "touch, one hand",
          "task": "close the sheet 10 times in a row",
          "expected": [
            {"text": "10 out of 10 hits", "counter": "hits", "atLeast": 10, "outOf": 10},
            "Delete never triggered"
          ],
          "counters": [{"id": "hits", "label": "hits"}]
        }
      ]
    }
    """

    func problems(_ text: String, file: String = "sample.json") -> [LintProblem] {
        linter.lint(bytes: Array(text.utf8), fileName: file).problems
    }

    @Test func aValidProtocolDecodesWithItsTarget() throws {
        let result = linter.lint(bytes: Array(Self.valid.utf8), fileName: "protocols/sample.json")
        #expect(result.problems.isEmpty, "\(result.problems)")
        let check = try #require(result.document?.checks.first)
        #expect(check.expected[0].target == NumericTarget(counter: "hits", atLeast: 10, outOf: 10))
        #expect(check.expected[0].target?.isMet(by: 9) == false)
        #expect(check.expected[0].target?.isMet(by: 10) == true)
        #expect(check.expected[1] == ExpectedOutcome("Delete never triggered"))
    }

    @Test func everyProtocolInTheRepositoryIsClean() throws {
        let library = try ProtocolLibrary.load(directory: Repository.path("protocols"))
        #expect(library.problems.isEmpty, "\(library.problems.map(\.description))")
        #expect(library.documents.map(\.id) == ["assistive-access", "motor-accessibility", "over-grouped-control", "system-gesture-safe-zone", "tiny-target"])
    }

    @Test func malformedJSONNamesTheLineAndColumn() {
        let broken = Self.valid.replacingOccurrences(of: "\"title\": \"Sample\",", with: "\"title\": \"Sample\"")
        let found = problems(broken)
        #expect(found.count == 1)
        #expect(found.first?.description.hasPrefix("sample.json:5:3: invalid JSON: expected ',' or '}'") == true, "\(found)")
    }

    @Test func aWrongTypeNamesThePointerAndTheFix() {
        let found = problems(Self.valid.replacingOccurrences(of: "\"title\": \"Sample\"", with: "\"title\": 42"))
        #expect(found.map(\.description) == ["sample.json:4:12: /title: expected a string, found a number — The catalog entry's title, e.g. \"Tiny Target\"."])
    }

    /// A target no tester can reach passed lint: the walk refuses a count over 100,000 as a
    /// typing slip, so a check asking for 200,000 hits could never pass; nor a time limit of years.
    @Test func aTargetNoTesterCanReachIsRefused() {
        let found = problems(Self.valid
            .replacingOccurrences(of: "\"atLeast\": 10, \"outOf\": 10", with: "\"atLeast\": 100001, \"outOf\": 200000")
            .replacingOccurrences(of: "\"task\": \"close", with: "\"timeLimit\": 86401, \"task\": \"close"))
        #expect(found.map { "\($0.pointer.map { "\($0)" } ?? ""): \($0.message)" }.sorted() == [
            "/checks/0/expected/0/atLeast: 100001 is too large; the most allowed is 100000",
            "/checks/0/expected/0/outOf: 200000 is too large; the most allowed is 100000",
            "/checks/0/timeLimit: 86401 is too large; the most allowed is 86400",
        ], "\(found)")
    }

    /// A key or a counter's name holding a line break was quoted raw: one problem printed as
    /// several lines, one of them "1 file checked, no problems.". Each problem is one line.
    @Test func aProblemIsOneLineWhateverTheFileHolds() {
        let forged = Self.valid
            .replacingOccurrences(of: "\"task\":", with: "\"tsak\\n\\n1 file checked, no problems.\\n\": \"x\", \"task\":")
            .replacingOccurrences(of: "\"counter\": \"hits\"", with: "\"counter\": \"hitz\\nok\"")
        let found = problems(forged)
        #expect(found.count >= 2)
        #expect(found.allSatisfy { !$0.description.contains("\n") }, "\(found.map(\.description))")
        #expect(found.contains { $0.description.contains("unknown key \"tsak /  / 1 file checked, no problems. / \"") }, "\(found.map(\.description))")
    }

    /// A title, task or outcome of spaces or invisible characters alone passes minLength, and
    /// showed testers and reports nothing: refused where it stands. Text with a joiner in it is fine.
    @Test func aTextWithNothingVisibleIsRefused() {
        for blank in ["   ", "\\u200B", "\\u00A0\\u2060", "\\u3000", "\\u2800", "\\u0301", " \\u0301", "\\u3164\\u0301", "\\u200B\\u20DD"] {
            let found = problems(Self.valid.replacingOccurrences(of: "\"title\": \"Sample\"", with: "\"title\": \"\(blank)\"")).map(\.description)
            #expect(found == ["sample.json:4:12: /title: the text is only spaces or invisible characters; write what a tester should read, or remove it"], "\(blank): \(found)")
        }
        #expect(problems(Self.valid.replacingOccurrences(of: "\"Delete never triggered\"", with: "\" \"")).map(\.description).contains { $0.contains("/checks/0/expected/1: the text is only spaces") })
        for shown in ["Sam\\u200Dple \\u00A0", "e\\u0301", "\\u0915\\u094D\\u0937", "\\uD83D\\uDC69\\u200D\\uD83D\\uDCBB", "\\u0627", "\\u05D0\\u05B0", "1\\uFE0F\\u20E3", "\\u2801"] {
            #expect(problems(Self.valid.replacingOccurrences(of: "\"Sample\"", with: "\"\(shown)\"")).isEmpty, "\(shown)")
        }
    }

    /// The store keeps an expected outcome's place as a number and believes none beyond what a
    /// protocol can have: a check holds at most 1,000.
    @Test func aCheckWithMoreThanAThousandExpectedOutcomesIsRefused() {
        let many = (0..<1001).map { "\"outcome \($0)\"" }.joined(separator: ", ")
        let found = problems(Self.valid.replacingOccurrences(of: "\"Delete never triggered\"", with: many)).map(\.description)
        #expect(found.contains { $0.contains("/checks/0/expected") && $0.contains("1000") }, "\(found)")
        let allowed = (0..<999).map { "\"outcome \($0)\"" }.joined(separator: ", ")
        #expect(problems(Self.valid.replacingOccurrences(of: "\"Delete never triggered\"", with: allowed)).isEmpty)
    }

    @Test func anUnknownKeyIsPlacedAtTheKeyWithASuggestion() {
        let found = problems(Self.valid.replacingOccurrences(of: "\"task\":", with: "\"tsak\":"))
        let lines = found.map(\.description)
        #expect(lines.contains { $0.hasPrefix("sample.json:12:7: /checks/0/tsak: unknown key \"tsak\". Did you mean \"task\"?") }, "\(lines)")
        #expect(lines.contains { $0.contains("/checks/0: missing \"task\"") && $0.contains("is \"tsak\" meant to be \"task\"?") }, "\(lines)")
    }

    /// The schema's patterns: ids in lower case with single hyphens, criteria as numbers.
    @Test func valuesOutOfTheirRequiredFormAreNamed() {
        let found = problems(Self.valid.replacingOccurrences(of: "\"id\": \"touch\"", with: "\"id\": \"Touch_Once\"")
            .replacingOccurrences(of: "[\"2.5.8\"]", with: "[\"2.5.800\"]")).map(\.description)
        #expect(found.contains { $0.hasPrefix("sample.json:10:13: /checks/0/id: \"Touch_Once\" is not in the required form") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("sample.json:7:12: /wcag/0: \"2.5.800\" is not in the required form") }, "\(found)")
        #expect(problems(Self.valid.replacingOccurrences(of: "\"id\": \"touch\"", with: "\"id\": \"touch-once-2\"")).isEmpty)
    }

    /// An id is part of every key a store indexes: one of thousands of characters was accepted
    /// by lint and SQLite, and a server's index refused every answer to it.
    @Test func anIdLongerThanAHundredCharactersIsRefused() {
        let long = String(repeating: "a", count: 101)
        let found = problems(Self.valid.replacingOccurrences(of: "\"id\": \"touch\"", with: "\"id\": \"\(long)\"")).map(\.description)
        #expect(found.contains { $0.hasPrefix("sample.json:10:13: /checks/0/id:") && $0.contains("100") }, "\(found)")
        #expect(problems(Self.valid.replacingOccurrences(of: "\"id\": \"touch\"", with: "\"id\": \"\(long.dropLast())\"")).isEmpty)
    }

    @Test func anUnknownWCAGNumberIsReportedWithTheNearestCriteria() {
        let found = problems(Self.valid.replacingOccurrences(of: "[\"2.5.8\"]", with: "[\"2.5.9\"]"))
        #expect(found.map(\.description) == ["sample.json:7:12: /wcag/0: \"2.5.9\" is not a WCAG 2.2 success criterion; did you mean \"2.5.8 Target Size (Minimum)\" or \"2.5.7 Dragging Movements\"?"])
    }

    @Test func duplicateIdsAndMissingCountersAreAllReported() {
        var text = Self.valid.replacingOccurrences(of: "\"counter\": \"hits\"", with: "\"counter\": \"hit\"")
        text = text.replacingOccurrences(of: "\"checks\": [\n    {", with: "\"checks\": [\n    {\"id\": \"touch\", \"profile\": \"p\", \"task\": \"t\", \"expected\": [\"e\"]},\n    {")
        let found = problems(text).map(\.description)
        #expect(found.count == 2, "\(found)")
        #expect(found.contains { $0.contains("/checks/1/id: duplicate check id \"touch\" (also /checks/0/id)") })
        #expect(found.contains { $0.contains("/checks/1/expected/0/counter: no counter \"hit\" in this check. Did you mean \"hits\"?") })
    }

    @Test func theIdMustMatchTheFileName() {
        let found = problems(Self.valid, file: "protocols/other.json").map(\.description)
        #expect(found == ["protocols/other.json:3:9: /id: the id \"sample\" differs from the file name \"other.json\"; rename the file to sample.json or set the id to \"other\""])
    }

    @Test func impossibleTargetsAndUnreviewedReadyProtocolsAreCaught() {
        var text = Self.valid.replacingOccurrences(of: "\"atLeast\": 10, \"outOf\": 10", with: "\"atLeast\": 11, \"outOf\": 10")
        text = text.replacingOccurrences(of: "\"counters\":", with: "\"review\": \"check me\", \"counters\":")
        let found = problems(text).map(\.description)
        #expect(found.contains { $0.contains("/status: the status is \"ready\" but a check is still marked for review") })
        #expect(found.contains { $0.contains("atLeast 11 is more than outOf 10") })
    }

    @Test func emptyBinaryHugeAndDeepFilesGetClearMessages() throws {
        #expect(problems("").map(\.description) == ["sample.json:1:1: the file is empty; a protocol file is a JSON object with id, title, status, source, wcag and checks (see Schemas/protocol.schema.json, or run `checkrun import`)"])
        let binary = linter.lint(bytes: [0x7B, 0x0A, 0x22, 0xFF, 0x00], fileName: "x.json").problems
        #expect(binary.first?.description == "x.json:2:2: this is not UTF-8 text (byte 0xFF at line 2, column 2); a protocol file is JSON text — is this the right file?")
        let huge = [UInt8](repeating: 0x20, count: 5 << 20)
        #expect(linter.lint(bytes: huge, fileName: "big.json").problems.first?.message.contains("larger than 1 MB") == true)
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(problems(deep).first?.message.contains("nested more than 64 levels") == true)
    }

    @Test func aMissingFileIsAClearError() {
        #expect(throws: ProtocolLibrary.LoadError.self) { try ProtocolLibrary.load(directory: "/no/such/folder") }
    }

    @Test(arguments: ["\"atLeast\": 10", "\"outOf\": 10"])
    func aWholeNumberBeyond64BitsIsRefusedWithItsPointer(field: String) throws {
        let name = field.split(separator: "\"")[0]
        let text = Self.valid.replacingOccurrences(of: field, with: "\"\(name)\": 99999999999999999999")
        let found = problems(text)
        #expect(found.contains { $0.description.contains("/checks/0/expected/0/\(name): 1e+20 is too large for a whole number") }, "\(found)")
        #expect(problems(Self.valid.replacingOccurrences(of: field, with: "\"\(name)\": 10.0")).isEmpty, "10.0 is still a whole number")
    }
}
