import CheckrunModel
import Testing

/// Each assertion keyword the validator implements, with instances that pass and fail it, in
/// the manner of the JSON-Schema-Test-Suite's draft 2020-12 groups, written out here so the
/// tests need no files of the suite's. A test below fails when a keyword is added to
/// the validator without cases here.
@Suite struct JSONSchemaKeywordTests {
    /// keyword: (schema, instances that pass, instances that fail)
    static let groups: [String: (schema: String, valid: [String], invalid: [String])] = [
        "type": (#"{"type": "integer"}"#, ["1", "-5", "1.0"], ["1.5", "\"1\"", "null"]),
        "enum": (#"{"enum": [1, "a", null]}"#, ["1", "\"a\"", "null"], ["2", "\"b\"", "[1]"]),
        "const": (#"{"const": {"a": [1]}}"#, [#"{"a": [1]}"#], [#"{"a": [2]}"#, "1"]),
        "properties": (#"{"properties": {"a": {"type": "string"}}}"#, [#"{"a": "x"}"#, "{}", #"{"b": 1}"#], [#"{"a": 1}"#]),
        "required": (#"{"required": ["a"]}"#, [#"{"a": null}"#], ["{}", #"{"b": 1}"#]),
        "additionalProperties": (#"{"properties": {"a": {}}, "additionalProperties": false}"#, [#"{"a": 1}"#, "{}"], [#"{"a": 1, "b": 2}"#]),
        "items": (#"{"items": {"type": "integer"}}"#, ["[1, 2]", "[]"], [#"[1, "2"]"#]),
        "minItems": (#"{"minItems": 2}"#, ["[1, 2]", "[1, 2, 3]"], ["[1]", "[]"]),
        "maxItems": (#"{"maxItems": 1}"#, ["[]", "[1]"], ["[1, 2]"]),
        "uniqueItems": (#"{"uniqueItems": true}"#, ["[1, 2]", #"[{"a": 1}, {"a": 2}]"#], ["[1, 1]", #"[{"a": 1}, {"a": 1}]"#]),
        "minLength": (#"{"minLength": 2}"#, [#""ab""#, #""日本""#], [#""a""#, #""""#]),
        "maxLength": (#"{"maxLength": 2}"#, [#""ab""#, #""💩💩""#], [#""abc""#]),
        "pattern": (#"{"pattern": "^[a-z]+(-[a-z]+)*$"}"#, [#""tiny-target""#], [#""Tiny""#, #""a--b""#]),
        "minimum": (#"{"minimum": 1}"#, ["1", "2.5"], ["0", "0.99"]),
        "maximum": (#"{"maximum": 3}"#, ["3", "-1"], ["3.01"]),
        "exclusiveMinimum": (#"{"exclusiveMinimum": 1}"#, ["1.01", "2"], ["1", "0"]),
        "exclusiveMaximum": (#"{"exclusiveMaximum": 3}"#, ["2.99"], ["3", "4"]),
        "anyOf": (#"{"anyOf": [{"type": "string"}, {"minimum": 2}]}"#, [#""x""#, "3"], ["1"]),
        "oneOf": (#"{"oneOf": [{"type": "integer"}, {"minimum": 2}]}"#, ["1", "2.5"], ["3", "1.5"]),
        "allOf": (#"{"allOf": [{"type": "integer"}, {"minimum": 2}]}"#, ["2"], ["1", "2.5"]),
        "$ref": (##"{"$defs": {"positive": {"type": "integer", "minimum": 1}}, "$ref": "#/$defs/positive"}"##, ["1"], ["0", "\"1\""]),
    ]

    @Test func everyAssertionKeywordHasCases() {
        #expect(Set(Self.groups.keys) == JSONSchema.assertionKeywords)
    }

    @Test func eachKeywordPassesWhatItShouldAndFailsTheRest() throws {
        for (keyword, group) in Self.groups {
            let schema = JSONSchema(try JSONParser.parse(group.schema))
            for text in group.valid {
                #expect(schema.validate(try JSONParser.parse(text)).isEmpty, "\(keyword): \(text) is valid")
            }
            for text in group.invalid {
                #expect(!schema.validate(try JSONParser.parse(text)).isEmpty, "\(keyword): \(text) is invalid")
            }
        }
    }
}
