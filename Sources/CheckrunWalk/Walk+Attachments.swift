import CheckrunModel
import Foundation

/// What the tester asked to attach, for the caller to fetch and store: the walk reads no file.
package struct AttachmentRequest: Sendable, Equatable {
    /// The path as typed or pasted (see `DroppedPath`); nil for what the capture command writes.
    package var path: String?
    /// The expected outcome asked about when the tester attached, numbered from 1; nil for
    /// the check as a whole.
    package var outcome: Int?
    /// The check (its position in the plan).
    package var check: Int

    package init(path: String?, outcome: Int?, check: Int) {
        self.path = path
        self.outcome = outcome
        self.check = check
    }
}

/// Evidence during the walk: `a PATH` attaches a file, `a` alone runs the capture command;
/// the caller stores the bytes and hands the attachment back, and the walk then asks what it
/// shows, so the report can say it in words.
extension Walk {
    /// The request a line makes at this step, or nil when the line is something else. At the
    /// notes and block-reason prompts, whose answers are free text ("a button fired twice"),
    /// only a line that plainly names a file is a request.
    func attachRequest(_ trimmed: String, step: WalkStep, index: Int) -> AttachmentRequest? {
        let lower = trimmed.lowercased()
        let outcome: Int? = if case .outcome(let number) = step { number + 1 } else { nil }
        if lower == "a" || lower == "attach" { return AttachmentRequest(path: nil, outcome: outcome, check: index) }
        let path: Substring
        if lower.hasPrefix("a ") { path = trimmed.dropFirst(2) } else if lower.hasPrefix("attach ") { path = trimmed.dropFirst(7) } else { return nil }
        let text = path.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if step == .notes || step == .blockReason {
            let plainlyAFile = ["/", "~/", "./", "../", "'", "\"", "file://"].contains { text.lowercased().hasPrefix($0) }
            guard plainlyAFile else { return nil }
        }
        return AttachmentRequest(path: text, outcome: outcome, check: index)
    }

    /// The caller stored the file: the result lists it, is saved, and the walk asks what it shows.
    package mutating func attached(_ attachment: Attachment, for request: AttachmentRequest, date: Date) -> [WalkEvent] {
        guard results.indices.contains(request.check) else { return [] }
        var attachment = attachment
        attachment.outcome = request.outcome
        results[request.check].attachments.append(attachment)
        describing = (request.check, results[request.check].attachments.count - 1)
        let place = request.outcome.map { "expected outcome \($0)" } ?? "check \(request.check + 1)"
        return [.say("Attached \(DisplayText.neutralised(attachment.name)) (\(MediaType.words(attachment.mediaType)), \(attachment.sizeText)) to \(place)."),
                .save(touch(request.check, date))]
    }

    /// The answer to "what does it show?": any line; Enter leaves it without a description.
    mutating func answerDescription(_ input: String, date: Date) -> [WalkEvent] {
        guard let (check, position) = describing, results.indices.contains(check), results[check].attachments.indices.contains(position) else {
            describing = nil
            return []
        }
        let text = input.trimmingCharacters(in: .whitespaces)
        // q quits here as at every prompt: the attachment is kept, without a description.
        if ["q", "quit", "exit"].contains(text.lowercased()) {
            describing = nil
            return [.say("Kept without a description."), .quit]
        }
        if text == "?" {
            return [.hint("Say in a few words what the file shows, e.g. \"the Pay button, 20 points wide, with VoiceOver focus\". It is read out in the report in place of the picture. Enter leaves it without a description.")]
        }
        if Self.isKeyOrAnswerWord(text) {
            return [.say("\"\(DisplayText.neutralised(text))\" is an answer or a key at the other prompts, not a description. Say in a few words what the file shows, or press Enter to leave it without one.")]
        }
        guard text.unicodeScalars.count <= AnswerLimits.notesLength else {
            return [.say("The description is \(text.unicodeScalars.count) characters; the most is \(AnswerLimits.notesLength). Say it more briefly.")]
        }
        describing = nil
        results[check].attachments[position].description = text
        return [.say(text.isEmpty ? "Kept without a description." : "Description saved: \(DisplayText.preview(text))"), .save(touch(check, date))]
    }

    /// A key or answer word of the other prompts (an answer given early, or b for back), which
    /// typed alone at a prompt for free text would become its text: a description read out in
    /// place of a picture, a failure's notes ("pass"), a block's reason ("f").
    static func isKeyOrAnswerWord(_ text: String) -> Bool {
        let isKey = text.count == 1 && !text.unicodeScalars.contains { $0.properties.isAlphabetic && !$0.isASCII }
        return isKey || AnswerWords.outcome(text) != nil || walkWords.contains(text.lowercased())
    }

    /// The walk's words for its keys, never a description on their own.
    static let walkWords: Set<String> = ["back", "skip", "block", "blocked", "help", "yes", "no", "undo", "pause", "stop"]

    var describingPrompt: String {
        "What does it show? A short description, read out in the report in place of the file (Enter for none)."
    }
}
