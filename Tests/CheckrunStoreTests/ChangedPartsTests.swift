import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A walk's answer writes only the parts that changed since the answer before. Whatever the
/// answers, the tables must then hold what a whole write would: reports read the tables.
@Suite struct ChangedPartsTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A fixed sequence of pseudo-random numbers, the same on every run.
    struct Dice {
        var state: UInt64
        mutating func roll(_ sides: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(sides))
        }
    }

    /// One change of the kinds a walk makes: an outcome answered, changed or cleared, a count
    /// given or taken back, the stopwatch run, reset or typed (0 and -0 too), evidence
    /// attached, described again or removed, notes, the tally.
    static func change(_ result: inout CheckResult, _ dice: inout Dice, step: Int, attachment: StoredAttachment) {
        let at = start.addingTimeInterval(Double(step))
        switch dice.roll(9) {
        case 0, 1:
            let verdicts: [OutcomeVerdict] = [.pass, .fail, .notApplicable]
            result.outcomes[dice.roll(4)] = OutcomeAnswer(verdicts[dice.roll(3)], value: dice.roll(2) == 0 ? nil : dice.roll(20),
                                                          note: dice.roll(2) == 0 ? nil : "note \(step)", answeredAt: at)
        case 2: result.outcomes[dice.roll(4)] = nil
        case 3: result.counters[["stops", "swipes", "errors"][dice.roll(3)]] = CounterValue(dice.roll(30), answeredAt: at)
        case 4: result.counters[["stops", "swipes", "errors"][dice.roll(3)]] = nil
        case 5:
            let kinds: [StopwatchEvent.Kind] = [.start, .pause, .resume, .stop]
            result.stopwatch.append(StopwatchEvent(kinds[dice.roll(4)], at: Double(step) / 4, recordedAt: at))
        case 6:
            let zero = dice.roll(2) == 0 ? 0.0 : -0.0
            result.stopwatch = dice.roll(2) == 0 ? [] : [StopwatchEvent(.typed, at: zero, typedSeconds: zero, recordedAt: at)]
        case 7:
            if result.attachments.isEmpty || dice.roll(3) == 0 {
                result.attachments.append(Attachment(hash: attachment.hash, name: "shot \(step).png", mediaType: attachment.mediaType, size: attachment.size,
                                                     description: "step \(step)", outcome: dice.roll(2) == 0 ? nil : 1, attachedAt: at))
            } else if dice.roll(2) == 0 {
                result.attachments[dice.roll(result.attachments.count)].description = "described again at \(step)"
            } else {
                result.attachments.remove(at: dice.roll(result.attachments.count))
            }
        default:
            result.notes = dice.roll(3) == 0 ? nil : "notes \(step)"
            result.tally = dice.roll(10)
        }
        result.updatedAt = at
    }

    /// Each answer is saved twice: over the one before, as a walk saves (only what changed is
    /// written), and in a second database whole. Both must read back the same after every step.
    @Test(arguments: TestEngine.available)
    func answersWrittenAsTheirChangesReadBackAsAnswersWrittenWhole(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let whole = try database.sibling("whole")
        defer { whole.remove() }
        let store = try ResultStore(path: database.address)
        let reference = try ResultStore(path: whole.address)
        defer { store.close(); reference.close() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data("evidence".utf8).write(to: folder.url.appendingPathComponent("shot.txt"))
        let attachment = try store.storeAttachment(path: folder.path("shot.txt"))
        _ = try reference.storeAttachment(path: folder.path("shot.txt"))
        let session = Session(release: "2.4", build: "311", plan: ["p/c"], startedAt: Self.start)
        try store.insert(session)
        try reference.insert(session)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 4, startedAt: Self.start)
        var dice = Dice(state: 2024)
        var seen: String?
        for step in 1...300 {
            Self.change(&result, &dice, step: step, attachment: attachment)
            // Every other answer finds what the tables hold by reading its payload back, as
            // after a resume; the others from the result the store saved last.
            if step % 2 == 0 { store.lastSaved = nil }
            try store.save(result, over: seen)
            try reference.save(result)
            seen = result.payload
            let read = try store.results(inSession: session.id).map(\.payload)
            let expected = try reference.results(inSession: session.id).map(\.payload)
            try #require(read == expected, "after step \(step)")
        }
        let report = try store.verify()
        #expect(report.isClean && report.records == 300, "\(report.problems.prefix(3))")
        #expect(try store.database.scalarInt("SELECT count(*) FROM result_attachments") == result.attachments.count)
    }

    /// A row edited by hand stays edited until an answer changes that very row, and `verify`
    /// names it meanwhile; a row added by hand where the next answer goes does not make the
    /// save fail.
    @Test(arguments: TestEngine.available)
    func aRowEditedByHandIsNamedAndNeverMakesASaveFail(engine: TestEngine) throws {
        let database = try TestDatabase(engine)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        defer { store.close() }
        let session = Session(release: "2.4", build: "311", plan: ["p/c"], startedAt: Self.start)
        try store.insert(session)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 3, startedAt: Self.start)
        result.outcomes[1] = OutcomeAnswer(.fail, answeredAt: Self.start)
        try store.save(result, over: nil)
        try store.database.execute("UPDATE outcome_answers SET verdict = 'pass' WHERE position = 1")
        try store.database.execute(
            "INSERT INTO outcome_answers (result_id, position, verdict, answered_at) VALUES ('\(result.id.storageText)', 2, 'na', 0)")
        let seen = result.payload
        result.outcomes[2] = OutcomeAnswer(.pass, answeredAt: Self.start.addingTimeInterval(1))
        result.updatedAt = Self.start.addingTimeInterval(1)
        try store.save(result, over: seen)
        let read = try #require(store.results(inSession: session.id).first)
        #expect(read.outcomes[1]?.verdict == .pass, "the edit stays")
        #expect(read.outcomes[2]?.verdict == .pass, "the answer replaced the row added by hand")
        let report = try store.verify()
        #expect(!report.isClean && report.problems.contains { $0.message.contains("p/c") }, "\(report.problems)")
    }

    /// The difference itself: one outcome changed is one row; a row equal to its last bit is
    /// none; 0 turned to -0 is a change, and so is text turned into other bytes that Swift
    /// calls equal; a row gone is named by its key.
    @Test func onlyRowsThatDifferToTheirLastBitAreWritten() {
        let id = SQLValue.text("r")
        var before = CheckResult(sessionID: UUID(), check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 3, startedAt: Self.start)
        before.outcomes = [OutcomeAnswer(.pass, answeredAt: Self.start), OutcomeAnswer(.fail, answeredAt: Self.start),
                           OutcomeAnswer(.pass, note: "caf\u{E9}", answeredAt: Self.start)]
        before.stopwatch = [StopwatchEvent(.typed, at: 0, typedSeconds: 0, recordedAt: Self.start)]
        var after = before
        after.outcomes[1] = OutcomeAnswer(.pass, answeredAt: Self.start)
        after.outcomes[0] = nil
        after.outcomes[2]?.note = "cafe\u{301}"
        after.stopwatch[0].typedSeconds = -0.0
        before.counters["caf\u{E9}"] = CounterValue(1, answeredAt: Self.start)
        after.counters["cafe\u{301}"] = CounterValue(1, answeredAt: Self.start)
        let changes = zip(PartRows.all(of: after, id: id), PartRows.all(of: before, id: id)).map { $0.changes(since: $1) }
        #expect(changes[0].gone == [.integer(0)])
        #expect(changes[0].fresh.map { $0[1] } == [.integer(1), .integer(2)])
        #expect(changes[1].gone.count == 1 && changes[1].fresh.count == 1, "a key of other bytes is another key, however Swift compares it")
        #expect(changes[3].fresh.count == 1, "0 and -0 are stored differently")
        let same = zip(PartRows.all(of: before, id: id), PartRows.all(of: before, id: id)).map { $0.changes(since: $1) }
        #expect(same.allSatisfy { $0.gone.isEmpty && $0.fresh.isEmpty })
    }
}
