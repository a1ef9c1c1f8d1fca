import CheckrunModel
import CheckrunStore
import CheckrunTerminal
import Foundation

/// A team store's server gone in the middle of a walk: the answer being saved is kept in
/// memory and saved once the server is back; until then the walk says plainly that it waits,
/// and never calls the answer saved before its commit has returned.
extension WalkRunner {
    /// What Ctrl-C says at any other time.
    var interruptedMessage: String {
        TerminalText("\nInterrupted. Everything answered is saved. Resume with: \(resumeHint)\n").rendered
    }

    /// How long between attempts to reach the server again.
    static let reconnectPause: useconds_t = 2_000_000

    func waitForTheServer(thenSave result: CheckResult, over seen: String?, lost: StoreError) throws {
        context.printError(
            "The connection to the results server was lost while saving this answer, so it may not be saved yet (\(lost.serverSaid ?? lost.message)). "
                + "Waiting for the server to come back, trying again every 2 seconds; the walk goes on once the answer is saved. "
                + "To stop, press Control-C; the session can be resumed later, without this answer, with: \(resumeHint)")
        // Ctrl-C while waiting must not claim the answer was saved.
        SignalTrap.install(message: TerminalText(
            "\nStopped while waiting for the server: the last answer may not be saved (resume shows whether it is); everything before it is. Resume with: \(resumeHint)\n").rendered)
        defer { SignalTrap.install(message: interruptedMessage) }
        while true {
            // Signals are not held back here: Ctrl-C ends the wait at once.
            usleep(Self.reconnectPause)
            do {
                try store.reconnect()
                try SignalTrap.deferringSignals { try store.saveAfterLostConnection(result, over: seen) }
                break
            } catch let error as StoreError where error.connectionLost {
                continue
            } catch let changed as ResultChangedElsewhere {
                throw changed
            } catch {
                throw CommandFailure("could not save the last answer: \(error). Everything answered before it is saved; resume with: \(resumeHint)")
            }
        }
        context.printError("The results server is back, and the answer is saved.")
    }
}
