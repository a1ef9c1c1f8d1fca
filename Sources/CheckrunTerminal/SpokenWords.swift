import Foundation

/// Symbols a screen reader reads badly or not at all, said in words in accessible mode:
/// "44 × 44 pt" is read "44 by 44 pt", "310 → 311" "310 to 311".
package enum SpokenWords {
    static let words: [(String, String)] = [("→", "to"), ("×", "by"), ("•", "-"), ("✓", "check"), ("✗", "cross")]

    package static func replacingSymbols(_ text: String) -> String {
        guard words.contains(where: { text.contains($0.0) }) else { return text }
        var result = text
        for (symbol, word) in words where result.contains(symbol) {
            result = result.replacingOccurrences(of: " \(symbol) ", with: " \(word) ")
                .replacingOccurrences(of: symbol, with: " \(word) ")
        }
        return result
    }
}
