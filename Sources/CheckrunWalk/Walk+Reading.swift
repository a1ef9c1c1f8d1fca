import CheckrunModel
import Foundation

/// Reading a tester's typed answers.
extension Walk {
    // MARK: - Reading answers

    /// "fail, 9, note: missed once": an answer as the prompt shows it when gone back to.
    static func describe(_ answer: OutcomeAnswer) -> String {
        var text = answer.verdict.spoken
        if let value = answer.value { text += ", \(value)" }
        if let note = answer.note, !note.isEmpty { text += ", note: \(DisplayText.preview(note, limit: 60))" }
        return text
    }

    /// A message of the shared vocabulary said as a sentence: capitalised, with its full stop.
    static func sentence(_ text: String) -> String {
        (text.first.map { String($0).uppercased() } ?? "") + text.dropFirst() + "."
    }

    static func countProblem(_ value: Int, outOf: Int?) -> String? {
        if value < 0 { return "A count can't be negative; type 0 or more." }
        if let outOf, value > outOf { return "That is more than the \(outOf) tries; type a number from 0 to \(outOf)." }
        if value > AnswerLimits.count { return "\(value) is more than \(AnswerLimits.count); that looks like a typing slip. Type the count again." }
        return nil
    }
}
