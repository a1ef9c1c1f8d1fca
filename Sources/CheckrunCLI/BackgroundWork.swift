import Foundation

/// Every piece of background work still running. The process waits for them before it exits:
/// a thread still talking to a server through TLS when the process tears its libraries down
/// would crash it.
let backgroundWorkRunning = DispatchGroup()

/// Work started on a thread of its own, whose value is waited for when it is needed: a report
/// checks the protocol files on one core while SQLite gathers the results on the other.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Written once by the worker before it signals; read only after the signal.
    private var result: Value?

    init(_ work: @escaping @Sendable () -> Value) {
        backgroundWorkRunning.enter()
        let thread = Thread { [self] in
            result = work()
            finished.signal()
            backgroundWorkRunning.leave()
        }
        thread.start()
    }

    /// Waits for the work to finish. Safe to read more than once.
    var value: Value {
        finished.wait()
        finished.signal()
        guard let result else { preconditionFailure("background work signalled before storing its value") }
        return result
    }
}
