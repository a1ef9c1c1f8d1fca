#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A key read in raw mode.
package enum Key: Sendable, Equatable {
    case enter
    case character(Character)
    /// Ctrl-C: in raw mode it arrives as a byte, not as a signal.
    case interrupt
    /// Ctrl-D, or the input closed.
    case endOfInput
    /// Several characters at once, one of them no key: text pasted or a file dropped on the
    /// terminal, read whole so that none is taken for a key.
    case pasted(String)
    /// A key that types no character: an arrow, Tab, Backspace, a function key. Answered, so
    /// that a tester who pressed one, perhaps by a screen reader's or switch's command, hears
    /// that it did nothing rather than silence.
    case unused
}

/// The controlling terminal on standard input: raw mode for single keys, and the promise
/// that the original mode comes back on every way out (normal exit, signal, error).
package final class Terminal {
    package let fileDescriptor: Int32
    private var original = termios()
    private var isRaw = false

    /// nil when standard input is not a terminal (a pipe or a file): prompts then read lines.
    package init?(fileDescriptor: Int32 = STDIN_FILENO) {
        guard isatty(fileDescriptor) == 1, tcgetattr(fileDescriptor, &original) == 0 else { return nil }
        self.fileDescriptor = fileDescriptor
        SignalTrap.rememberTerminal(fileDescriptor, original)
    }

    deinit {
        restore()
    }

    /// Single keys, no echo, no signals from Ctrl-C (it arrives as a key), reads block for one byte.
    package func enterRawMode() {
        guard !isRaw else { return }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_iflag &= ~tcflag_t(ICRNL | IXON | BRKINT | INPCK | ISTRIP)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        // TCSANOW, not TCSAFLUSH: keys typed ahead must not be thrown away.
        if tcsetattr(fileDescriptor, TCSANOW, &raw) == 0 {
            isRaw = true
            SignalTrap.rememberRawMode(raw)
        }
    }

    /// Back to the mode the terminal had when checkrun started.
    package func restore() {
        guard isRaw else { return }
        SignalTrap.rememberRawMode(nil)
        tcsetattr(fileDescriptor, TCSANOW, &original)
        isRaw = false
    }

    /// Back to line mode for a question answered with a line; true when Ctrl-C or Ctrl-\ was
    /// typed while raw mode was on and is not read yet (pressed while an answer was saved). It
    /// came as a byte, no signal: in line mode it became a character of the answer, and the
    /// walk waited for an Enter the tester never meant to press.
    package func restoreForLine(_ reader: InputReader) -> Bool {
        defer { restore() }
        return isRaw && reader.takesWaitingInterrupt()
    }

    /// Reads one key in raw mode. Escape sequences (arrow keys) are read whole and ignored;
    /// several characters arriving at once, one of them not among `keys`, are `.pasted`.
    package func readKey(from reader: InputReader, keys: Set<Character> = []) -> Key {
        while true {
            guard let byte = reader.readByte() else { return .endOfInput }
            let isKey = { (byte: UInt8) in byte == 0x0D || byte == 0x0A || keys.contains(Character(Unicode.Scalar(byte))) }
            if !keys.isEmpty, let burst = reader.takeBurst(beganBy: byte, isKey: isKey) { return .pasted(String(decoding: burst, as: UTF8.self)) }
            switch byte {
            case 0x0D, 0x0A: return .enter
            case 0x03, 0x1C: return .interrupt
            case 0x04: return .endOfInput
            case 0x1B:
                reader.discardEscapeSequence()
                return .unused
            case 0x20...0x7E: return .character(Character(Unicode.Scalar(byte)))
            // A byte of a character split across reads is no key of its own: passed over.
            case 0x80...: continue
            default: return .unused
            }
        }
    }
}
