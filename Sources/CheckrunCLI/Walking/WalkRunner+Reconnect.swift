import CheckrunModel
import CheckrunStore
import CheckrunTerminal
import Foundation

/// A team store's server gone in the middle of a walk, or a file another checkrun is writing:
/// the answer being saved is kept in memory and saved once the store is back; until then the
/// walk says plainly that it waits, and never calls the answer saved before its commit has returned.
extension WalkRunner {
    /// What Ctrl-C says at any other time.
    var interruptedMessage: String {
        TerminalText("\nInterrupted. Everything answered is saved. Resume with: \(resumeHint)\n").rendered
    }

    /// Has Ctrl-C (and a file cut short) say the walk's ordinary words again, once nothing waits.
    func installOrdinaryWords() {
        SignalTrap.install(message: interruptedMessage, whenCutShort: cutShortMessage)
    }

    /// What a file cut short under the walk (SIGBUS) says: the answer being saved then may be
    /// lost, so "everything answered is saved" would not be true.
    var cutShortMessage: String {
        TerminalText("\ncheckrun stopped: a file it reads in place was cut short by another program (SQLite's -shm file beside the database, say). The answer being saved then may be lost; those before it are saved. See what is saved with: \(context.commandHere("sessions")); resume with: \(resumeHint)\n").rendered
    }

    /// How long between attempts to reach the server again.
    static let reconnectPause: useconds_t = 2_000_000

    /// How long a save waits for another writer before the walk says that it waits.
    static let busyBeforeSaying = 2

    /// Another checkrun holds the database file (a merge, a long write): the answer is kept
    /// and saved once the file is free, however long that takes, and the walk says so once;
    /// Ctrl-C ends the wait within a second, saying the answer is not saved.
    func waitWhileBusy(thenSave result: CheckResult, over seen: String?) throws {
        // Short waits, so Ctrl-C (held back while a save runs) ends the wait within a second.
        store.waitWhenBusy(seconds: 1)
        try keepTrying(thenSave: { try store.save(result, over: seen) }, while: \.isBusy,
            waiting: "The database \(context.databaseName) is busy: another checkrun is writing to it, so this answer is not saved yet. "
                + "Waiting for it to finish; the answer is saved then, and the walk goes on. "
                + "To stop, press Control-C; everything before this answer is saved, and you can resume with: \(resumeHint)",
            stopped: stoppedWhileWaiting(for: nil),
            done: "The database is free again, and the answer is saved.")
    }

    func waitForTheServer(thenSave result: CheckResult, over seen: String?, lost: StoreError) throws {
        try keepTrying({
            // Signals are not held back here: Ctrl-C ends the wait at once.
            usleep(Self.reconnectPause)
            try store.reconnect()
        }, thenSave: { try store.saveAfterLostConnection(result, over: seen) }, while: \.connectionLost,
            waiting: "The connection to the results server was lost while saving this answer, so it may not be saved yet (\(lost.serverSaid ?? lost.message)). "
                + "Waiting for the server to come back, trying again every 2 seconds; the walk goes on once the answer is saved. "
                + "To stop, press Control-C; the session can be resumed later, without this answer, with: \(resumeHint)",
            stopped: stoppedWhileWaiting(for: lost),
            done: "The results server is back, and the answer is saved.")
    }

    /// The walk's save of an answer: said when the store does not answer within seconds, and
    /// Ctrl-C then ends the wait.
    var answerSave: SlowSave {
        SlowSave(context: context, store: store, what: "this answer",
                 ifStopped: "everything before this answer is saved, and `resume` shows whether this one is",
                 whenStopped: "the last answer may not be saved (resume shows whether it is); everything before it is. Resume with: \(resumeHint)")
    }

    /// What Ctrl-C says while the answer waits: for the server (`lost`, its connection gone),
    /// that it may not be saved; for a file another checkrun holds, that it is not. Never that
    /// it was saved. (A save the store has not answered says its own: `answerSave`.)
    func stoppedWhileWaiting(for lost: StoreError?) -> String {
        let what = lost?.connectionLost == true
            ? "Stopped while waiting for the server: the last answer may not be saved (resume shows whether it is); everything before it is."
            : "Stopped while waiting for the database: the last answer is not saved; everything before it is."
        return TerminalText("\n\(what) Resume with: \(resumeHint)\n").rendered
    }

    /// Says why the answer waits, tries `attempt` again for as long as its error is the wait's
    /// (`stillWaiting`), and says when it is saved; Ctrl-C while it waits says `stopped`
    /// (see `stoppedWhileWaiting`).
    /// Each attempt is `prepare` (signals let through: Ctrl-C ends it at once), then `save`
    /// held from signals as the walk's saves are (`answerSave`). A save that commits installs
    /// the ordinary words before a Ctrl-C held meanwhile is handled: the answer is saved, and
    /// "not saved" would be false.
    private func keepTrying(_ prepare: () throws -> Void = {}, thenSave save: () throws -> Void, while stillWaiting: (StoreError) -> Bool,
                            waiting: String, stopped: String, done: String) throws {
        // The trap first: a Ctrl-C the moment the wait is said must not read "everything is saved".
        SignalTrap.install(message: stopped)
        // And Ctrl-C a signal, while the stopwatch's single-key mode would read it as a key.
        SignalTrap.interruptKeysOn()
        defer {
            SignalTrap.interruptKeysBack()
            installOrdinaryWords()
        }
        context.printError(waiting)
        while true {
            do {
                try prepare()
                try answerSave.run(save, saved: { _ in installOrdinaryWords() })
                break
            } catch let error as StoreError where stillWaiting(error) {
                // Still waiting: a slow attempt's words give way to the wait's again.
                SignalTrap.install(message: stopped)
                continue
            } catch let changed as ResultChangedElsewhere {
                // Saved before another writer changed it: the wait is over all the same.
                if changed.cameAfterThisAnswer { context.printError(done) }
                throw changed
            } catch {
                throw CommandFailure("could not save the last answer: \(error). Everything answered before it is saved; resume with: \(resumeHint)")
            }
        }
        context.printError(done)
    }
}
