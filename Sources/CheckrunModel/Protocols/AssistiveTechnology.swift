/// The assistive technology (or way of using the phone) a check's profile is about, so reports
/// group "Switch Control", "Switch Control, item scanning" and "Switch Control, default scanning
/// speed" under one heading instead of three.
package enum AssistiveTechnology: String, Sendable, CaseIterable {
    case voiceOver = "VoiceOver"
    case switchControl = "Switch Control"
    case voiceControl = "Voice Control"
    case fullKeyboardAccess = "Full Keyboard Access"
    case zoom = "Zoom"
    case largerText = "Larger Text"
    case assistiveAccess = "Assistive Access"
    case accessibilityInspector = "Accessibility Inspector"
    case touch = "touch"
    case other = "other"

    /// What a profile's words name, in the order the catalog's profiles need: "Voice Control,
    /// \"Show numbers\"" is Voice Control, "touch, one hand" is touch.
    package static func derived(from profile: String) -> AssistiveTechnology {
        let words = profile.lowercased()
        let named: [(String, AssistiveTechnology)] = [
            ("voiceover", .voiceOver), ("switch control", .switchControl), ("voice control", .voiceControl),
            ("full keyboard access", .fullKeyboardAccess), ("keyboard", .fullKeyboardAccess), ("assistive access", .assistiveAccess),
            ("assistiveaccess", .assistiveAccess),
            ("accessibility inspector", .accessibilityInspector), ("zoom", .zoom), ("larger text", .largerText),
            ("dynamic type", .largerText), ("text size", .largerText), ("touch", .touch),
        ]
        return named.first { words.contains($0.0) }?.1 ?? .other
    }
}
