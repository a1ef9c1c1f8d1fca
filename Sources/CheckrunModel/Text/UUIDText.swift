import Foundation

extension UUID {
    /// A new id that starts with the time in milliseconds (RFC 9562, version 7). Results made one
    /// after another get ids that sort together, so every index keyed by a result id grows at
    /// its end instead of touching a random page of a large database for each answer.
    package static func timeOrdered(at date: Date) -> UUID {
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> UInt64(40 - index * 8)) }
        for index in 6..<8 { bytes[index] = UInt8(truncatingIfNeeded: high >> UInt64(index * 8)) }
        for index in 8..<16 { bytes[index] = UInt8(truncatingIfNeeded: low >> UInt64((index - 8) * 8)) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // RFC 9562 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// The id as the database keys store it (upper case, like `uuidString`), written without
    /// the formatting machinery behind `uuidString`, which dominated bulk writes.
    package var storageText: String { text(digits: Self.upperDigits) }

    /// The id in lower case: how files, reports and records show it.
    package var lowercasedText: String { text(digits: Self.lowerDigits) }

    private static let upperDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
    private static let lowerDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private func text(digits: [UInt8]) -> String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { output in
                var position = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        output[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    output[position] = digits[Int(bytes[index] >> 4)]
                    output[position + 1] = digits[Int(bytes[index] & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }

    /// Parses `8-4-4-4-12` hexadecimal text in either case, as `UUID(uuidString:)` does, without
    /// its `sscanf`, which was a tenth of the cost of verifying a database.
    package init?(text: String) {
        var text = text
        guard let id = text.withUTF8({ UUID(utf8: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = id
    }

    /// `init(text:)` for text read in place, as a database row holds it.
    package init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard let parsed = Self.parse(bytes) else { return nil }
        self.init(uuid: parsed)
    }

    /// The id these 36 bytes spell, in either case; nil when they spell none. Read into the
    /// value itself: a database's verification parses hundreds of thousands of ids.
    private static func parse(_ bytes: UnsafeRawBufferPointer) -> uuid_t? {
        guard bytes.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &value) { output -> Bool in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard bytes[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = nibble(bytes[position]), let low = nibble(bytes[position + 1]) else { return false }
                output[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return parsed ? value : nil
    }

    /// Whether `bytes` spell an id the way checkrun stores ids: 36 characters, upper case.
    /// Ids are compared as text, so another spelling of one is another id, added by hand.
    package static func isStorageSpelling(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == 36 else { return false }
        for (position, byte) in bytes.enumerated() {
            let valid = position == 8 || position == 13 || position == 18 || position == 23
                ? byte == UInt8(ascii: "-")
                : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            if !valid { return false }
        }
        return true
    }

    /// Whether `bytes` are this id in lower case, as a record's payload holds it: compared in
    /// place, with no text made.
    package func isSpelled(lowercaseIn bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == 36 else { return false }
        let digits = Self.lowerDigits
        return withUnsafeBytes(of: uuid) { value in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard bytes[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard bytes[position] == digits[Int(value[index] >> 4)], bytes[position + 1] == digits[Int(value[index] & 0x0F)] else { return false }
                position += 2
            }
            return true
        }
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
