import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

private typealias Attachment = CheckrunModel.Attachment

/// Attachments' bytes in the database: stored once by content, streamed, refused whole when
/// the file is not a readable, unchanging regular file, verified, exported and merged.
@Suite struct AttachmentStoreTests {
    struct Fixture {
        let folder: TemporaryFolder
        let database: TestDatabase
        let store: ResultStore

        init(_ engine: TestEngine = .sqlite, name: String = "db.sqlite") throws {
            folder = try TemporaryFolder()
            database = try TestDatabase(engine, name: name)
            store = try ResultStore(path: database.address)
        }

        func remove() {
            database.remove()
            folder.remove()
        }

        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = folder.path(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        /// A session with one failed check carrying `attachments`, saved as the walk saves it.
        func sessionWithEvidence(_ attachments: [CheckrunModel.Attachment]) throws -> (Session, CheckResult) {
            let session = Session(release: "2.4", build: "311", device: "iPhone 15", tester: "Ana", plan: ["p/c"],
                                  startedAt: Date(timeIntervalSince1970: 1_800_000_000))
            try store.insert(session)
            var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1, startedAt: session.startedAt)
            result.outcomes[0] = OutcomeAnswer(.fail, note: "Delete fired")
            result.verdict = .fail
            try store.save(result)
            result.attachments = attachments
            try store.save(result)
            return (session, result)
        }
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 3_000_000)

    static func hash(_ bytes: [UInt8]) -> String {
        var hasher = SHA256.Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalHex()
    }

    static func attachment(_ stored: StoredAttachment, name: String = "shot.png") -> CheckrunModel.Attachment {
        Attachment(hash: stored.hash, name: name, mediaType: stored.mediaType, size: stored.size, description: "The Pay button",
                   outcome: 1, attachedAt: Date(timeIntervalSince1970: 1_800_000_010))
    }

    @Test(arguments: TestEngine.available) func aFileIsStoredOnceUnderTheHashOfItsBytes(engine: TestEngine) throws {
        let fixture = try Fixture(engine)
        defer { fixture.remove() }
        let path = try fixture.file("shot.png", Self.png)
        let stored = try fixture.store.storeAttachment(path: path)
        #expect(stored == StoredAttachment(hash: Self.hash(Self.png), size: Self.png.count, mediaType: "image/png"))
        let copy = try fixture.file("copy of shot.txt", Self.png)
        #expect(try fixture.store.storeAttachment(path: copy) == stored, "the type comes from the bytes, not the name")
        #expect(try fixture.store.storedAttachments().count == 1, "the same bytes are kept once")
        var back: [UInt8] = []
        #expect(try fixture.store.readAttachment(hash: stored.hash) { back += $0 })
        #expect(back == Self.png)
    }

    @Test(arguments: TestEngine.available) func badFilesAreRefusedWithAReasonAndNothingIsStored(engine: TestEngine) throws {
        let fixture = try Fixture(engine)
        defer { fixture.remove() }
        let empty = try fixture.file("empty.png", [])
        let large = try fixture.file("large.mov", Array(repeating: 1, count: 2_000))
        let fifo = fixture.folder.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let link = fixture.folder.path("link-to-device")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        let cases: [(String, Int, String)] = [
            (fixture.folder.path("missing.png"), 1 << 20, "no such file"),
            (fixture.folder.path, 1 << 20, "is a folder, not a file"),
            (fifo, 1 << 20, "is a FIFO (a named pipe), not a file"),
            ("/dev/null", 1 << 20, "is a device, not a file"),
            (link, 1 << 20, "is a device, not a file"),
            (empty, 1 << 20, "is empty"),
            (large, 1_000, "is 2 KB, over the limit of 1 KB"),
            ("", 1 << 20, "no file was named"),
        ]
        for (path, limit, words) in cases {
            #expect { try fixture.store.storeAttachment(path: path, limit: limit) } throws: { error in
                (error as? AttachmentError)?.description.contains(words) == true
            }
        }
        #expect(try fixture.store.storedAttachments().isEmpty)
    }

    @Test func aFileThatGrowsWhileItIsReadIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let path = try fixture.file("recording.mov", Array(repeating: 3, count: 20_000_000))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let writing = Writer(handle: handle)
        Thread.detachNewThread { writing.appendUntilStopped() }
        while !writing.hasAppended { usleep(1000) }
        #expect { try fixture.store.storeAttachment(path: path) } throws: { error in
            (error as? AttachmentError)?.description.contains("changed while it was being read; nothing was attached") == true
        }
        writing.stop()
        #expect(try fixture.store.storedAttachments().isEmpty)
    }

    /// Appends to a file, a little at a time, until told to stop (as a recording still being written).
    final class Writer: @unchecked Sendable {
        let handle: FileHandle
        private let lock = NSLock()
        private var stopped = false
        private var appended = false
        init(handle: FileHandle) { self.handle = handle }
        var hasAppended: Bool { lock.withLock { appended } }
        func stop() { lock.withLock { stopped = true } }
        func appendUntilStopped() {
            _ = try? handle.seekToEnd()
            while !lock.withLock({ stopped }) {
                try? handle.write(contentsOf: Data(repeating: 1, count: 4096))
                lock.withLock { appended = true }
                usleep(200)
            }
            try? handle.close()
        }
    }

    @Test func aFullDiskRefusesTheAttachmentAndKeepsEveryAnswer() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let (session, result) = try fixture.sessionWithEvidence([])
        let pages = try #require(try fixture.store.database.scalarInt("PRAGMA page_count"))
        // SQLite's own ceiling on the file stands in for a full disk: the same SQLITE_FULL.
        try fixture.store.database.execute("PRAGMA max_page_count = \(pages + 50)")
        let path = try fixture.file("shot.png", Self.png)
        #expect { try fixture.store.storeAttachment(path: path) } throws: { "\($0)".contains("is full") }
        #expect(try fixture.store.storedAttachments().isEmpty)
        #expect(try fixture.store.results(inSession: session.id).map(\.payload) == [result.payload])
        #expect(try fixture.store.verify().isClean)
    }

    @Test func aFileOverTheLargestLimitIsRefusedWithoutAskingToRaiseIt() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let path = fixture.folder.path("huge.mov")
        // Sparse: a gigabyte on paper, nothing on the disk; refused on its size before a byte is read.
        #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
        #expect(truncate(path, off_t(ResultStore.largestAttachmentLimit + 1)) == 0)
        #expect { try fixture.store.storeAttachment(path: path, limit: ResultStore.largestAttachmentLimit) } throws: { error in
            let message = "\(error)"
            return message.contains("over the limit of 999 MB") && message.contains("(the most one attachment can be)") && !message.contains("raise")
        }
    }

    @Test(arguments: TestEngine.available) func theResultListsItsAttachmentsAndVerifyVouchesForTheirBytes(engine: TestEngine) throws {
        let fixture = try Fixture(engine)
        defer { fixture.remove() }
        let stored = try fixture.store.storeAttachment(path: try fixture.file("shot.png", Self.png))
        let (session, result) = try fixture.sessionWithEvidence([Self.attachment(stored)])
        let shown = try fixture.store.results(inSession: session.id)
        #expect(shown.map(\.attachments) == [result.attachments])
        #expect(shown.map(\.payload) == [result.payload])
        let clean = try fixture.store.verify()
        #expect(clean.isClean && clean.attachments == 1 && clean.attachmentBytes == Self.png.count)

        try fixture.raw(engine == .sqlite ? "UPDATE attachment_files SET content = zeroblob(size)" : "UPDATE attachment_pieces SET bytes = CAST(repeat('0', length(bytes)) AS BYTEA)")
        let changed = try fixture.store.verify()
        #expect(changed.fileProblems.contains { $0.contains("were changed behind checkrun's back") })
        #expect(changed.problems.contains { $0.message.contains("the attachment shot.png") && $0.message.contains("missing or changed") })
        try fixture.raw(engine == .sqlite ? "DELETE FROM attachment_files" : "DELETE FROM attachment_pieces; DELETE FROM attachment_files")
        let gone = try fixture.store.verify()
        #expect(gone.problems.contains { $0.message.contains("the attachment shot.png") })
    }

    @Test(arguments: TestEngine.available) func aWithdrawnAttachmentsBytesStayAndAreStillVerified(engine: TestEngine) throws {
        let fixture = try Fixture(engine)
        defer { fixture.remove() }
        let stored = try fixture.store.storeAttachment(path: try fixture.file("shot.png", Self.png))
        var (_, result) = try fixture.sessionWithEvidence([Self.attachment(stored)])
        result.attachments = []
        try fixture.store.amend(result, reason: "the wrong screenshot", at: Date(timeIntervalSince1970: 1_800_000_100))
        #expect(try fixture.store.verify().isClean)
        try fixture.raw(engine == .sqlite ? "DELETE FROM attachment_files" : "DELETE FROM attachment_pieces; DELETE FROM attachment_files")
        #expect(try fixture.store.verify().problems.contains { $0.message.contains("the attachment shot.png") }, "the earlier record still names it")
    }

}

extension AttachmentStoreTests.Fixture {
    /// SQL run behind checkrun's back (see `TestDatabase.tamper`).
    func raw(_ sql: String) throws {
        try database.tamper(sql)
    }
}
