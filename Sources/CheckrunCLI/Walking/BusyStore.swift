import CheckrunStore
import CheckrunTerminal
import Foundation

/// A write a tester waits on at a terminal while another checkrun holds the store (a long
/// merge into the file, or a team store's writers' lock): said within seconds, then waited for
/// as long as it takes, never given up after a timeout the tester was not told of.
struct BusyStore {
    let store: ResultStore
    let context: CommandContext

    /// How long a write waits for another writer before the wait is said.
    static let secondsBeforeSaying = 2

    /// Runs `write`; while the store is busy, says `waiting` once, keeps trying, and says
    /// `done` once the write went through. Ctrl-C while it waits says `stopped` and exits 130.
    /// A `write` that holds signals back while it runs holds a Ctrl-C until its attempt ends:
    /// the first waits up to `secondsBeforeSaying`, every later one a second. (The walk's own
    /// saves wait the same way, with more to say: `WalkRunner.keepTrying`.)
    func waitingWhileBusy<T>(_ write: () throws -> T, waiting: String, stopped: String, done: String) throws -> T {
        store.waitWhenBusy(seconds: Self.secondsBeforeSaying)
        defer { store.waitWhenBusy(seconds: Database.busySeconds) }
        do {
            return try write()
        } catch let error as StoreError where error.isBusy {
            SignalTrap.install(message: TerminalText("\n\(stopped)\n").rendered)
            context.printError(waiting)
        }
        // Short waits, so Ctrl-C (held back while a write runs) ends the wait within a second.
        store.waitWhenBusy(seconds: 1)
        while true {
            do {
                let value = try write()
                context.printError(done)
                return value
            } catch let error as StoreError where error.isBusy {
                continue
            }
        }
    }
}
