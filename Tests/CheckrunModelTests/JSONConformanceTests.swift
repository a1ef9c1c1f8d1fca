import CheckrunModel
import Testing

/// Cases in the manner of nst/JSONTestSuite (y_: must accept, n_: must refuse), by its names,
/// written out here so the tests need no files of the suite's. Where the suite leaves a case to
/// the implementation (i_), the choice is stated.
@Suite struct JSONConformanceTests {
    static let mustAccept: [(String, String)] = [
        ("y_array_empty", "[]"), ("y_object_empty", "{}"), ("y_array_null", "[null]"), ("y_number_1E22", "[1E22]"),
        ("y_number_minus_zero", "[-0]"), ("y_number_0e1", "[0e1]"), ("y_number_real_capital_e_pos_exp", "[1E+2]"),
        ("y_number_real_neg_exp", "[1e-2]"), ("y_number_negative_int", "[-123]"), ("y_number_real_fraction_exponent", "[123.456e78]"),
        ("y_number_very_big_negative_exponent_underflow", "[123e-10000000]"),
        ("y_string_unicode_escapes", #"["\u0060\u012a\u12AB"]"#), ("y_string_surrogate_pair", #"["\uD801\udc37"]"#),
        ("y_string_escaped_nul", #"["\u0000"]"#), ("y_string_allowed_escapes", #"["\"\\\/\b\f\n\r\t"]"#),
        ("y_string_u2028_line_separator", "[\"a\u{2028}b\"]"), ("y_string_utf8", "[\"€𝄞\"]"), ("y_string_empty", #"[""]"#),
        ("y_object_empty_key", #"{"":0}"#),
        ("y_structure_whitespace_array", " [1] \n"), ("y_structure_lonely_string", #""asd""#), ("y_structure_lonely_int", "42"),
        ("y_structure_lonely_true", "true"), ("y_structure_lonely_null", "null"), ("y_array_heterogeneous", #"[null, 1, "1", {}]"#),
        ("y_object_nested", #"{"a":{"b":[{"c":[]}]}}"#), ("y_structure_true_in_array", "[true]"),
    ]

    static let mustRefuse: [(String, String)] = [
        ("n_array_extra_comma", "[1,]"), ("n_array_leading_comma", "[,1]"), ("n_object_trailing_comma", #"{"a":1,}"#),
        ("n_number_leading_zero", "[01]"), ("n_number_minus_alone", "[-]"), ("n_number_starting_with_dot", "[.1]"),
        ("n_number_real_without_fractional_part", "[1.]"), ("n_number_exponent_without_digits", "[1e]"), ("n_number_plus_one", "[+1]"),
        ("n_number_NaN", "[NaN]"), ("n_number_infinity", "[Infinity]"), ("n_number_hex", "[0x1]"), ("n_number_neg_leading_zero", "[-01]"),
        ("n_string_single_quote", "['single']"), ("n_string_unescaped_tab", "[\"a\tb\"]"), ("n_string_unescaped_newline", "[\"a\nb\"]"),
        ("n_string_invalid_escape", #"["\x00"]"#), ("n_string_incomplete_unicode_escape", #"["\u12"]"#),
        ("n_array_missing_comma", "[1 2]"), ("n_object_missing_colon", #"{"a" 1}"#), ("n_object_non_string_key", "{1:1}"),
        ("n_object_missing_value", #"{"a":}"#), ("n_array_two_values_no_comma", "[true false]"), ("n_incomplete_true", "[tru]"),
        ("n_incomplete_null", "[nul]"), ("n_structure_empty", ""), ("n_structure_whitespace_only", "  "), ("n_array_unclosed", "["),
        ("n_structure_lone_close", "]"), ("n_structure_object_with_trailing_garbage", #"{"a":1}}"#), ("n_structure_trailing_garbage", "[1]x"),
        ("n_structure_comment", "/* c */[]"), ("n_string_unterminated", #"["a"#), ("n_structure_capitalized_True", "[True]"),
        ("n_object_unquoted_key", "{a:1}"), ("n_structure_two_roots", "[] []"),
    ]

    /// Left to implementations by the suite (i_), and one the suite accepts (a key given twice,
    /// which RFC 8259 only says SHOULD NOT happen): checkrun refuses each and says why, since in a
    /// protocol file a key given twice would silently lose one of its values.
    static let refusedByChoice: [(String, String)] = [
        ("y_object_duplicated_key", #"{"a":"b","a":"c"}"#),
        ("i_string_lone_high_surrogate", #"["\uD800"]"#),
        ("i_number_huge_exp", "[1e999]"),
    ]

    @Test func acceptsEveryValidDocument() {
        for (name, text) in Self.mustAccept {
            #expect(throws: Never.self, "\(name)") { _ = try JSONParser.parse(text) }
        }
    }

    @Test func refusesEveryInvalidDocumentWithAMessage() {
        for (name, text) in Self.mustRefuse + Self.refusedByChoice {
            #expect("\(name)") { _ = try JSONParser.parse(text) } throws: { error in
                !"\(error)".isEmpty
            }
        }
    }

    @Test func whatItWritesItReadsBackUnchanged() throws {
        for (name, text) in Self.mustAccept {
            let value = try JSONParser.parse(text).value
            #expect(try JSONParser.parse(JSONWriter.write(value)).value == value, "\(name)")
        }
    }
}
