import Testing

extension Trait where Self == TimeLimitTrait {
    /// A time limit that only stops a test that hangs.
    ///
    /// These tests run checkrun as a process or at a pseudo-terminal and block a thread of the
    /// test pool while they wait for it. On a two-core machine the pool has two threads, and a
    /// test's time limit starts counting before its body gets one, so a limit near a test's own
    /// length failed tests that passed (one CI run waited 140 seconds for a thread). Every wait
    /// inside a test has its own deadline (`PseudoTerminal.expect`, `waitForExit`); this limit is
    /// past the whole suite's length, for a hang that no deadline catches.
    static var hangGuard: Self { .timeLimit(.minutes(15)) }
}
