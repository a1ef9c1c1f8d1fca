#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What the signal handler needs, kept where a C handler can reach it without Swift runtime calls.
private nonisolated(unsafe) var savedTerminal = termios()
private nonisolated(unsafe) var savedTerminalDescriptor: Int32 = -1
private nonisolated(unsafe) var farewell: UnsafeMutablePointer<UInt8>?
private nonisolated(unsafe) var farewellLength = 0
/// Said when a file read in place was cut short under the command (SIGBUS): the save under way
/// may be lost, so not the farewell, which says everything answered is saved.
private nonisolated(unsafe) var cutShortFarewell: UnsafeMutablePointer<UInt8>?
private nonisolated(unsafe) var cutShortFarewellLength = 0
/// The single-key mode the terminal is in while the stopwatch runs, if it is: SIGCONT puts it
/// back, since the shell that stopped checkrun (SIGTSTP sent from outside, `kill -STOP`) hands
/// the terminal back in line mode, where keys echo and wait for Enter.
private nonisolated(unsafe) var rawTerminal = termios()
private nonisolated(unsafe) var rawTerminalOn = false
/// The single-key mode with Ctrl-C and Ctrl-\ as signals, and how many waits want it now: a
/// save the store does not answer, a wait for another writer or a lost server. No key is read
/// while they last, so the keys that stop the walk must be signals, after SIGCONT too.
private nonisolated(unsafe) var rawTerminalSignalling = termios()
private nonisolated(unsafe) var interruptKeyWaits = 0

/// Puts the single-key mode back as it should be now; called from the SIGCONT handler too.
private func applySingleKeyMode() {
    guard rawTerminalOn && savedTerminalDescriptor >= 0 else { return }
    if interruptKeyWaits > 0 {
        tcsetattr(savedTerminalDescriptor, TCSANOW, &rawTerminalSignalling)
    } else {
        tcsetattr(savedTerminalDescriptor, TCSANOW, &rawTerminal)
    }
}
/// What must be undone before any exit by a signal (temporary files removed), whoever
/// installed the words said on the way out: one handler, so neither can replace the other.
private nonisolated(unsafe) var beforeExit: (@convention(c) () -> Void)?
private nonisolated(unsafe) var handlersInstalled = false

/// Ctrl-C, Ctrl-\ (SIGQUIT), SIGTERM, SIGHUP, and SIGPIPE (the output closed: `checkrun run … | head`): put the
/// terminal back, say how to resume (on standard error, which is still there), exit 130.
/// Every answer is already committed when it is given, so there is nothing left to save; the
/// handler does only async-signal-safe work (tcsetattr, write, _exit).
package enum SignalTrap {
    /// The signals a person or a system sends to stop a program. Ctrl-\ is among them: left
    /// to the Swift runtime, it printed a crash report in colour and a countdown that redraws,
    /// then let the walk go on.
    package static let exitSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    static func rememberTerminal(_ descriptor: Int32, _ state: termios) {
        savedTerminal = state
        savedTerminalDescriptor = descriptor
        signal(SIGCONT) { _ in applySingleKeyMode() }
    }

    /// Serialises `install`.
    private static let installing = NSLock()

    /// Lets Ctrl-C (and Ctrl-\) through as signals while the single-key mode is on, which
    /// reads them as keys: a save the store does not answer, or a wait for another writer or
    /// a lost server, holds the walk where no key is read. Each call is undone by one
    /// `interruptKeysBack`; the mode is whole again after the last.
    package static func interruptKeysOn() {
        interruptKeyWaits += 1
        applySingleKeyMode()
    }

    package static func interruptKeysBack() {
        interruptKeyWaits = max(0, interruptKeyWaits - 1)
        applySingleKeyMode()
    }

    /// The terminal's single-key mode, while it is on (nil once it is off), for SIGCONT.
    static func rememberRawMode(_ state: termios?) {
        rawTerminalOn = false
        if let state {
            rawTerminal = state
            rawTerminalSignalling = state
            rawTerminalSignalling.c_lflag |= tcflag_t(ISIG)
            rawTerminalOn = true
        }
    }

    /// A child started by Foundation's `Process` can inherit a mask that blocks most signals
    /// (swift-corelibs-foundation #4772); clear it so Ctrl-C and SIGTERM reach us.
    package static func clearSignalMask() {
        var empty = sigset_t()
        sigemptyset(&empty)
        sigprocmask(SIG_SETMASK, &empty, nil)
    }

    /// Said, when no other words are given, for a file cut short under the command.
    package static let cutShortWords = "\ncheckrun stopped: a file it reads in place was cut short by another program (SQLite's -shm file beside the database, say). What was being saved then may be lost; `checkrun sessions` shows what is saved.\n"

    /// Installs the handlers with the message to print on the way out, and the one for a file
    /// cut short under the command. Both are copied to C memory the handlers reach without the
    /// Swift runtime.
    package static func install(message: String, whenCutShort: String = cutShortWords) {
        // One install at a time: a save's watch thread installs words while the save may
        // return and its caller install others; two at once would free one old buffer twice.
        installing.lock()
        defer { installing.unlock() }
        // A handler running between two of these steps writes nothing, or the old words whole:
        // the length is zero while the pointer changes, and the old buffer is freed last.
        let (oldFarewell, oldCutShort) = (farewell, cutShortFarewell)
        let (newFarewell, newFarewellLength) = cBuffer(message)
        let (newCutShort, newCutShortLength) = cBuffer(whenCutShort)
        farewellLength = 0
        farewell = newFarewell
        farewellLength = newFarewellLength
        cutShortFarewellLength = 0
        cutShortFarewell = newCutShort
        cutShortFarewellLength = newCutShortLength
        oldFarewell?.deallocate()
        oldCutShort?.deallocate()
        handlersInstalled = true
        for signalNumber in exitSignals + [SIGPIPE] {
            signal(signalNumber) { _ in
                beforeExit?()
                if savedTerminalDescriptor >= 0 { tcsetattr(savedTerminalDescriptor, TCSANOW, &savedTerminal) }
                if let farewell { _ = write(STDERR_FILENO, farewell, farewellLength) }
                _exit(130)
            }
        }
        // SQLite reads its -shm file through memory; emptied in place by another program, the
        // next read faults. Left to the runtime, that was a crash report holding the terminal
        // for half a minute, and no word of how to resume.
        signal(SIGBUS) { _ in
            beforeExit?()
            if savedTerminalDescriptor >= 0 { tcsetattr(savedTerminalDescriptor, TCSANOW, &savedTerminal) }
            if let cutShortFarewell { _ = write(STDERR_FILENO, cutShortFarewell, cutShortFarewellLength) }
            _exit(1)
        }
    }

    /// `text` in a new C buffer, which a handler can write without the Swift runtime.
    private static func cBuffer(_ text: String) -> (UnsafeMutablePointer<UInt8>, Int) {
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        buffer.initialize(from: bytes, count: bytes.count)
        return (buffer, bytes.count)
    }

    /// Has `cleanup` run first whenever a signal ends the process, and the handlers installed
    /// (saying nothing) if no command installed them with its words. `cleanup` must be
    /// async-signal-safe: it runs inside the handler.
    package static func runBeforeExit(_ cleanup: @convention(c) () -> Void) {
        beforeExit = cleanup
        if !handlersInstalled { install(message: "") }
    }

    /// Runs `body` with the exit signals held back, so a save is never cut half way; a signal
    /// that arrives meanwhile is handled right after.
    package static func deferringSignals<T>(_ body: () throws -> T) rethrows -> T {
        var block = exitSignalSet(), previous = sigset_t()
        sigprocmask(SIG_BLOCK, &block, &previous)
        defer { sigprocmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }
}
