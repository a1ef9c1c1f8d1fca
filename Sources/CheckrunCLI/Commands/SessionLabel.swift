import CheckrunModel

/// The labels a session is filed under (release, build, device, tester, OS version). Reports,
/// comparisons and attempt numbers group by them exactly, so "2.4 " would begin a release of
/// its own, silently apart from "2.4"; and a line break or an escape sequence in one would
/// begin a line of its own in every listing. Such a label is refused where it is given, and
/// nothing is stored.
enum SessionLabel {
    /// The most a label holds: a build number or a device name, not a paragraph.
    static let limit = 200

    /// `value` from its option when it is a label checkrun files results under; a usage error
    /// saying what is wrong otherwise. `required` labels (release, build) cannot be empty.
    static func checked(_ value: String, _ option: OptionName, required: Bool, command: String) throws -> String {
        guard let problem = problem(value, required: required) else { return value }
        throw UsageError("--\(option.rawValue) \(problem)", command: command)
    }

    /// What is wrong with `value` as a label, as the end of a sentence naming it; nil when nothing is.
    static func problem(_ value: String, required: Bool) -> String? {
        if value.isEmpty { return required ? "is empty; results are filed under it, so name it (e.g. 2.4)" : nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed != value {
            return "\"\(DisplayText.neutralised(value))\" begins or ends with a space, which would file results apart from \"\(DisplayText.neutralised(trimmed))\"; give \"\(DisplayText.neutralised(trimmed))\""
        }
        if !DisplayText.neutralised(value).unicodeScalars.elementsEqual(value.unicodeScalars) {
            return "holds a line break, a control character or a direction mark (\(DisplayText.preview(value, limit: 80))); a label is one line of plain text"
        }
        if value.unicodeScalars.contains("\u{FFFD}") {
            // What the shell passed was not UTF-8: the bytes were replaced on the way in.
            return "holds bytes that are not UTF-8 text (shown as \(DisplayText.preview(value, limit: 80))); type the label again as text"
        }
        if value.unicodeScalars.count > limit { return "is \(value.unicodeScalars.count) characters; a label holds at most \(limit)" }
        return nil
    }
}
