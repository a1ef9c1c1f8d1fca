import CheckrunModel
import Foundation

/// Reading a tester's typed answers.
extension Walk {
    // MARK: - Reading answers

    /// "f Delete fired twice" → ("f", "Delete fired twice").
    static func splitNote(_ text: String) -> (String, String?) {
        let lowered = text.lowercased()
        for word in ["not applicable", "pass", "fail", "n/a", "na", "p", "f", "n", "y", "yes", "no"] where lowered.hasPrefix(word + " ") {
            let note = String(text.dropFirst(word.count)).trimmingCharacters(in: .whitespaces)
            return (String(text.prefix(word.count)), note.isEmpty ? nil : note)
        }
        return (text, nil)
    }

    /// "fail, 9, note: missed once": an answer as the prompt shows it when gone back to.
    static func describe(_ answer: OutcomeAnswer) -> String {
        var text = answer.verdict.spoken
        if let value = answer.value { text += ", \(value)" }
        if let note = answer.note, !note.isEmpty { text += ", note: \(DisplayText.preview(note, limit: 60))" }
        return text
    }

    static func outcomeVerdict(_ word: String) -> OutcomeVerdict? {
        switch word.lowercased() {
        case "p", "pass", "passed", "y", "yes", "ok": return .pass
        case "f", "fail", "failed": return .fail
        case "n", "na", "n/a", "not applicable", "none": return .notApplicable
        default: return nil
        }
    }

    static func countProblem(_ value: Int, outOf: Int?) -> String? {
        if value < 0 { return "A count can't be negative; type 0 or more." }
        if let outOf, value > outOf { return "That is more than the \(outOf) tries; type a number from 0 to \(outOf)." }
        if value > maximumCount { return "\(value) is more than \(maximumCount); that looks like a typing slip. Type the count again." }
        return nil
    }
}
