import Foundation

extension String {
    /// Whether the two strings are the same bytes. Swift's `==` compares canonical
    /// equivalence, so "é" and "e" with a combining accent are equal to it; a tamper check must
    /// see them differ. Compares the UTF-8 buffers at once rather than a byte at a time.
    package func hasSameBytes(as other: String) -> Bool {
        utf8.count == other.utf8.count && hasBytePrefix(other)
    }

    /// Whether the string's UTF-8 bytes begin with `prefix`'s.
    package func hasBytePrefix(_ prefix: String) -> Bool {
        var whole = self
        var start = prefix
        return whole.withUTF8 { wholeBytes in
            start.withUTF8 { startBytes in
                guard wholeBytes.count >= startBytes.count else { return false }
                guard let wholeBase = wholeBytes.baseAddress, let startBase = startBytes.baseAddress else { return startBytes.isEmpty }
                return memcmp(wholeBase, startBase, startBytes.count) == 0
            }
        }
    }

    /// Whether the string is exactly these bytes.
    package func hasSameBytes(as bytes: [UInt8]) -> Bool {
        var text = self
        return text.withUTF8 { own in bytes.withUnsafeBytes { UnsafeRawBufferPointer(own).hasSameBytes(as: $0) } }
    }
}

extension UnsafeRawBufferPointer {
    /// Where `needle` first stands in these bytes, or nil: a byte search, for text read in
    /// place (a record's payload) without making it a string.
    package func firstOffset(of needle: UnsafeRawBufferPointer) -> Int? {
        guard let first = needle.first, needle.count <= count else { return needle.isEmpty ? 0 : nil }
        for start in 0...(count - needle.count) where self[start] == first {
            if UnsafeRawBufferPointer(rebasing: self[start..<start + needle.count]).hasSameBytes(as: needle) { return start }
        }
        return nil
    }

    /// Whether the two buffers hold the same bytes (two empty ones do, wherever they point).
    package func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count else { return false }
        guard let base = baseAddress, let otherBase = other.baseAddress else { return true }
        return memcmp(base, otherBase, count) == 0
    }
}
