import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A walk's save is refused, and nothing written, when another writer saved the same result
/// since the walk last saw it: a teammate's amendment, or the session resumed in a second
/// terminal. Saving over it would silently undo their change in the results everyone reads.
@Suite struct SaveOverTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A session with one check of two outcomes, the first answered; the second, unanswered,
    /// is in the record only (the tables hold no row for it).
    static func begun(_ store: ResultStore) throws -> CheckResult {
        let session = Session(release: "2.4", build: "311", device: "iPhone", tester: "Ana", plan: ["p/c"], startedAt: start)
        try store.insert(session)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 2, startedAt: start)
        result.outcomes[0] = OutcomeAnswer(.pass, answeredAt: start.addingTimeInterval(1))
        result.updatedAt = start.addingTimeInterval(1)
        try store.save(result, over: nil)
        return result
    }

    static func records(_ store: ResultStore, _ result: CheckResult) throws -> Int {
        try store.database.scalarInt("SELECT count(*) FROM records WHERE session_id = ?", [.text(result.sessionID.storageText)]) ?? 0
    }

    @Test(arguments: TestEngine.available)
    func aWalkSavesOverWhatItSawAndWhatAResumeReads(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        defer { store.close() }
        var result = try Self.begun(store)
        // A walk resuming the session sees the records' bytes, unanswered outcome included.
        let seen = try store.latestPayloads(inSession: result.sessionID)
        #expect(seen == [result.id: result.payload])
        let before = result.payload
        result.outcomes[1] = OutcomeAnswer(.fail, answeredAt: Self.start.addingTimeInterval(2))
        result.updatedAt = Self.start.addingTimeInterval(2)
        try store.save(result, over: before)
        let previous = result.payload
        result.notes = "Delete fired"
        try store.save(result, over: previous)
        #expect(try Self.records(store, result) == 3)
        #expect(try store.verify().isClean)
    }

    @Test(arguments: TestEngine.available)
    func aSaveOverAnAmendmentIsRefusedAndWritesNothing(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        defer { store.close() }
        var walk = try Self.begun(store)
        let seen = walk.payload
        var amended = walk
        amended.outcomes[1] = OutcomeAnswer(.fail, note: "Delete fired", answeredAt: Self.start.addingTimeInterval(5))
        amended.verdict = .fail
        amended.updatedAt = Self.start.addingTimeInterval(5)
        try store.amend(amended, reason: "seen on the recording", at: Self.start.addingTimeInterval(5))

        walk.outcomes[1] = OutcomeAnswer(.pass, answeredAt: Self.start.addingTimeInterval(6))
        walk.verdict = .pass
        walk.updatedAt = Self.start.addingTimeInterval(6)
        let refused = #expect(throws: ResultChangedElsewhere.self) { try store.save(walk, over: seen) }
        #expect(refused?.wasAmended == true)
        #expect(refused?.amendReason == "seen on the recording")
        #expect(refused?.current == amended)
        #expect(refused?.payload == amended.payload)
        #expect(try Self.records(store, walk) == 2, "nothing was written")
        #expect(try store.results(inSession: walk.sessionID).first?.verdict == .fail)
        let afterLostReply = #expect(throws: ResultChangedElsewhere.self) { try store.saveAfterLostConnection(walk, over: seen) }
        #expect(afterLostReply?.cameAfterThisAnswer == false, "refused: the walk's answer never landed")
        // Going on from what the store holds lands.
        var next = amended
        next.notes = "looked again"
        try store.save(next, over: refused?.payload)
        #expect(try store.verify().isClean)
    }

    /// The walk's answer landed but its reply was lost, and a teammate amended the result
    /// before the walk reached the server again: nothing is written twice, and the walk is told
    /// (as an answer saved, then changed), not left saying "Result: pass" over the amendment.
    @Test(arguments: TestEngine.available)
    func anAnswerWhoseReplyWasLostThenAmendedIsSaidChangedAfterIt(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        defer { store.close() }
        let walk = try Self.begun(store)
        var amended = walk
        amended.outcomes[1] = OutcomeAnswer(.fail, note: "Delete fired", answeredAt: Self.start.addingTimeInterval(5))
        amended.verdict = .fail
        amended.updatedAt = Self.start.addingTimeInterval(5)
        try store.amend(amended, reason: "seen on the recording", at: Self.start.addingTimeInterval(5))
        let changed = #expect(throws: ResultChangedElsewhere.self) { try store.saveAfterLostConnection(walk, over: nil) }
        #expect(changed?.cameAfterThisAnswer == true && changed?.wasAmended == true && changed?.current == amended)
        #expect(try Self.records(store, walk) == 2, "nothing was written twice")
        #expect(try store.verify().isClean)
    }

    /// A result made by a walk that began before another terminal saved the same check, under
    /// another attempt number (counted when each walk began), or under this very id: refused.
    @Test(arguments: TestEngine.available)
    func aNewResultIsRefusedBesideAnyOtherOfItsCheckAndOverItsOwnRecords(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        defer { store.close() }
        let saved = try Self.begun(store)
        var later = CheckResult(sessionID: saved.sessionID, check: "p/c", protocolHash: "h", attempt: 2, outcomeCount: 2, startedAt: Self.start)
        later.outcomes[0] = OutcomeAnswer(.fail, answeredAt: Self.start.addingTimeInterval(3))
        let refused = #expect(throws: ResultChangedElsewhere.self) { try store.save(later, over: nil) }
        #expect(refused?.current.id == saved.id)
        var again = saved
        again.notes = "a second walk with the same result"
        #expect(throws: ResultChangedElsewhere.self) { try store.save(again, over: nil) }
        #expect(try Self.records(store, saved) == 1, "nothing was written")
        #expect(try store.results(inSession: saved.sessionID).count == 1)
    }

    /// The same session resumed in two terminals: each makes its own result for a check not
    /// yet saved, and each answer after the other's is refused, not saved beside or over it.
    @Test(arguments: TestEngine.available)
    func twoWalksOfOneSessionNeverSaveOverEachOther(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        defer { store.close() }
        let session = Session(release: "2.4", build: "311", device: "iPhone", tester: "Ana", plan: ["p/c"], startedAt: Self.start)
        try store.insert(session)
        var first = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1, startedAt: Self.start)
        var second = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1, startedAt: Self.start)
        first.outcomes[0] = OutcomeAnswer(.pass, answeredAt: Self.start.addingTimeInterval(1))
        try store.save(first, over: nil)
        second.outcomes[0] = OutcomeAnswer(.fail, answeredAt: Self.start.addingTimeInterval(2))
        let refused = #expect(throws: ResultChangedElsewhere.self) { try store.save(second, over: nil) }
        #expect(refused?.current == first)
        #expect(refused?.wasAmended == false)
        // The second terminal goes on from the first's result; then the first is behind.
        var adopted = first
        adopted.notes = "from the second terminal"
        try store.save(adopted, over: refused?.payload)
        first.notes = "from the first terminal"
        #expect(throws: ResultChangedElsewhere.self) { try store.save(first, over: refused?.payload) }
        let stored = try store.results(inSession: session.id)
        #expect(stored.count == 1)
        #expect(stored.first?.notes == "from the second terminal")
        #expect(try store.verify().isClean)
    }
}
