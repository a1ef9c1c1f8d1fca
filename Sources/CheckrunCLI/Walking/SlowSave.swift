import CheckrunStore
import CheckrunTerminal
import Foundation

/// A write the tester waits on that the store has not answered within seconds: a team store's
/// server process stopped or wedged, a disk or network share that hangs. No error comes (a
/// Unix socket has no keepalive, a hung disk no timeout), so without this the walk sat silent
/// before its last prompt, and Ctrl-C, held back while the save ran, did nothing either.
struct SlowSave {
    /// Seconds before a save is said to be slow: an answer commits in about a millisecond.
    static let patience = 3.0

    let context: CommandContext
    let store: ResultStore
    /// What is being saved, for the words: "this answer", "the session".
    let what: String
    /// What the tester is told of stopping then: what is saved, and where to look.
    let ifStopped: String
    /// What Ctrl-C then says after "Stopped while waiting for the server to answer: ".
    let whenStopped: String

    /// Runs `write` with the exit signals held back for `patience` seconds; past that, says
    /// the store has not answered and lets Ctrl-C end the wait (saying `stopped`), and once
    /// the write returns, says it is saved. `saved` installs the words a Ctrl-C says from then
    /// on (told whether the wait was said), before one held meanwhile is handled.
    func run<T>(_ write: () throws -> T, saved: (Bool) -> Void = { _ in }) rethrows -> T {
        // What is on standard output first (the answer's echo, when it is a pipe): the lines
        // below follow it, and an exit by Ctrl-C does not lose it.
        context.flush()
        let started = Date()
        let notice = context.withoutPasswords(TerminalText(waitingWords).rendered) + "\n"
        let stopped = TerminalText("\nStopped while waiting for \(awaited) to answer: \(whenStopped)\n").rendered
        let outcome = try SignalTrap.deferringSignals(patience: Self.patience, stopped: stopped, slow: {
            FileHandle.standardError.write(Data(notice.utf8))
        }, returned: saved, write)
        if outcome.wasSlow {
            let seconds = Int(Date().timeIntervalSince(started).rounded())
            context.printError("The \(storeWords) answered after \(seconds) second\(seconds == 1 ? "" : "s"), and \(what) is saved.")
        }
        return outcome.value
    }

    /// The store as the tester knows it, named before its address (a server's password masked) or path.
    private var storeWords: String {
        store.engine == .postgresql ? "results server" : "database"
    }

    /// What the walk waits for, in the words Ctrl-C says.
    private var awaited: String {
        store.engine == .postgresql ? "the server" : "the database"
    }

    private var waitingWords: String {
        "Saving \(what) is taking longer than it should: the \(storeWords) \(context.databaseName) has not answered for \(Int(Self.patience)) seconds. "
            + "Waiting for it. To stop, press Control-C; \(ifStopped)."
    }
}
