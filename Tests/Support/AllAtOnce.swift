import Foundation

/// Runs work on threads of its own, all released at one moment.
///
/// `DispatchQueue.concurrentPerform` is made for work that computes: it runs only as many
/// iterations at once as there are cores, so "twenty writers at once" on a two-core machine
/// would be two at a time, and races between them would go untested.
package enum AllAtOnce {
    /// Runs `body(index)` for `0..<count`, each on a thread of its own, released together
    /// once every thread is ready, and returns when all have finished.
    package static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let ready = DispatchGroup()
        let finished = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for index in 0..<count {
            ready.enter()
            finished.enter()
            Thread.detachNewThread {
                ready.leave()
                start.wait()
                body(index)
                finished.leave()
            }
        }
        ready.wait()
        for _ in 0..<count { start.signal() }
        finished.wait()
    }
}
