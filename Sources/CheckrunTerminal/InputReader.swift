#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered reading of standard input by line or by byte from one buffer, so that single keys
/// in raw mode and whole lines in line mode never steal each other's input.
package final class InputReader {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    private var ended = false
    /// Whether anything has been read yet: a byte-order mark that a Windows editor put before
    /// the first answer of a file piped in is dropped, not taken as part of that answer (which
    /// shows it to no one: "t 5" refused as no time).
    private var readBefore = false

    /// A terminal sends Enter as one byte (CR in raw mode, LF in line mode), never as a CRLF
    /// pair split over two reads; files and pipes may hold CRLF split anywhere.
    private let isTerminal: Bool

    package init(fileDescriptor: Int32 = STDIN_FILENO) {
        self.fileDescriptor = fileDescriptor
        isTerminal = isatty(fileDescriptor) == 1
    }

    private func fill() -> Bool {
        guard !ended else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.removeFirst(position)
                position = 0
                let byteOrderMark = !readBefore && chunk.starts(with: [0xEF, 0xBB, 0xBF]) && count >= 3 ? 3 : 0
                readBefore = true
                buffer.append(contentsOf: chunk[byteOrderMark..<count])
                if buffer.isEmpty { continue }
                return true
            }
            if count < 0 && errno == EINTR { continue }
            ended = true
            return false
        }
    }

    /// Drops what was typed and not yet read, here and in the terminal's own queue: after the
    /// walk's save was refused, keys typed for the question it no longer asks must not become
    /// the answer to the one it asks now. Only a terminal's input is dropped; piped answers are
    /// answers.
    package func discardTypedAhead() {
        guard isTerminal else { return }
        tcflush(fileDescriptor, TCIFLUSH)
        buffer.removeAll()
        position = 0
        skipLineFeed = false
    }

    package func readByte() -> UInt8? {
        if position >= buffer.count && !fill() { return nil }
        defer { position += 1 }
        return buffer[position]
    }

    /// When `byte`, just read, began a read of several bytes from a terminal, and one of them is
    /// no key (`isKey` says no), or a line end has more after it, the bytes were pasted or
    /// dropped on the terminal (a file's path), not typed: keys arrive one a read, or a few
    /// when typed ahead (stops tapped, then Enter, while an answer was saved), and a typist's
    /// Enter ends what was typed ahead. Pasted lines of keys alone ("Enter, p, space, +,
    /// Enter") were read a key at a time, and saved a timing of no seconds with stops nobody
    /// tallied. Takes the rest of that read and returns all it held; nil otherwise, taking nothing.
    package func takeBurst(beganBy byte: UInt8, isKey: (UInt8) -> Bool) -> [UInt8]? {
        // Ctrl-C among them is read as the key it is.
        let isLineEnd = { (byte: UInt8) in byte == 0x0D || byte == 0x0A }
        guard isTerminal, byte != 0x1B, position == 1, buffer.count > 1, !buffer.contains(0x03),
              buffer.contains(where: { !isKey($0) }) || buffer.dropLast().contains(where: isLineEnd) && !buffer.allSatisfy(isLineEnd) else { return nil }
        position = buffer.count
        return buffer
    }

    /// Skips the rest of an escape sequence (ESC already read). A terminal reached over a slow
    /// link (ssh, a serial console) can deliver an arrow's bytes in two reads: the "A" of an
    /// up arrow read on its own was the attach key. So, as terminals' own libraries do, the
    /// rest is waited for a moment; a lone Escape is still a lone Escape after it.
    func discardEscapeSequence() {
        guard nextByteArrives(), buffer[position] == UInt8(ascii: "[") || buffer[position] == UInt8(ascii: "O") else { return }
        position += 1
        while nextByteArrives() {
            // A control (Ctrl-C, Enter) or a byte beyond ASCII is no part of a sequence: it
            // ends the broken one and is read as itself.
            let byte = buffer[position]
            guard (0x20...0x7E).contains(byte) else { return }
            position += 1
            if (0x40...0x7E).contains(byte) { return }
        }
    }

    /// How long the rest of an escape sequence is waited for, in milliseconds: ncurses' own
    /// delay for it is a thousand, too long a pause after a lone Escape; bytes of one sequence
    /// over a remote link arrive within a few.
    static let escapeDelayMilliseconds: Int32 = 100

    /// Whether a terminal has a key waiting to be read already, typed before this moment; never
    /// waits. (Piped answers are answers, whenever they came: false.)
    package var hasKeyWaiting: Bool {
        guard isTerminal, !ended else { return false }
        if position < buffer.count { return true }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Whether Ctrl-C or Ctrl-\ is among what a terminal has waiting, read in or not: typed in
    /// raw mode, they came as bytes, not signals. Reads in what is waiting; never waits.
    package func takesWaitingInterrupt() -> Bool {
        guard isTerminal else { return false }
        while !ended {
            var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0, fill() else { break }
        }
        return buffer[position...].contains { $0 == 0x03 || $0 == 0x1C }
    }

    /// Whether a byte is there to read: already read in, or, from a terminal, arriving within
    /// the escape delay. Not a time limit on any answer: only the rest of a key already pressed.
    private func nextByteArrives() -> Bool {
        if position < buffer.count { return true }
        guard isTerminal, !ended else { return false }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        var ready = poll(&descriptor, 1, Self.escapeDelayMilliseconds)
        // A signal meanwhile (the window resized) is no answer that nothing came: wait again.
        while ready < 0 && errno == EINTR { ready = poll(&descriptor, 1, Self.escapeDelayMilliseconds) }
        guard ready > 0 else { return false }
        return fill()
    }

    /// Set after a line of a file or pipe ended with CR as the last byte read, so that the LF
    /// of a CRLF pair arriving in the next read is not read as an empty line. A CRLF that
    /// arrives in one read (a pasted Windows line, too) is one line end anywhere. On a terminal
    /// a CR that ends a read is a whole Enter: a line typed ahead while the walk was still in
    /// raw mode ends with CR, and the Enter typed at the next prompt (an LF, read later) is an
    /// answer of its own, never to be swallowed.
    private var skipLineFeed = false

    /// One line without its line end (LF, CRLF, or a lone CR, which is what Enter sends while
    /// the terminal is still in raw mode); nil at the end of input. A last line without a line
    /// end still counts. Invalid UTF-8 is repaired, never fatal.
    package func readLine() -> String? {
        var line: [UInt8] = []
        while true {
            if position >= buffer.count && !fill() {
                return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
            }
            if skipLineFeed {
                skipLineFeed = false
                if buffer[position] == 0x0A { position += 1; continue }
            }
            if let end = buffer[position...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                line += buffer[position..<end]
                position = end + 1
                if buffer[end] == 0x0D {
                    if position < buffer.count {
                        if buffer[position] == 0x0A { position += 1 }
                    } else {
                        skipLineFeed = !isTerminal
                    }
                }
                return String(decoding: line, as: UTF8.self)
            }
            line += buffer[position...]
            position = buffer.count
        }
    }
}
