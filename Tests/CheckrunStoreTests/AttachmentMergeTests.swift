import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// Attachments' bytes through export and merge: carried exactly, taken in only when a record
/// names them, and refused whole when a record or a piece is out of place.
extension AttachmentStoreTests {
    @Test(arguments: TestEngine.available) func exportAndMergeCarryTheBytesExactly(engine: TestEngine) throws {
        let source = try Fixture(engine)
        defer { source.remove() }
        let stored = try source.store.storeAttachment(path: try source.file("shot.png", Self.png))
        let log = try source.store.storeAttachment(path: try source.file("voiceover.log", Array("focus moved\n".utf8)))
        let (session, _) = try source.sessionWithEvidence([Self.attachment(stored), Self.attachment(log, name: "voiceover.log")])
        let exported = source.folder.path("export.json")
        var written = ""
        let counts = try source.store.export(release: "2.4") { written += $0 }
        try Data(written.utf8).write(to: URL(fileURLWithPath: exported))
        #expect(counts.attachments == 2)
        #expect(written.hasPrefix("{\"format\": \"checkrun-export\", \"version\": 3,"))
        let schema = try JSONParser.parse(try Repository.text("Schemas/export.schema.json"))
        #expect(JSONSchema(schema).validate(try JSONParser.parse(written)).isEmpty)
        #expect(written.split(separator: "\n").allSatisfy { $0.utf8.count < 1_100_000 }, "large files are written a piece per line")

        for merge in [{ (target: ResultStore) in try target.merge(from: ExportFileSource(path: exported)) },
                      { (target: ResultStore) in try target.merge(from: try DatabaseSource(store: source.store, name: "source")) }] {
            let target = try Fixture(engine, name: "target.sqlite")
            defer { target.remove() }
            let first = try merge(target.store)
            #expect(first.attachmentsAdded == 2)
            #expect(try merge(target.store).attachmentsAdded == 0, "merging again adds nothing")
            var back: [UInt8] = []
            try target.store.readAttachment(hash: stored.hash) { back += $0 }
            #expect(back == Self.png)
            #expect(try target.store.results(inSession: session.id).map(\.payload) == source.store.results(inSession: session.id).map(\.payload))
            #expect(try target.store.verify().isClean)
        }
    }

    /// A session with one screenshot in `source`, and the export of the whole store.
    static func exportOfOneScreenshot(from source: Fixture) throws -> (stored: StoredAttachment, export: String) {
        let stored = try source.store.storeAttachment(path: try source.file("shot.png", png))
        _ = try source.sessionWithEvidence([attachment(stored)])
        var written = ""
        _ = try source.store.export(release: nil) { written += $0 }
        return (stored, written)
    }

    @Test(arguments: TestEngine.available) func bytesNoRecordNamesAreNotTakenInByAMerge(engine: TestEngine) throws {
        let source = try Fixture(engine)
        defer { source.remove() }
        let (stored, written) = try Self.exportOfOneScreenshot(from: source)
        let stuffed = Self.hash(Array("stuffed".utf8))
        let piece = "{\"hash\": \"\(stuffed)\", \"size\": 7, \"offset\": 0, \"data\": \"c3R1ZmZlZA==\"},"
        let text = written.replacingOccurrences(of: "\"attachments\": [", with: "\"attachments\": [\n" + piece)
        #expect(text != written)
        let path = source.folder.path("stuffed.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let target = try Fixture(engine, name: "target.sqlite")
        defer { target.remove() }
        let merged = try target.store.merge(from: ExportFileSource(path: path))
        #expect(merged.attachmentsAdded == 1)
        #expect(try target.store.storedAttachments().map(\.hash) == [stored.hash])
    }

    @Test(arguments: TestEngine.available) func aRecordListingAttachmentsOutOfTheirPlaceIsRefused(engine: TestEngine) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let session = Session(release: "2.4", build: "311", plan: ["p/c"], startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 0, startedAt: session.startedAt)
        result.verdict = .pass
        result.attachments = [Self.attachment(StoredAttachment(hash: Self.hash([1]), size: 1, mediaType: "text/plain"))]
        // The same fields, with the attachments first: a valid chain, but not checkrun's layout.
        var members = try #require(JSONParser.parse(result.payload).objectMembers)
        let last = members.removeLast()
        members.insert(last, at: 1)
        let payload = JSONWriter.write(.object(members))
        let record = Record(sessionID: session.id, sequence: 1, resultID: result.id, kind: .answer, reason: nil, payload: payload,
                            recordedAt: session.startedAt, previousHash: session.digest)
        let entry = SessionEntry(session: session, records: [record])
        let text = "{\"format\": \"checkrun-export\", \"version\": 3, \"exportedAt\": \"x\", \"release\": null, \"attachments\": [\n"
            + "{\"hash\": \"\(Self.hash([1]))\", \"size\": 1, \"offset\": 0, \"data\": \"AQ==\"}\n], \"sessions\": [\n" + JSONWriter.compact(entry.json) + "\n]}\n"
        let path = folder.path("moved.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let target = try Fixture(engine, name: "target.sqlite")
        defer { target.remove() }
        #expect { try target.store.merge(from: ExportFileSource(path: path)) } throws: { "\($0)".contains("lists attachments out of their place") }
        #expect(try target.store.storedAttachments().isEmpty)
    }

    @Test(arguments: TestEngine.available) func aMergeWhoseEvidenceIsMissingOrAlteredWritesNothing(engine: TestEngine) throws {
        let source = try Fixture(engine)
        defer { source.remove() }
        let written = try Self.exportOfOneScreenshot(from: source).export
        let firstPiece = try #require(written.range(of: "\"data\": \""))
        let altered = written.replacingCharacters(in: firstPiece.upperBound..<written.index(firstPiece.upperBound, offsetBy: 12), with: "AAAAAAAAAAAA")
        let withoutBytes = written.replacingOccurrences(of: #"\"attachments\": \[\n[\s\S]*?\n\], "#, with: "\"attachments\": [], ", options: .regularExpression)
        #expect(withoutBytes != written)
        let twice = written.replacingOccurrences(of: "\"sessions\": [", with: "\"attachments\": [], \"sessions\": [")
        for (text, words) in [(altered, "do not give its hash"), (withoutBytes, "whose bytes are not in what is being merged"),
                              (twice, "the key \"attachments\" appears twice")] {
            let path = source.folder.path("bad.json")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let target = try Fixture(engine, name: "target.sqlite")
            defer { target.remove() }
            #expect { try target.store.merge(from: ExportFileSource(path: path)) } throws: { "\($0)".contains(words) }
            #expect(try target.store.database.scalarInt("SELECT count(*) FROM sessions") == 0)
            #expect(try target.store.storedAttachments().isEmpty)
        }
    }
}
