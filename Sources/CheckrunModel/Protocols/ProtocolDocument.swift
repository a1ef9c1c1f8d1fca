/// One protocol file: a catalog entry's checks, ready to walk.
/// (Named to keep clear of Swift's own `.Protocol` metatype.)
package struct ProtocolDocument: Sendable, Equatable {
    package enum Status: String, Sendable, CaseIterable {
        case draft, ready
    }

    package var id: String
    package var title: String
    package var status: Status
    package var source: String
    package var wcag: [String]
    package var checks: [Check]
    /// Where the file's `$schema` points, so that editors validate it as it is typed.
    package var schemaReference: String?

    package static let defaultSchemaReference = "../Schemas/protocol.schema.json"

    package init(
        id: String, title: String, status: Status, source: String, wcag: [String], checks: [Check],
        schemaReference: String? = ProtocolDocument.defaultSchemaReference
    ) {
        self.id = id
        self.title = title
        self.status = status
        self.source = source
        self.wcag = wcag
        self.checks = checks
        self.schemaReference = schemaReference
    }

    /// The success criteria a check gives evidence for: its own list, else the protocol's.
    package func criteria(for check: Check) -> [String] {
        check.wcag ?? wcag
    }
}

/// One check: how the tester uses the phone (profile), what they do (task) and what must happen.
package struct Check: Sendable, Equatable {
    package var id: String
    package var profile: String
    package var task: String
    package var expected: [ExpectedOutcome]
    package var counters: [Counter]
    package var timeLimit: Int?
    package var wcag: [String]?
    package var notes: String?
    /// Why the check still needs a person's review; nil once reviewed.
    package var review: String?
    /// The assistive technology as the file names it; nil in files written before the field.
    package var assistiveTechnology: AssistiveTechnology?

    /// The assistive technology reports group by: as the file names it, else as its profile says.
    package var technology: AssistiveTechnology { assistiveTechnology ?? .derived(from: profile) }

    package init(
        id: String, profile: String, task: String, expected: [ExpectedOutcome], counters: [Counter] = [],
        timeLimit: Int? = nil, wcag: [String]? = nil, notes: String? = nil, review: String? = nil,
        assistiveTechnology: AssistiveTechnology? = nil
    ) {
        self.id = id
        self.assistiveTechnology = assistiveTechnology
        self.profile = profile
        self.task = task
        self.expected = expected
        self.counters = counters
        self.timeLimit = timeLimit
        self.wcag = wcag
        self.notes = notes
        self.review = review
    }
}

/// An outcome the tester judges pass, fail or not applicable.
package struct ExpectedOutcome: Sendable, Equatable {
    package var text: String
    package var target: NumericTarget?

    package init(_ text: String, target: NumericTarget? = nil) {
        self.text = text
        self.target = target
    }
}

/// A number an outcome is judged by, e.g. "10 out of 10 hits": counter `hits`, at least 10 of 10.
package struct NumericTarget: Sendable, Equatable {
    package var counter: String
    package var atLeast: Int?
    package var atMost: Int?
    package var outOf: Int?

    package init(counter: String, atLeast: Int? = nil, atMost: Int? = nil, outOf: Int? = nil) {
        self.counter = counter
        self.atLeast = atLeast
        self.atMost = atMost
        self.outOf = outOf
    }

    package func isMet(by value: Int) -> Bool {
        if let atLeast, value < atLeast { return false }
        if let atMost, value > atMost { return false }
        return true
    }

    /// "at least 10 of 10", "at most 3": the target in words.
    package var summary: String {
        var parts: [String] = []
        if let atLeast { parts.append("at least \(atLeast)") }
        if let atMost { parts.append("at most \(atMost)") }
        var text = parts.joined(separator: " and ")
        if let outOf { text += " of \(outOf)" }
        return text
    }
}

/// Something the tester counts during the task, e.g. Switch Control stops.
package struct Counter: Sendable, Equatable {
    package var id: String
    package var label: String
    /// The highest acceptable value; nil when any count is acceptable and only trends matter.
    package var ceiling: Int?

    package init(id: String, label: String, ceiling: Int? = nil) {
        self.id = id
        self.label = label
        self.ceiling = ceiling
    }
}
