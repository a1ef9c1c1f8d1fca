import CheckrunModel
import Foundation
import CheckrunTestSupport
import Testing

/// Hashes must be the standard ones: anyone can recompute a report's digests with sha256sum.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        // FIPS 180-2, appendix B: one block, and a message that needs a second block for its padding.
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (String(repeating: "x", count: 119), "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"),
        ("é×\n", "9f0b8d30e3ff2572824c57f92347e7761ee0eabd91e51c0b4bbe8bff44f3b671"),
    ])
    func matchesSha256sum(text: String, digest: String) {
        #expect(SHA256.hex(text) == digest)
    }

    /// FIPS 180-2, appendix B.3: a million "a", which takes 15,625 blocks.
    @Test func aMillionAs() {
        #expect(SHA256.hex(String(repeating: "a", count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length from 0 to 300 bytes, so every padding edge (55, 56, 63, 64 bytes and their
    /// multiples) is crossed, against digests OpenSSL computed (Tests/Fixtures/sha256-lengths.txt).
    /// Both compressions, the portable one and the processor's SHA instructions where this
    /// machine has them, are held to the same digests.
    @Test(arguments: [false, true]) func everyLengthAcrossThePaddingEdges(accelerated: Bool) throws {
        let lines = try Repository.text("Tests/Fixtures/sha256-lengths.txt").split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count == 301)
        for line in lines {
            let parts = line.split(separator: " ")
            let length = try #require(Int(parts[0]))
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
            #expect(Self.hex(message, accelerated: accelerated && SHA256.isAccelerated) == String(parts[1]), "length \(length)")
        }
    }

    @Test(arguments: [false, true]) func aMillionAsEitherWay(accelerated: Bool) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(Self.hex(message, accelerated: accelerated && SHA256.isAccelerated) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    static func hex(_ message: [UInt8], accelerated: Bool) -> String {
        var hasher = SHA256.Hasher(accelerated: accelerated)
        message.withUnsafeBufferPointer { hasher.update($0) }
        return hasher.finalHex()
    }

    /// Fed in two pieces split anywhere, the incremental hasher gives the one-piece digest.
    @Test func piecesGiveTheSameDigestWhereverTheMessageIsCut() {
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 * 13 + 1) }
        let whole = SHA256.hex(bytes: message)
        for cut in 0...message.count {
            var hasher = SHA256.Hasher()
            message[..<cut].withUnsafeBufferPointer { hasher.update($0) }
            message[cut...].withUnsafeBufferPointer { hasher.update($0) }
            #expect(hasher.finalHex() == whole, "cut at \(cut)")
        }
    }

    /// Verification asks whether a digest is the stored one without writing it out: the same
    /// answer as comparing the written digest, for any message fed in any pieces.
    @Test func aDigestMatchesOnlyItsOwnHex() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        for cut in stride(from: 0, through: message.count, by: 17) {
            func hasher() -> SHA256.Hasher {
                var hasher = SHA256.Hasher()
                for piece in [message[..<(cut / 2)], message[(cut / 2)..<cut], message[cut...]] {
                    piece.withUnsafeBufferPointer { hasher.update($0) }
                }
                return hasher
            }
            var written = hasher()
            let hex = written.finalHex()
            #expect(hex == SHA256.hex(bytes: message))
            var same = hasher()
            let matches = same.finalMatches(hex: hex)
            #expect(matches, "cut at \(cut)")
            for wrong in [String(hex.dropLast()) + (hex.last == "0" ? "1" : "0"), hex.uppercased(), String(hex.dropLast()), ""] where wrong != hex {
                var other = hasher()
                let matches = other.finalMatches(hex: wrong)
                #expect(!matches, "\(wrong)")
            }
        }
    }

    /// The accelerated path is taken exactly where the processor has the SHA extensions, so the
    /// test above tests it wherever it can run.
    @Test func theSHAInstructionsAreUsedWhereTheProcessorHasThem() throws {
        #if arch(x86_64) && os(Linux)
        let flags = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        #expect(SHA256.isAccelerated == flags.contains(" sha_ni"))
        #else
        #expect(!SHA256.isAccelerated)
        #endif
    }
}
