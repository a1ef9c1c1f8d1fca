import CheckrunModel
import Testing

/// How a dragged-in or typed path is read, and what a file is told to be from its bytes.
@Suite struct AttachmentTests {
    @Test(arguments: [
        ("/tmp/shot.png", "/tmp/shot.png"),
        ("  /tmp/shot.png \n", "/tmp/shot.png"),
        ("'/home/ana/My Shots/shot 1.png' ", "/home/ana/My Shots/shot 1.png"),
        ("\"/home/ana/My Shots/shot 1.png\"", "/home/ana/My Shots/shot 1.png"),
        ("/Users/ana/My\\ Shots/shot\\ \\(1\\).png ", "/Users/ana/My Shots/shot (1).png"),
        ("file:///home/ana/My%20Shots/shot%201.png", "/home/ana/My Shots/shot 1.png"),
        ("file://localhost/home/ana/caf%C3%A9.png", "/home/ana/café.png"),
        ("FILE:///tmp/a.png", "/tmp/a.png"),
        ("~/shot.png", "/home/ana/shot.png"),
        ("shot.png", "shot.png"),
        ("'/home/ana/it'\\''s.png' ", "/home/ana/it's.png"),
        ("/home/ana/it's.png", "/home/ana/it's.png"),
        ("\"/home/ana/say \\\"hi\\\".png\"", "/home/ana/say \"hi\".png"),
    ])
    func pathsArriveAsTerminalsPasteThem(typed: String, path: String) {
        #expect(DroppedPath.resolve(typed, home: "/home/ana") == path)
    }

    @Test func nothingTypedIsNoPath() {
        #expect(DroppedPath.resolve("   ", home: nil) == nil)
        #expect(DroppedPath.resolve("''", home: nil) == nil)
        #expect(DroppedPath.resolve("file:///tmp/shot.png%00.txt", home: nil) == nil, "a NUL would name another file than the one recorded")
    }

    @Test(arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], "image/png"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], "image/jpeg"),
        (Array("GIF89a....".utf8), "image/gif"),
        (Array("%PDF-1.7\n".utf8), "application/pdf"),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], "image/heic"),
        ([0, 0, 0, 0x14] + Array("ftypqt  ".utf8) + [0, 0, 0, 0], "video/quicktime"),
        ([0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0], "video/mp4"),
        (Array("2026-11-30 12:00:01 VoiceOver focus moved\n".utf8), "text/plain"),
        (Array("caf\u{E9} ".utf8) + [0xE2, 0x82], "text/plain"),
        ([0x00, 0x01, 0x02, 0x03], "application/octet-stream"),
        (Array("\u{1B}[31mred\n".utf8), "text/plain"),
        ([0x1B, 0x00, 0x01], "application/octet-stream"),
        ([], "application/octet-stream"),
    ] as [([UInt8], String)])
    func theMediaTypeComesFromTheBytes(prefix: [UInt8], mediaType: String) {
        #expect(MediaType.sniff(prefix) == mediaType)
    }

    @Test func sizesAreGivenInWords() {
        #expect(CheckrunModel.Attachment.sizeText(1) == "1 byte")
        #expect(CheckrunModel.Attachment.sizeText(999) == "999 bytes")
        #expect(CheckrunModel.Attachment.sizeText(1_234) == "1.2 KB")
        #expect(CheckrunModel.Attachment.sizeText(340_000) == "340 KB")
        #expect(CheckrunModel.Attachment.sizeText(524_288_000) == "524 MB")
        #expect(CheckrunModel.Attachment.sizeText(999_950) == "1 MB", "the unit steps up on the rounded figure")
    }

    @Test func everyFileWrittenOutGetsANameOfItsOwn() {
        let hash = String(repeating: "ab", count: 32)
        var used: Set<String> = []
        var names: [String] = []
        for _ in 0..<4 {
            let name = AttachmentFileName.unique("c/311-attempt-1-shot.png", hash: hash, among: used)
            used.insert(name)
            names.append(name)
        }
        #expect(names == ["c/311-attempt-1-shot.png", "c/311-attempt-1-shot-abababab.png", "c/311-attempt-1-shot-abababab-2.png", "c/311-attempt-1-shot-abababab-3.png"])
        // A file whose own name is another's disambiguated name does not take its place.
        let taken: Set<String> = ["c/x-abababab.png", "c/x.png"]
        #expect(!taken.contains(AttachmentFileName.unique("c/x.png", hash: hash, among: taken)))
    }
}
