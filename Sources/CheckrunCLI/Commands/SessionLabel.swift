import CheckrunModel
import Foundation

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
    /// The label is filed in one Unicode form (see `normalised`).
    static func checked(_ value: String, _ option: OptionName, required: Bool, command: String) throws -> String {
        let value = normalised(value)
        guard let problem = problem(value, required: required) else { return value }
        throw UsageError("--\(option.rawValue) \(problem)", command: command)
    }

    /// The first character of `value` that shows as nothing where it stands, so that the label
    /// lists like another and files its results apart ("3\u{3164}11" lists as 311): a format
    /// character (a byte order mark, a soft hyphen, a word joiner, a direction mark, a tag), a
    /// Hangul filler or a Khmer inherent vowel anywhere; and beside plain ASCII or at an end of
    /// the label, where no script needs them, a joiner or non-joiner, a variation selector and
    /// the blank braille pattern. Emoji sequences ("👩\u{200D}💻", "❤\u{FE0F}", keycaps),
    /// scripts that need joiners, ideographic and Mongolian variants, and braille text keep theirs.
    private static func invisibleCharacter(in value: String) -> Unicode.Scalar? {
        let scalars = Array(value.unicodeScalars)
        for (place, scalar) in scalars.enumerated() {
            let before = place > 0 ? scalars[place - 1] : nil
            let after = place + 1 < scalars.count ? scalars[place + 1] : nil
            let besidePlainText = before?.isASCII ?? true || after?.isASCII ?? true
            switch scalar.value {
            case 0x200C, 0x200D, 0x2800:
                if besidePlainText { return scalar }
            case 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x180B...0x180D, 0x180F:
                let keycap = after?.value == 0x20E3
                let afterEmoji = before.map { $0.properties.isEmoji && !$0.isASCII } ?? false
                if !keycap && !afterEmoji && (before?.isASCII ?? true) { return scalar }
            case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5, 0x034F:
                return scalar
            default:
                if scalar.properties.generalCategory == .format { return scalar }
            }
        }
        return nil
    }

    /// `value` in Unicode's compatibility-composed form (NFKC), as identifiers are compared.
    /// Swift compares strings by what they look like, SQL by their bytes: a device "Pixel é"
    /// typed once as one character and once as "e" plus an accent was one device in `compare`
    /// and two in a report, and `amend` found only one. Compatibility forms file apart as
    /// silently: "２.4" in full-width digits (as a Japanese input method types them) was a
    /// release of its own, and "iPhone 15" with a no-break space (Option-Space, or copied from
    /// a web page) a second device that lists exactly like the first. Every label filed (by
    /// `run` and `record`, as an option or an answer at a prompt) is stored in one form.
    /// Lookups (`report --release`, `amend --device` …) take the label as typed, so a label
    /// filed before in another form is still found by typing it as listed; a form that is
    /// not filed is answered with the labels that are ("Did you mean 2.4?").
    static func normalised(_ value: String) -> String {
        value.precomposedStringWithCompatibilityMapping
    }

    /// `$USER`, the tester when none is named, when it can be a label (else no tester is named).
    static func user(_ environment: [String: String]) -> String? {
        guard let user = environment["USER"], !user.isEmpty, problem(user, required: false) == nil else { return nil }
        return normalised(user)
    }

    /// `$USER` as the tester when none is named and none is asked (`record`, a piped walk); one
    /// that cannot be a label is said, so results are not filed unnamed without a word.
    static func userSayingWhyNot(_ context: CommandContext) -> String? {
        if let user = context.environment["USER"], !user.isEmpty, let problem = problem(user, required: false) {
            context.printError("checkrun: note: $USER \(problem). It is not taken for the tester, so none is named: name one with --tester NAME.")
        }
        return user(context.environment)
    }

    /// What is wrong with `value` as a label, as the end of a sentence naming it; nil when nothing is.
    static func problem(_ value: String, required: Bool) -> String? {
        if value.isEmpty { return required ? "is empty; results are filed under it, so name it (e.g. 2.4)" : nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed != value {
            return "\"\(DisplayText.neutralised(value))\" begins or ends with a space, which would file results apart from \"\(DisplayText.neutralised(trimmed))\"; give \"\(DisplayText.neutralised(trimmed))\""
        }
        if !DisplayText.isOneLinePlain(value) {
            return "holds a line break, a control character or a direction control (\(DisplayText.preview(value, limit: 80))); a label is one line of plain text"
        }
        if let hidden = invisibleCharacter(in: value) {
            // "2.4" with a byte order mark looks like 2.4 everywhere, yet files results apart.
            return "holds an invisible character (U+\(String(hidden.value, radix: 16, uppercase: true))), which would file results apart from the same label without it; type the label again"
        }
        if value.unicodeScalars.contains("\u{FFFD}") {
            // What the shell passed was not UTF-8: the bytes were replaced on the way in.
            return "holds bytes that are not UTF-8 text (shown as \(DisplayText.preview(value, limit: 80))); type the label again as text"
        }
        if value.unicodeScalars.count > limit { return "is \(value.unicodeScalars.count) characters; a label holds at most \(limit)" }
        return nil
    }
}
