import Foundation

/// One pass over a catalog page's lines: the Profile/Task/Expected blocks, the one-line
/// "Check:" sentences, the WCAG numbers of the "WCAG mapping" list, and the page's status.
struct PageScan {
    struct PendingCheck {
        var profile: String
        var line: Int
        var task: String?
        var expected: [String] = []
        var field: CatalogLine.Label? = .profile
        /// The lines the task and each outcome begin on, for messages about them.
        var taskLine: Int?
        var expectedLines: [Int] = []
    }

    let file: String
    let wcag: WCAGTable
    private(set) var warnings: [ImportMessage] = []
    private(set) var blocks: [PendingCheck] = []
    private(set) var sentences: [(line: Int, text: String, heading: String?)] = []
    private(set) var criteria: [String] = []
    private(set) var status: String?
    private(set) var statusLine: Int?
    private var pending: PendingCheck?
    private var inMapping = false
    /// The items read of the mapping list now open.
    private var mappingItems = 0
    /// Whether a sentence came before the mapping list's first item.
    private var mappingIntroduced = false
    private var lastHeading: String?
    /// The numbers of the lines of the page's code blocks (see `visibleLines`).
    private(set) var code = Set<Int>()

    init(file: String, wcag: WCAGTable) {
        self.file = file
        self.wcag = wcag
    }

    func failure(_ line: Int?, _ message: String) -> ImportMessage {
        ImportMessage(file: file, line: line, message: message)
    }

    mutating func warn(_ line: Int?, _ message: String) {
        warnings.append(failure(line, message))
    }

    /// Reads every line, then closes the last block. A fenced code block (``` or ~~~) is an
    /// example, never a check: a "Profile:" line shown in one is not read as a block, and a
    /// block around it goes on after it (code shown between two expected outcomes). The code
    /// blocks are known, and HTML comments gone, from `visibleLines`.
    mutating func read(_ lines: [CatalogLine]) throws(ImportMessage) {
        var previous = 0
        for line in lines where !line.isBlank && !code.contains(line.number) {
            defer { previous = line.number }
            // The prefix first: a pattern compiled for every line was half of a long page's time.
            if line.isHeading || line.text.hasPrefix("Decision") && line.text.range(of: #"^Decision\s+\d+\b"#, options: .regularExpression) != nil {
                lastHeading = line.text
            }
            if try readLabelled(line) || continueBlock(line) { continue }
            if let check = pending, check.field == .expected, line.number == previous + 1, !line.isHeading {
                // Right under the outcomes, yet not indented: prose, or an outcome whose
                // indent was lost. Said either way, so that no outcome goes without a word.
                warn(line.number, "warning: this line comes right after the Expected outcomes of the Profile \"\(check.profile)\" but is not indented, so it is not read as one of them; indent it if it is one, or leave a blank line above it")
            }
            try finishPending()
            readMapping(line)
        }
        try finishPending()
    }

    /// The page's lines as its readers see them (see `VisibleLines`): its code blocks noted,
    /// its HTML comments taken out. A fence or a comment never closed is read as text, with
    /// a warning: nothing of a page is dropped on a guess.
    mutating func visibleLines(_ raw: [String]) -> [CatalogLine] {
        var visible = VisibleLines(raw)
        if let unclosed = visible.unclosedComment {
            warn(unclosed, "warning: <!-- opens an HTML comment that is never closed, so this line and those after it were read as text; close it with --> if it is one")
            visible = VisibleLines(raw, textFrom: unclosed)
        }
        for fence in visible.unclosedFences {
            warn(fence.line, "warning: \(fence.marker) opens a code block that is never closed, so it was read as text; close it with \(fence.marker) if it is one")
        }
        code = visible.code
        return visible.lines.enumerated().map { CatalogLine(number: $0.offset + 1, raw: $0.element) }
    }

    /// The fence that opens a code block on this line: three or more backticks or tildes, and
    /// after backticks no other backtick (```code``` on a line of its own is inline code).
    static func fenceMarker(_ text: String) -> String? {
        for mark in ["`", "~"] where text.hasPrefix(String(repeating: mark, count: 3)) {
            let marker = String(text.prefix { String($0) == mark })
            if mark == "`" && text.dropFirst(marker.count).contains("`") { return nil }
            return marker
        }
        return nil
    }

    /// Whether a line closes the block `marker` opened: the same character, at least as many, and nothing after.
    static func closes(_ text: String, _ marker: String) -> Bool {
        guard let character = marker.first, let run = closerRun(text) else { return false }
        return run.mark == character && run.count >= marker.count
    }

    /// The run of backticks or tildes a line holds alone (then only spaces), which closes a
    /// fence of that character no longer than it; nil for any other line.
    static func closerRun(_ text: String) -> (mark: Character, count: Int)? {
        guard let mark = text.first, mark == "`" || mark == "~" else { return nil }
        let run = text.prefix { $0 == mark }
        return text.dropFirst(run.count).allSatisfy(\.isWhitespace) ? (mark, run.count) : nil
    }

    /// A block whose Profile, Task and Expected are all there is kept; one without is refused.
    private mutating func finishPending() throws(ImportMessage) {
        guard let check = pending else { return }
        pending = nil
        guard check.task != nil else {
            throw failure(check.line, "the Profile \"\(check.profile)\" has no Task; add a \"Task: …\" line under it, then an \"Expected: …\" line")
        }
        guard !check.expected.isEmpty else {
            throw failure(check.line, "the Profile \"\(check.profile)\" has no Expected outcome; add an \"Expected: …\" line, one outcome a line")
        }
        blocks.append(check)
    }

    /// A "Profile:", "Task:", "Expected:", "Status:" or "Check:" line; false for any other.
    private mutating func readLabelled(_ line: CatalogLine) throws(ImportMessage) -> Bool {
        switch line.label {
        case .profile:
            try finishPending()
            inMapping = false
            pending = PendingCheck(profile: line.value, line: line.number)
        case .task:
            guard var check = pending else {
                throw failure(line.number, "a Task with no Profile before it; add a \"Profile: …\" line above it")
            }
            if check.task != nil {
                throw failure(line.number, "a second Task for the Profile \"\(check.profile)\" (line \(check.line)); start a new block with its own \"Profile: …\" line")
            }
            check.task = line.value
            check.taskLine = line.number
            check.field = .task
            pending = check
        case .expected:
            guard var check = pending else {
                throw failure(line.number, "an Expected with no Profile and Task before it; add \"Profile: …\" and \"Task: …\" lines above it")
            }
            if !line.value.isEmpty {
                check.expected.append(line.value)
                check.expectedLines.append(line.number)
            }
            check.field = .expected
            pending = check
        case .status where status == nil:
            status = line.value.lowercased()
            statusLine = line.number
        case .check where !line.value.isEmpty:
            try finishPending()
            sentences.append((line.number, line.value, lastHeading))
        default:
            return false
        }
        return true
    }

    /// An indented or listed line under a block's field continues that field.
    private mutating func continueBlock(_ line: CatalogLine) -> Bool {
        guard var check = pending, let field = check.field, (line.isIndented || line.isListItem) && !line.isHeading else { return false }
        // Taken out while it grows: a copy left in `pending` made each line copy every outcome
        // before it (20,000 outcome lines took seconds).
        pending = nil
        switch field {
        case .expected:
            check.expected.append(line.text)
            check.expectedLines.append(line.number)
        case .task: check.task = [check.task ?? "", line.text].filter { !$0.isEmpty }.joined(separator: " ")
        default: check.profile = [check.profile, line.text].filter { !$0.isEmpty }.joined(separator: " ")
        }
        pending = check
        return true
    }

    /// The numbers an item of the mapping list starts with: the first (see `criterionNumber`),
    /// and each after it joined by a comma, a slash, "&" or "and" ("2.5.8, 2.5.5 Target Size",
    /// "1.4.3/1.4.11"): only the first was taken, and the others left the mapping unsaid.
    static func criterionNumbers(_ text: String) -> [String] {
        guard let first = criterionNumber(text), let start = text.range(of: first) else { return [] }
        var numbers = [first]
        var rest = text[start.upperBound...]
        let joined = #"^\s*(,|/|&|and)\s*([0-9]{1,3}(\.[0-9]{1,3}){2,})(?![0-9])"#
        while let match = rest.range(of: joined, options: .regularExpression) {
            let number = rest[match].drop { !$0.isNumber }
            numbers.append(String(number))
            rest = rest[match.upperBound...]
        }
        return numbers
    }

    /// The number an item of the mapping list starts with, read past the Markdown around it
    /// (`**2.5.8**`, `[2.5.8](…)`, `` `2.5.8` ``) and the words that may name it (`SC 2.5.8`,
    /// `WCAG 2.5.8`, `WCAG 2.1 2.5.8`, `Success Criterion 2.5.8`): three numbers or more, so one
    /// that is no criterion is said (2.5.8.1 was taken for 2.5.8).
    static func criterionNumber(_ text: String) -> String? {
        var rest = Substring(text)
        while true {
            let before = rest
            rest = rest.drop { "*_[(`".contains($0) || $0.isWhitespace }
            for word in ["success criterion ", "sc ", "wcag 2.2 ", "wcag 2.1 ", "wcag 2.0 ", "wcag "] where rest.lowercased().hasPrefix(word) {
                rest = rest.dropFirst(word.count)
            }
            if rest == before { break }
        }
        guard let match = rest.range(of: #"^[0-9]{1,3}(\.[0-9]{1,3}){2,}(?![0-9])"#, options: .regularExpression) else { return nil }
        return String(rest[match])
    }

    /// The "WCAG mapping" list: items that start with a success criterion's number.
    private mutating func readMapping(_ line: CatalogLine) {
        if line.text.lowercased().hasPrefix("wcag mapping") {
            inMapping = true
            mappingItems = 0
            mappingIntroduced = false
            return
        }
        guard inMapping else { return }
        guard line.isListItem || line.isIndented else {
            // One sentence before the list ("The entry maps to these criteria:") is no end of
            // it: ended there, the mapping was empty without a word.
            if mappingItems > 0 || line.isHeading || mappingIntroduced { inMapping = false }
            mappingIntroduced = true
            return
        }
        mappingItems += 1
        for number in Self.criterionNumbers(line.text) {
            if !wcag.contains(number) {
                warn(line.number, "warning: \(number) is not a WCAG 2.2 success criterion; left out of the mapping")
            } else if !criteria.contains(number) {
                criteria.append(number)
            }
        }
    }
}
