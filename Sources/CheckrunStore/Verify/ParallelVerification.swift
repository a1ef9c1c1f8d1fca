import Foundation

/// Verification shared among the machine's cores: each takes every n-th session and reads it
/// through a connection of its own, inside one read transaction, so a session's records and its
/// tables are read from the same snapshot even while others write.
enum ParallelVerification {
    typealias Work = (ResultStore, ArraySlice<UUID>, inout VerificationReport, ((Int) -> Void)?) throws -> Void

    static func run(_ sessions: [UUID], opener: StoreOpener, progress: ((Int) -> Void)?, _ work: @escaping Work) throws -> VerificationReport {
        let lanes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, sessions.count / 64 + 1))
        let collected = Collected(lanes: lanes)
        nonisolated(unsafe) let progress = progress
        nonisolated(unsafe) let work = work
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            do {
                let store = try opener.open()
                defer { store.database.finish() }
                try store.database.beginSnapshot()
                defer { try? store.database.execute("COMMIT") }
                // Every lane takes a share of sessions spread over the whole list, so the
                // lanes finish together; only the first reports progress.
                let share = ArraySlice(stride(from: lane, to: sessions.count, by: lanes).map { sessions[$0] })
                var report = VerificationReport()
                try work(store, share, &report, lane == 0 ? progress.map { report in { report($0 * lanes) } } : nil)
                collected.store(report, lane: lane)
            } catch {
                collected.fail(error)
            }
        }
        return try collected.merged()
    }

    /// What the lanes found, kept under a lock.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [VerificationReport?]
        private var error: (any Error)?

        init(lanes: Int) { reports = Array(repeating: nil, count: lanes) }

        func store(_ report: VerificationReport, lane: Int) { lock.withLock { reports[lane] = report } }
        func fail(_ error: any Error) { lock.withLock { self.error = self.error ?? error } }

        func merged() throws -> VerificationReport {
            try lock.withLock {
                if let error { throw error }
                var total = VerificationReport()
                for case let report? in reports {
                    total.sessions += report.sessions
                    total.records += report.records
                    total.problems += report.problems
                    total.namedAttachments += report.namedAttachments
                }
                return total
            }
        }
    }
}
