import Foundation

/// Work on a connection of its own, on another thread, started now and waited for when its
/// value is needed: `verify`'s file check and a report's check of its release's ids read while
/// the chains are verified, rather than after them, when one core alone would be busy.
final class WorkBeside<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the worker before it signals; read only after the signal.
    private var result: Result<Value, any Error>?

    init(opener: StoreOpener, _ work: @escaping @Sendable (ResultStore) throws -> Value) {
        DispatchQueue.global().async { [self] in
            defer { done.signal() }
            result = Result {
                let store = try opener.open()
                defer { store.database.finish() }
                return try work(store)
            }
        }
    }

    /// Waits for the work; its value, or the error it ended with.
    func value() throws -> Value {
        done.wait()
        done.signal()
        guard let result else { throw StoreError("work beside the verification ended without a result") }
        return try result.get()
    }
}
