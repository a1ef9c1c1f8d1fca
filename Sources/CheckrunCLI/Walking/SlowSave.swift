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
    /// What Ctrl-C says once the save is said to be slow.
    let stopped: String
    /// What the tester is told of stopping then: what is saved, and where to look.
    let ifStopped: String

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
        let outcome = try SignalTrap.deferringSignals(patience: Self.patience, stopped: stopped, slow: {
            FileHandle.standardError.write(Data(notice.utf8))
        }, returned: saved, write)
        if outcome.wasSlow {
            let seconds = Int(Date().timeIntervalSince(started).rounded())
            context.printError("The \(storeWords) answered after \(seconds) second\(seconds == 1 ? "" : "s"), and \(what) is saved.")
        }
        return outcome.value
    }

    /// The store as the tester knows it: a server by its address (its password masked), a file by its path.
    private var storeWords: String {
        store.engine == .postgresql ? "results server" : "database"
    }

    private var waitingWords: String {
        let cause = store.engine == .postgresql
            ? "the results server \(context.databaseName) has not answered for \(Int(Self.patience)) seconds"
            : "the database \(context.databaseName) has not answered for \(Int(Self.patience)) seconds"
        return "Saving \(what) is taking longer than it should: \(cause). Waiting for it. "
            + "To stop, press Control-C; \(ifStopped)."
    }
}
