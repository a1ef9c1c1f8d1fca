import CheckrunModel
import Testing

/// Tamper checks compare text byte for byte: Swift's `==` takes canonically equivalent text
/// for equal, and an edit that swaps "é" for "e" and a combining accent must not pass.
@Suite struct ExactBytesTests {
    @Test func canonicallyEquivalentTextIsNotTheSameBytes() {
        let composed = "corrig\u{E9}"
        let decomposed = "corrige\u{301}"
        #expect(composed == decomposed)
        #expect(!composed.hasSameBytes(as: decomposed))
        #expect(!composed.hasSameBytes(as: Array(decomposed.utf8)))
        #expect(composed.hasSameBytes(as: "corrig\u{E9}"))
        #expect(composed.hasSameBytes(as: Array(composed.utf8)))
    }

    @Test(arguments: [("", "", true), ("", "a", false), ("a", "", false), ("abc", "abd", false), ("abc", "abcd", false),
                      (String(repeating: "x", count: 5000), String(repeating: "x", count: 5000), true)])
    func sameBytesOnlyWhenEveryByteIs(left: String, right: String, same: Bool) {
        #expect(left.hasSameBytes(as: right) == same)
        #expect(left.hasSameBytes(as: Array(right.utf8)) == same)
        // As verification compares a row's text in place with a payload it built.
        let inPlace = Array(left.utf8).withUnsafeBytes { leftBytes in Array(right.utf8).withUnsafeBytes { leftBytes.hasSameBytes(as: $0) } }
        #expect(inPlace == same)
    }

    @Test func aPrefixIsComparedByBytes() {
        #expect("{\n  \"id\": \"x\"".hasBytePrefix("{\n  \"id\""))
        #expect("abc".hasBytePrefix(""))
        #expect("".hasBytePrefix(""))
        #expect(!"ab".hasBytePrefix("abc"))
        #expect(!"caf\u{E9} au lait".hasBytePrefix("cafe\u{301}"))
    }
}
