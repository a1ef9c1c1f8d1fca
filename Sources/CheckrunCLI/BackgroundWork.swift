import Foundation

/// Work started on a thread of its own, whose value is waited for when it is needed: a report
/// checks the protocol files on one core while SQLite gathers the results on the other.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Written once by the worker before it signals; read only after the signal.
    private var result: Value?

    init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            result = work()
            finished.signal()
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
