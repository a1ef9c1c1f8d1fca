import Foundation

/// The one vocabulary of answers, shared by the walk, `record` and `amend`: every word accepted
/// alone is accepted before a note too ("failed Delete fired"). Words that could be read two
/// ways are not answers: "no" might mean "failed" or "not applicable", and a wrong verdict is
/// worse than a question asked again. Nor is "ok": a note such as "OK button fired Delete"
/// would be read as a pass.
package enum AnswerWords {
    /// Longest first, so "not applicable" is read before "n".
    package static let outcomes: [(word: String, verdict: OutcomeVerdict)] = [
        ("not applicable", .notApplicable), ("passed", .pass), ("failed", .fail), ("pass", .pass), ("fail", .fail),
        ("n/a", .notApplicable), ("na", .notApplicable), ("p", .pass), ("f", .fail), ("n", .notApplicable),
    ]

    /// The verdict a word gives, whatever its case; nil for anything else.
    package static func outcome(_ word: String) -> OutcomeVerdict? {
        let lowered = word.lowercased()
        return outcomes.first { $0.word == lowered }?.verdict
    }

    /// "f Delete fired twice" → ("f", "Delete fired twice"); a text without a verdict word
    /// first is returned whole.
    package static func splitNote(_ text: String) -> (word: String, note: String?) {
        let lowered = text.lowercased()
        for (word, _) in outcomes where lowered.hasPrefix(word + " ") {
            let note = String(text.dropFirst(word.count)).trimmingCharacters(in: .whitespaces)
            return (String(text.prefix(word.count)), note.isEmpty ? nil : note)
        }
        return (text, nil)
    }

    /// A count as typed: digits alone. A sign makes no count: "+3", typed to add three to the
    /// count, was saved as a count of 3. Nil for anything else, or too large a number.
    package static func count(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }

    /// Why text typed as a number is no count, or nil when `text` does not read as a number
    /// (or is a count): a sign, digits of another script, a fraction, an exponent or a hex
    /// number, or too many digits. The same words in the walk, `record` and `amend`, so no
    /// number is refused without its reason.
    package static func numberProblem(_ text: String) -> String? {
        guard let first = text.first, count(text) == nil else { return nil }
        if "+-\u{2212}\u{FF0B}\u{FF0D}".contains(first), isDigits(text.dropFirst()) {
            return first == "+" || first == "\u{FF0B}"
                ? "a count is the number counted, not a change to it: type the whole count, without the plus (+)"
                : "a count can't be negative; type 0 or more"
        }
        if isDigits(Substring(text)) {
            return text.unicodeScalars.allSatisfy(\.isASCII)
                ? "a count is a whole number from 0 to \(AnswerLimits.count)"
                : "type the count in the digits 0 to 9"
        }
        if text.range(of: #"^[0-9]+[.,][0-9]+$"#, options: .regularExpression) != nil { return "a count is a whole number, typed without a point or comma" }
        if text.range(of: #"^(?:[0-9]+[eE][0-9]+|0[xX][0-9A-Fa-f]+)$"#, options: .regularExpression) != nil {
            return "type the count in plain digits 0 to 9"
        }
        return nil
    }

    /// Whether `text` is decimal digits of any script, and nothing else.
    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.properties.numericType == .decimal }
    }

    /// How the accepted words are listed in messages.
    package static let listed = "p, pass or passed; f, fail or failed; n, na, n/a or not applicable"
}

/// The limits on what a tester types, the same in the walk and on the command line.
package enum AnswerLimits {
    /// Counts above this are surely a typing slip.
    package static let count = 100_000
    /// Notes longer than this are refused: a paste of a whole log belongs in a ticket.
    package static let notesLength = 1_000_000
}
