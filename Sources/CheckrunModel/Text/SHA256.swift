import CSHA256

/// SHA-256 (FIPS 180-4). Foundation on Linux has no CryptoKit, and content hashes must be the
/// standard ones so that anyone can recompute them with `sha256sum`.
package enum SHA256 {
    /// The round constants, from the C table the accelerated compression uses too.
    /// (A pointer to a constant C array: nothing is copied or shared that could change.)
    fileprivate static var k: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(start: checkrun_sha256_constants(), count: 64) }

    package static func hex(_ text: String) -> String {
        var hasher = Hasher()
        hasher.update(text)
        return hasher.finalHex()
    }

    package static func hex(bytes message: [UInt8]) -> String {
        var hasher = Hasher()
        message.withUnsafeBufferPointer { hasher.update($0) }
        return hasher.finalHex()
    }

    /// Whether this processor has the x86 SHA extensions: hashing every record of a large
    /// database is most of `verify`, and they do it several times faster.
    package static let isAccelerated = checkrun_sha256_accelerated() == 1

    fileprivate static let hexDigits = Array("0123456789abcdef".utf8)

    /// SHA-256 over a message given in pieces, so a record's hash reads its payload where it
    /// lies instead of first joining it to the other fields in a copy. Whole blocks are
    /// compressed straight from the caller's bytes; only a block's worth is ever buffered.
    package struct Hasher {
        private var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        private var pending: [UInt8] = []
        private var length: UInt64 = 0

        /// Whether whole blocks go to the processor's SHA instructions (when it has them); tests
        /// turn it off to hold the portable compression to the same digests.
        private let accelerated: Bool

        package init(accelerated: Bool = SHA256.isAccelerated) {
            // Never where the processor lacks the instructions, whatever the caller asked.
            self.accelerated = accelerated && SHA256.isAccelerated
            pending.reserveCapacity(64)
        }

        package mutating func update(_ text: String) {
            var text = text
            text.withUTF8 { update($0) }
        }

        /// Bytes read from a file or a database, a piece at a time.
        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            update(bytes.assumingMemoryBound(to: UInt8.self))
        }

        package mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard var base = bytes.baseAddress, !bytes.isEmpty else { return }
            var remaining = bytes.count
            length &+= UInt64(remaining)
            if !pending.isEmpty {
                let taken = min(64 - pending.count, remaining)
                pending.append(contentsOf: UnsafeBufferPointer(start: base, count: taken))
                base += taken
                remaining -= taken
                if pending.count < 64 { return }
                compressPending()
            }
            let whole = remaining / 64
            if whole > 0 { compressBlocks(base, count: whole) }
            pending.append(contentsOf: UnsafeBufferPointer(start: base + whole * 64, count: remaining - whole * 64))
        }

        /// Whether the digest is `hex` (64 lowercase hexadecimal digits), compared where both
        /// lie: verifying a database checks a digest for every record.
        package mutating func finalMatches(hex: String) -> Bool {
            var hex = hex
            return hex.withUTF8 { finalMatches(hexBytes: UnsafeRawBufferPointer($0)) }
        }

        /// `finalMatches(hex:)` for digits read in place, as a database row holds them.
        package mutating func finalMatches(hexBytes digits: UnsafeRawBufferPointer) -> Bool {
            finish()
            guard digits.count == 64 else { return false }
            for (index, word) in state.enumerated() {
                for byte in 0..<4 {
                    let value = UInt8(truncatingIfNeeded: word >> UInt32(24 - byte * 8))
                    guard digits[index * 8 + byte * 2] == hexDigits[Int(value >> 4)],
                          digits[index * 8 + byte * 2 + 1] == hexDigits[Int(value & 0x0F)] else { return false }
                }
            }
            return true
        }

        /// The digest as 64 lowercase hexadecimal digits, as `sha256sum` prints it.
        package mutating func finalHex() -> String {
            finish()
            return String(unsafeUninitializedCapacity: 64) { output in
                for (index, word) in state.enumerated() {
                    for byte in 0..<4 {
                        let value = UInt8(truncatingIfNeeded: word >> UInt32(24 - byte * 8))
                        output[index * 8 + byte * 2] = hexDigits[Int(value >> 4)]
                        output[index * 8 + byte * 2 + 1] = hexDigits[Int(value & 0x0F)]
                    }
                }
                return 64
            }
        }

        private mutating func finish() {
            let bitLength = length &* 8
            pending.append(0x80)
            while pending.count % 64 != 56 { pending.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) { pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
            compressPending()
        }

        private mutating func compressPending() {
            // Taken out while the state changes, and put back emptied: no copy of the buffer
            // is made, as one would be if it were still shared when emptied.
            var bytes: [UInt8] = []
            swap(&bytes, &pending)
            bytes.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { compressBlocks(base, count: buffer.count / 64) }
            }
            bytes.removeAll(keepingCapacity: true)
            swap(&bytes, &pending)
        }

        private mutating func compressBlocks(_ base: UnsafePointer<UInt8>, count: Int) {
            if accelerated {
                state.withUnsafeMutableBufferPointer { state in
                    if let words = state.baseAddress { checkrun_sha256_blocks(words, base, count) }
                }
                return
            }
            let constants = SHA256.k
            state.withUnsafeMutableBufferPointer { state in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                    for block in 0..<count { compress(base + block * 64, state, schedule, constants) }
                }
            }
        }
    }

    @inline(__always)
    fileprivate static func compress(_ bytes: UnsafePointer<UInt8>, _ h: UnsafeMutableBufferPointer<UInt32>,
                                 _ w: UnsafeMutableBufferPointer<UInt32>, _ k: UnsafeBufferPointer<UInt32>) {
        for i in 0..<16 {
            let j = i &* 4
            w[i] = UInt32(bytes[j]) << 24 | UInt32(bytes[j &+ 1]) << 16 | UInt32(bytes[j &+ 2]) << 8 | UInt32(bytes[j &+ 3])
        }
        for i in 16..<64 {
            let s0 = rotr(w[i &- 15], 7) ^ rotr(w[i &- 15], 18) ^ (w[i &- 15] >> 3)
            let s1 = rotr(w[i &- 2], 17) ^ rotr(w[i &- 2], 19) ^ (w[i &- 2] >> 10)
            w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
        }
        var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
        for i in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
        }
        h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d
        h[4] = h[4] &+ e; h[5] = h[5] &+ f; h[6] = h[6] &+ g; h[7] = h[7] &+ hh
    }

    @inline(__always)
    fileprivate static func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value &>> count) | (value &<< (32 &- count))
    }
}
