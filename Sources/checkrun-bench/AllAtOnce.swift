import Foundation

/// Runs `body(index)` for `0..<count`, each on a thread of its own, released together once
/// every thread is ready. Not `DispatchQueue.concurrentPerform`: that runs only as many at
/// once as there are cores, so twenty writers on two cores would be two at a time.
func allAtOnce(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
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
