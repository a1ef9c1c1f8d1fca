import CheckrunModel
import CheckrunWalk
import Foundation

// The model, the walk and the store take every time and id from their caller: none reads a
// clock or makes an id on its own. Tests that do not care which time or id a value gets use
// these shorter forms, which take them here, where it is visible that a test chose them.

extension Session {
    package init(release: String, build: String, device: String = "", osVersion: String = "", tester: String = "", plan: [String],
                startedAt: Date = Date(), finishedAt: Date? = nil) {
        self.init(id: UUID(), release: release, build: build, device: device, osVersion: osVersion, tester: tester, plan: plan,
                  startedAt: startedAt, finishedAt: finishedAt)
    }
}

extension CheckResult {
    package init(sessionID: UUID, check: String, protocolHash: String, attempt: Int, outcomeCount: Int, startedAt: Date = Date()) {
        self.init(id: .timeOrdered(at: startedAt), sessionID: sessionID, check: check, protocolHash: protocolHash, attempt: attempt,
                  outcomeCount: outcomeCount, startedAt: startedAt)
    }
}

extension StopwatchEvent {
    package init(_ kind: Kind, at: Double, typedSeconds: Double? = nil) {
        self.init(kind, at: at, typedSeconds: typedSeconds, recordedAt: Date())
    }
}

extension OutcomeAnswer {
    package init(_ verdict: OutcomeVerdict, value: Int? = nil, note: String? = nil) {
        self.init(verdict, value: value, note: note, answeredAt: Date())
    }
}

extension CounterValue {
    package init(_ value: Int) {
        self.init(value, answeredAt: Date())
    }
}

extension Walk {
    package init(session: Session, plan: [CheckReference], results: [CheckResult], nextAttempts: [String: Int]) {
        self.init(session: session, plan: plan, results: results, nextAttempts: nextAttempts, at: Date(), newID: { UUID.timeOrdered(at: Date()) })
    }

    package mutating func handle(_ input: String, now: Double) -> [WalkEvent] {
        handle(input, now: now, date: Date())
    }
}
