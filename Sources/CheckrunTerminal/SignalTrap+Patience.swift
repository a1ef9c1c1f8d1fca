#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension SignalTrap {
    /// Runs `body` with the exit signals held back, as `deferringSignals` does, but holds them
    /// no longer than `patience` seconds (and, in the single-key mode, lets Ctrl-C be a signal
    /// again for as long as the wait lasts). A save the store has not answered by then (a server
    /// process stopped, a disk or network share that hangs: nothing a connection's timeouts
    /// notice on a Unix socket) would otherwise leave the tester before a silent prompt that
    /// Ctrl-C cannot end. So, on a thread of its own while `body` still waits, the words a
    /// signal says from then on (`stopped`, unless nil) are installed; signals (and, in the
    /// single-key mode, Ctrl-C) are let through, so a signal ends the process at once while
    /// the save it interrupts may or may not reach the store; and only then `slow` says so:
    /// a Ctrl-C typed the moment the words appear is a signal.
    /// Once `body` has returned and the watch has ended, but before a signal held meanwhile is
    /// handled, `returned` runs (told whether `slow` ran): words installed there are the ones
    /// such a signal says, never overtaken by the watch's. Returns `body`'s value and whether
    /// `slow` ran.
    package static func deferringSignals<T>(patience: Double, stopped: String?, slow: @escaping @Sendable () -> Void, returned: (Bool) -> Void = { _ in },
                                            _ body: () throws -> T) rethrows -> (value: T, wasSlow: Bool) {
        var block = exitSignalSet(), previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        // Started with the signals held, as the thread that starts it holds them now.
        let watch = PatienceWatch(patience: patience, stopped: stopped, slow: slow)
        watch.start()
        // Thrown or returned, the watch ends first, and the single-key mode it let Ctrl-C
        // through is whole again (`finish` answers the same however often it is asked).
        defer { if watch.finish() { interruptKeysBack() } }
        let value = try body()
        let wasSlow = watch.finish()
        returned(wasSlow)
        return (value, wasSlow)
    }

    /// The signals that end the process, as a set.
    static func exitSignalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in exitSignals { sigaddset(&set, signalNumber) }
        return set
    }
}

/// The thread that waits beside a save: past its patience it runs `slow` and lets the exit
/// signals through to itself (the thread running the save still holds them back), so a
/// signal pending or sent later ends the process; once the save returns it holds them again
/// and ends, before the caller goes on.
private final class PatienceWatch: @unchecked Sendable {
    private let condition = NSCondition()
    private let patience: Double
    private let stopped: String?
    private let slow: @Sendable () -> Void
    private var saveReturned = false
    private var ended = false
    private var ranSlow = false

    init(patience: Double, stopped: String?, slow: @escaping @Sendable () -> Void) {
        self.patience = patience
        self.stopped = stopped
        self.slow = slow
    }

    func start() {
        let thread = Thread { [self] in watch() }
        thread.start()
    }

    private func watch() {
        condition.lock()
        let deadline = Date().addingTimeInterval(patience)
        while !saveReturned && Date() < deadline { _ = condition.wait(until: deadline) }
        if !saveReturned {
            ranSlow = true
            condition.unlock()
            if let stopped { SignalTrap.install(message: stopped) }
            var signals = SignalTrap.exitSignalSet()
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            SignalTrap.interruptKeysOn()
            slow()
            condition.lock()
            while !saveReturned { condition.wait() }
            // Held again before the caller goes on: a signal from now on is the caller's,
            // handled with the words it installs.
            pthread_sigmask(SIG_BLOCK, &signals, nil)
        }
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// Tells the watch the save returned, waits for it to end, and says whether it ran `slow`.
    /// Called again (by the caller's `defer`, after a throw or a return), it only answers.
    @discardableResult
    func finish() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        saveReturned = true
        condition.broadcast()
        while !ended { condition.wait() }
        return ranSlow
    }
}
