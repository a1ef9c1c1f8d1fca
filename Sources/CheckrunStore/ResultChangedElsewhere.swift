import CheckrunModel
import Foundation

/// A save refused because another writer saved the same result since this one last saw it: a
/// teammate's `amend`, or the same session resumed in a second terminal. Saving over it would
/// silently undo their change in the results everyone reads, so nothing is written, and the
/// writer is handed the result as the store now holds it to go on from.
package struct ResultChangedElsewhere: Error, Sendable, CustomStringConvertible {
    /// The result as its latest record holds it (for a check this writer had not yet saved,
    /// the other writer's result for it).
    package var current: CheckResult
    /// That record's payload: what a writer going on from `current` has seen.
    package var payload: String
    /// Whether that record is an amendment, and the reason it gives.
    package var wasAmended: Bool
    package var amendReason: String?
    /// The writer's own answer was saved first (its commit's reply was what a lost connection
    /// took), and the other writer changed the result after it: nothing was refused.
    package var cameAfterThisAnswer = false

    package var description: String {
        let who = wasAmended
            ? "amended by someone else (reason: \(DisplayText.preview(amendReason ?? "", limit: 200)))"
            : "saved by someone else (another walk of this session, or a merge)"
        return "check \(DisplayText.preview(current.check, limit: 200)) was \(who) while this walk was open"
    }
}

extension ResultStore {
    /// Saves `result` only when its latest record is still `seen`, the payload the writer last
    /// saved or read (nil for a result the writer made and has not saved): see
    /// `ResultChangedElsewhere`. Checked inside the save's own transaction, so no other writer
    /// of the session can slip in between the check and the write.
    package func save(_ result: CheckResult, over seen: String?) throws {
        try database.transaction(.session(result.sessionID)) { try write(result, over: seen) }
    }

    /// The checked save's writes, inside the caller's transaction of the result's session: the
    /// session's last record is read once, for the check and for the chain.
    func write(_ result: CheckResult, over seen: String?) throws {
        let last = try lastRecord(of: result.sessionID, isOf: result.id, holding: seen)
        if last.holdsPayload, let seen, let previous = savedState(of: result, holding: seen) {
            // The tables hold what the session's last record says: only what differs is written.
            try writeProjection(result, over: previous)
        } else {
            try writeProjection(result, stored: last.holdsPayload || requireUnchanged(result, since: seen))
        }
        let payload = result.payload
        try appendRecord(for: result, payload: payload, kind: .answer, reason: nil, at: result.lastChangedAt, head: last.head)
        lastSaved = (payload, result)
    }

    /// The result whose payload is `seen`: the one this store saved last when it is that one,
    /// else `seen` read back.
    private func savedState(of result: CheckResult, holding seen: String) -> CheckResult? {
        if let lastSaved, lastSaved.result.id == result.id, lastSaved.payload == seen { return lastSaved.result }
        return Self.recorded(of: result)(seen)
    }

    /// The payload of each result's latest record in a session: what a walk resuming it has
    /// seen (the results table holds the same answers, but not always the same bytes: an
    /// unanswered outcome at the end is in the record only).
    package func latestPayloads(inSession sessionID: UUID) throws -> [UUID: String] {
        var payloads: [UUID: String] = [:]
        try database.forEach(
            "SELECT result_id, payload FROM records WHERE session_id = ? ORDER BY sequence", [.text(sessionID.storageText)]
        ) { row in
            if let id = row.string(0).flatMap(UUID.init(text:)) { payloads[id] = row.string(1) ?? "" }
        }
        return payloads
    }

    /// Throws `ResultChangedElsewhere` when another writer saved this result (or, for a result
    /// not yet saved, another result of the same check in this session) after `seen`. Returns
    /// whether the result is known to be stored already: its latest record is `seen`. The
    /// payloads are compared where they are; one is read only for a refusal.
    func requireUnchanged(_ result: CheckResult, since seen: String?) throws -> Bool {
        let session = SQLValue.text(result.sessionID.storageText)
        guard let seen else {
            // A result this writer made: any result of its check in the session, its own id
            // included (saved by someone else), was saved by another writer since the walk began.
            let recorded = try database.scalarInt(
                "SELECT 1 FROM records WHERE session_id = ?1 AND result_id = ?2 LIMIT 1", [session, .text(result.id.storageText)]) != nil
            if recorded { try changedElsewhere(resultID: result.id, session: result.sessionID, check: result.check) }
            let other = try database.query(
                "SELECT id FROM results WHERE session_id = ?1 AND check_name = ?2 ORDER BY attempt DESC, updated_at DESC LIMIT 1",
                [session, .text(result.check)]) { $0.string(0).flatMap(UUID.init(text:)) }.first
            guard let other = other ?? nil else { return false }
            try changedElsewhere(resultID: other, session: result.sessionID, check: result.check)
        }
        let unchanged = try database.query(
            "SELECT payload = ?3 FROM records WHERE session_id = ?1 AND result_id = ?2 ORDER BY sequence DESC LIMIT 1",
            [session, .text(result.id.storageText), .text(seen)]) { $0.int(0) == 1 }.first
        switch unchanged {
        case true?: return true
        case false?: try changedElsewhere(resultID: result.id, session: result.sessionID, check: result.check)
        case nil: return false
        }
    }

    /// The refusal, with the result as its latest record holds it.
    private func changedElsewhere(resultID: UUID, session: UUID, check: String) throws -> Never {
        let latest = try latestRecord(of: resultID, inSession: session)
        guard let latest, let current = CheckResult.decoding(payload: latest.payload, sessionID: session) else {
            throw StoreError("the latest record of check \(DisplayText.preview(check, limit: 200)) cannot be read; verify on this database names what changed")
        }
        throw ResultChangedElsewhere(current: current, payload: latest.payload, wasAmended: latest.kind == Record.Kind.amend.rawValue,
                                     amendReason: latest.reason)
    }
}
