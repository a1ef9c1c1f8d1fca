import Foundation

/// Appends JSON in `JSONWriter`'s layout one member at a time: an opening bracket, members or
/// items each on a line of their own indented two spaces a level, and the closing bracket on
/// a line of its own (`{}` and `[]` when empty).
///
/// Writes into a buffer of its own, a few bytes at a time with a plain copy: `verify` writes a
/// payload for every result it compares, and appending to an array cost more per call than
/// the bytes themselves. Not copyable, so the buffer has one owner, which frees it.
struct CanonicalJSONBuilder: ~Copyable {
    private var bytes: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// How many brackets are open.
    private var depth = 0
    /// Bit n is set while the bracket opened at depth n has nothing in it yet. Payloads nest
    /// three deep; a bit per level in one word, not an array, since every member asks.
    private var emptyLevels: UInt64 = 0

    init() {
        capacity = 2048
        bytes = .allocate(capacity: capacity)
    }

    deinit { bytes.deallocate() }

    mutating func open(_ bracket: Unicode.Scalar) {
        append(UInt8(ascii: bracket))
        emptyLevels |= 1 << UInt64(depth)
        depth += 1
    }

    mutating func close(_ bracket: Unicode.Scalar) {
        depth = max(0, depth - 1)
        let level: UInt64 = 1 << UInt64(depth)
        if emptyLevels & level == 0 {
            append(UInt8(ascii: "\n"))
            pad()
        }
        emptyLevels &= ~level
        append(UInt8(ascii: bracket))
    }

    /// Starts the next item of an array.
    mutating func item() {
        if depth > 0 {
            let level: UInt64 = 1 << UInt64(depth - 1)
            if emptyLevels & level == 0 { append(UInt8(ascii: ",")) }
            append(UInt8(ascii: "\n"))
            emptyLevels &= ~level
        }
        pad()
    }

    /// A key given by a user (a counter's name), escaped as any text is.
    mutating func key(_ name: String) {
        item()
        quoted(name)
        append(": ")
    }

    /// One of the format's own keys: plain ASCII, copied without a look.
    mutating func key(_ name: StaticString) {
        item()
        append("\"")
        append(name)
        append("\": ")
    }

    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    mutating func member(_ name: StaticString, string: String?) {
        key(name)
        if let string { quoted(string) } else { append("null") }
    }

    mutating func member(_ name: StaticString, integer: Int?) {
        key(name)
        if let integer { raw(String(integer)) } else { append("null") }
    }

    mutating func member(_ name: StaticString, number: Double?) {
        key(name)
        if let number { raw(JSONWriter.numberText(number)) } else { append("null") }
    }

    /// The text's bytes, with the line end `JSONWriter.write` ends a document with.
    consuming func finished() -> [UInt8] {
        append(UInt8(ascii: "\n"))
        return Array(UnsafeBufferPointer(start: bytes, count: count))
    }

    /// Text as a JSON string: copied whole when nothing in it needs an escape (nearly always),
    /// else escaped by `JSONWriter`, the one place escapes are written.
    private mutating func quoted(_ text: String) {
        var text = text
        let plain = text.withUTF8 { JSONWriter.isPlain(UnsafeRawBufferPointer($0)) }
        guard plain else {
            var escaped: [UInt8] = []
            JSONWriter.appendQuoted(text, to: &escaped)
            escaped.withUnsafeBytes { append($0) }
            return
        }
        append("\"")
        raw(text)
        append("\"")
    }

    private mutating func pad() {
        var remaining = depth * 2
        while remaining > 0 {
            let step = min(remaining, Self.spaces.utf8CodeUnitCount)
            Self.spaces.withUTF8Buffer { append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0)[..<step])) }
            remaining -= step
        }
    }

    private static let spaces: StaticString = "                                "

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        bytes[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func append(_ source: UnsafeRawBufferPointer) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        reserve(source.count)
        (bytes + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: source.count)
        count += source.count
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    private mutating func grow(_ extra: Int) {
        let grown = max(capacity * 2, count + extra)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = larger
        capacity = grown
    }
}
