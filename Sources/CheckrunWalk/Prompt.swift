import CheckrunModel

/// What the walk asks now, and how the answer is read.
package struct Prompt: Sendable, Equatable {
    package enum Mode: Sendable, Equatable {
        /// A line of text, ended by Enter.
        case line
        /// The stopwatch is running or paused: single keys act at once on a terminal
        /// (Enter, p, space or +, -), or one line each without a terminal.
        case stopwatch
    }

    package var step: WalkStep
    /// The question, in words.
    package var text: String
    package var mode: Mode
}

/// What the walk tells its caller to do after an input.
package enum WalkEvent: Sendable, Equatable {
    /// Show this line to the tester.
    case say(String)
    /// The line that begins a check ("Check 2 of 22: …"), which a caller may emphasise.
    case heading(String)
    /// A line of lower importance (hints), which a caller may dim.
    case hint(String)
    /// Save this result now, before asking anything else.
    case save(CheckResult)
    /// This result, saved before, is said to stand as it was: nothing is saved, but the caller
    /// makes sure it is still what is saved (another writer may have amended it meanwhile),
    /// and says what is saved instead of the lines after it when it is not.
    case stands(CheckResult)
    /// Fetch and store this file (or run the capture command), then hand the attachment to
    /// `Walk.attached`; on failure say why, and the walk stays at the same prompt.
    case attach(AttachmentRequest)
    /// The tester asked to stop: everything is saved.
    case quit
    /// Every check has an answer.
    case finished
}
