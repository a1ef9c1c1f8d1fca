import Foundation

/// A stopwatch event. `at` is seconds on a monotonic clock since the stopwatch was first
/// started, so wall-clock changes never alter a timing; `typedSeconds` is a time typed in.
package struct StopwatchEvent: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        case start, pause, resume, stop, typed
    }

    package var kind: Kind
    package var at: Double
    package var typedSeconds: Double?
    package var recordedAt: Date

    package init(_ kind: Kind, at: Double, typedSeconds: Double? = nil, recordedAt: Date) {
        self.kind = kind
        self.at = at
        self.typedSeconds = typedSeconds
        self.recordedAt = recordedAt
    }

    /// Active seconds of a sequence of events: running spans only, pauses left out. A typed
    /// time replaces whatever was measured before it.
    package static func activeSeconds(of events: [StopwatchEvent]) -> Double? {
        var total = 0.0
        var runningSince: Double?
        var measured = false
        for event in events {
            switch event.kind {
            case .start:
                total = 0
                runningSince = event.at
                measured = false
            case .resume:
                if runningSince == nil { runningSince = event.at }
            case .pause:
                if let since = runningSince { total += event.at - since }
                runningSince = nil
            case .stop:
                if let since = runningSince { total += event.at - since }
                runningSince = nil
                measured = true
            case .typed:
                total = event.typedSeconds ?? 0
                runningSince = nil
                measured = true
            }
        }
        return measured ? max(0, total) : nil
    }
}

/// A tester's answer about one expected outcome.
package struct OutcomeAnswer: Sendable, Equatable {
    package var verdict: OutcomeVerdict
    /// The number given for an outcome with a numeric target.
    package var value: Int?
    package var note: String?
    package var answeredAt: Date

    package init(_ verdict: OutcomeVerdict, value: Int? = nil, note: String? = nil, answeredAt: Date) {
        self.verdict = verdict
        self.value = value
        self.note = note
        self.answeredAt = answeredAt
    }
}

/// A counter's value and when it was given.
package struct CounterValue: Sendable, Equatable {
    package var value: Int
    package var answeredAt: Date

    package init(_ value: Int, answeredAt: Date) {
        self.value = value
        self.answeredAt = answeredAt
    }
}

/// Everything recorded about one attempt at one check, complete or still in progress.
package struct CheckResult: Sendable, Equatable {
    package var id: UUID
    package var sessionID: UUID
    /// `protocol/check`.
    package var check: String
    package var protocolHash: String
    package var attempt: Int
    package var stopwatch: [StopwatchEvent]
    /// Stops tallied with the stopwatch running; the first counter's default.
    package var tally: Int
    /// One slot per expected outcome, nil until answered.
    package var outcomes: [OutcomeAnswer?]
    package var counters: [String: CounterValue]
    /// nil until the notes step is answered; "" when the tester left them empty.
    package var notes: String?
    package var notesAnsweredAt: Date?
    /// Set when the check is complete.
    package var verdict: Verdict?
    package var blockedReason: String?
    package var startedAt: Date
    package var updatedAt: Date
    /// Evidence attached to the check or to one of its outcomes, in the order attached.
    package var attachments: [Attachment] = []

    package init(
        id: UUID, sessionID: UUID, check: String, protocolHash: String, attempt: Int, outcomeCount: Int,
        startedAt: Date
    ) {
        self.id = id
        self.sessionID = sessionID
        self.check = check
        self.protocolHash = protocolHash
        self.attempt = attempt
        self.stopwatch = []
        self.tally = 0
        self.outcomes = Array(repeating: nil, count: outcomeCount)
        self.counters = [:]
        self.notes = nil
        self.verdict = nil
        self.blockedReason = nil
        self.startedAt = startedAt
        self.updatedAt = startedAt
    }

    package var activeSeconds: Double? { StopwatchEvent.activeSeconds(of: stopwatch) }
}
