import CheckrunModel
import CheckrunWalk
import Foundation
import Testing

/// Evidence during the walk: `a PATH` and `a` ask the caller to store a file, the walk then
/// asks what it shows, and free-text answers that start with "a " stay answers.
@Suite struct WalkAttachmentTests {
    let harness = WalkTests()

    static func attachment(_ name: String) -> CheckrunModel.Attachment {
        CheckrunModel.Attachment(hash: String(repeating: "c", count: 64), name: name, mediaType: "image/png", size: 1_200_000, description: "",
                                 outcome: nil, attachedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func aPathAtAnOutcomeAttachesToThatOutcomeAndAsksWhatItShows() throws {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("t 20", 1)])
        let question = walk.prompt?.text
        let asked = harness.feed(&walk, [("a '/home/ana/My Shots/shot 1.png' ", 2)])
        let request = try #require(asked.attachRequests.first)
        #expect(request == AttachmentRequest(path: "'/home/ana/My Shots/shot 1.png'", outcome: 1, check: 0))
        #expect(asked.saves.isEmpty && walk.prompt?.text == question, "nothing changes until the caller has stored the file")

        let events = walk.attached(Self.attachment("shot 1.png"), for: request, date: Date(timeIntervalSince1970: 1_800_000_005))
        #expect(events.contains(.say("Attached shot 1.png (PNG image, 1.2 MB) to expected outcome 1.")), "\(events)")
        let saved = try #require(events.compactMap { if case .save(let result) = $0 { result } else { nil } }.first)
        #expect(saved.attachments.map(\.outcome) == [1])
        #expect(walk.prompt?.text.hasPrefix("What does it show?") == true)
        // A key typed here (back, or the next answer given early) is not taken for the text read
        // out in place of the picture.
        for key in ["b", "p", "s", "x", "n", "pass", "Fail", "n/a", "back", "skip", "help"] {
            let refused = harness.feed(&walk, [(key, 3)])
            #expect(refused.saves.isEmpty && refused.said.first?.contains("is an answer or a key at the other prompts") == true, "\(key): \(refused.said)")
        }
        #expect(walk.prompt?.text.hasPrefix("What does it show?") == true)
        let described = harness.feed(&walk, [("The 20-point Pay button", 3)])
        #expect(described.said.contains("Description saved: The 20-point Pay button"))
        #expect(described.saves.last?.attachments.first?.description == "The 20-point Pay button")
        #expect(walk.prompt?.text == question, "the walk goes on where it was")
    }

    @Test func aAloneAsksForTheCaptureEvenWhileTheTimerRuns() throws {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("", 1)])
        #expect(walk.prompt?.mode == .stopwatch)
        let asked = harness.feed(&walk, [("a", 2)])
        let request = try #require(asked.attachRequests.first)
        #expect(request == AttachmentRequest(path: nil, outcome: nil, check: 0))
        _ = walk.attached(Self.attachment("capture-20261130.png"), for: request, date: Date())
        #expect(walk.prompt?.mode == .line, "the description is a line, typed with the timer still running")
        harness.feed(&walk, [("", 3)])
        #expect(walk.prompt?.mode == .stopwatch, "Enter leaves it without a description, and the timer is still running")
        #expect(walk.results[0].attachments.first?.description == "")
    }

    @Test func notesThatStartWithAStayNotes() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("t 20", 1), ("f too small", 2), ("p", 3)])
        let typed = harness.feed(&walk, [("a button fired twice", 4)])
        #expect(typed.attachRequests.isEmpty)
        #expect(walk.results[0].notes == "a button fired twice")
    }

    @Test func aPlainPathAtTheNotesPromptIsStillAnAttachment() {
        var walk = harness.makeWalk()
        harness.feed(&walk, [("t 20", 1), ("f too small", 2), ("p", 3)])
        let asked = harness.feed(&walk, [("a ~/Desktop/shot.png", 4)])
        #expect(asked.attachRequests == [AttachmentRequest(path: "~/Desktop/shot.png", outcome: nil, check: 0)])
        #expect(walk.results[0].notes == nil)
    }

    @Test func helpNamesTheAttachKey() {
        #expect(Walk.helpLines.contains { $0.contains("a  attach") })
    }

    @Test func qAtTheDescriptionQuitsAndKeepsTheAttachment() throws {
        var walk = harness.makeWalk()
        let request = try #require(harness.feed(&walk, [("a /tmp/shot.png", 1)]).attachRequests.first)
        _ = walk.attached(Self.attachment("shot.png"), for: request, date: Date())
        let quit = harness.feed(&walk, [("q", 2)])
        #expect(quit.quit && quit.saves.isEmpty)
        #expect(walk.results[0].attachments.first?.description == "", "q is not taken as the description")
    }

    @Test func aResumedCheckSaysWhatWasAttachedBefore() throws {
        var walk = harness.makeWalk()
        let request = try #require(harness.feed(&walk, [("a /tmp/shot.png", 1)]).attachRequests.first)
        _ = walk.attached(Self.attachment("shot.png"), for: request, date: Date())
        var resumed = harness.makeWalk(results: walk.results)
        #expect(resumed.introduce().contains(.say("Attached before: 1 file (shot.png).")))
    }
}
