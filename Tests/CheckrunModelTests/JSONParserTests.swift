import CheckrunModel
import Testing

@Suite struct JSONParserTests {
    @Test func recordsTheLineAndColumnOfEveryValueAndKey() throws {
        let node = try JSONParser.parse("{\n  \"id\": \"x\",\n  \"list\": [1, 2.5, \"é\", true, null]\n}")
        #expect(node.location == SourceLocation(line: 1, column: 1))
        #expect(node.member("list")?.keyLocation == SourceLocation(line: 3, column: 3))
        let items = try #require(node["list"]?.arrayValue)
        #expect(items[0].value == .integer(1))
        #expect(items[1].value == .number(2.5))
        #expect(items[2].location == SourceLocation(line: 3, column: 20))
        #expect(items[3].location == SourceLocation(line: 3, column: 25), "columns count characters, not bytes")
    }

    @Test func keepsIntegersApartFromOtherNumbers() throws {
        #expect(try JSONParser.parse("10").value == .integer(10))
        if case .number = try JSONParser.parse("1e3").value {} else { Issue.record("1e3 is not an integer literal") }
        #expect(try JSONParser.parse("true").value != .integer(1))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let node = try JSONParser.parse(#""a\"b\\c\n\u00e9\ud83d\ude00""#)
        #expect(node.stringValue == "a\"b\\c\né😀")
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "trailing comma"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "comma is probably missing"),
        ("{\n  \"a\": 1,\n  \"a\": 2\n}", 3, 3, "duplicate key \"a\""),
        ("{'a': 1}", 1, 2, "double quotes"),
        ("[1, 2", 1, 6, "']' is missing"),
        ("{\"a\": \"x\n\"}", 1, 9, "closing '\"' is missing"),
        ("{\"a\": True}", 1, 7, "lower case"),
        ("{\"a\": 01}", 1, 8, "leading zeros"),
        ("{} {}", 1, 4, "after the end"),
        ("{" + (1...20).map { "\n\"k\($0)\": 1," }.joined() + "\n\"k3\": 2}", 22, 1, "duplicate key \"k3\" (first at line 4)"),
        ("{\"a\": \"tab\\tthen\u{01}\"}", 1, 17, "control character"),
    ])
    func reportsSyntaxErrorsWithTheirPlace(text: String, line: Int, column: Int, fragment: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.location == SourceLocation(line: line, column: column), "\(text): \(error.message)")
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func refusesDeepNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
        do { _ = try JSONParser.parse(deep) } catch {
            #expect(error.message.contains("nested more than"))
        }
    }

    @Test func writesWhatItReads() throws {
        let text = """
        {
          "id": "x",
          "expected": [
            "a \\"quoted\\" × outcome",
            {
              "text": "t",
              "atLeast": 10
            }
          ],
          "wcag": ["2.5.8", "4.1.2"]
        }

        """
        #expect(JSONWriter.write(try JSONParser.parse(text).value) == text)
    }

    /// Keys are code points: "é" and "e" with a combining accent are two keys, not a duplicate.
    @Test func keysDifferByCodePointsNotByCanonicalEquivalence() throws {
        let members = try JSONParser.parse("{\"\u{E9}\": 1, \"e\u{301}\": 2}").objectMembers
        #expect(members?.count == 2)
        #expect(try JSONParser.parse("{\"a\\\"b\": \"x\\u00e9y\"}")["a\"b"]?.stringValue == "xéy")
    }

    @Test func comparesStringsByUnicodeScalars() {
        #expect(JSONValue.string("ä") != JSONValue.string("a\u{308}"))
    }

    @Test func theWriterNeverWritesANumberJSONLacks() throws {
        let value = JSONValue.array([JSONNode(.number(.nan)), JSONNode(.number(.infinity)), JSONNode(.number(-.infinity)), JSONNode(.number(1.5))])
        #expect(JSONWriter.compact(value) == "[null,null,null,1.5]")
        #expect(try JSONParser.parse(JSONWriter.write(value)).arrayValue?.count == 4, "what it writes parses back")
    }
}
