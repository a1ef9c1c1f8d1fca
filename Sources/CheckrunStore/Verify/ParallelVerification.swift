import Foundation

/// Verification shared among the machine's cores: each lane reads through a connection of its
/// own, inside one read transaction, so a session's records and its tables are read from the
/// same snapshot even while others write.
///
/// The lanes take groups of neighbouring sessions, the next free one each time: neighbours'
/// records and results lie on the same pages, so each page is read by one lane rather than by
/// every lane (as when each took every n-th session), and the lanes still finish together.
enum ParallelVerification {
    typealias Work = (ResultStore, [UUID], inout VerificationReport) throws -> Void

    static func run(_ sessions: [UUID], groupSize: Int, opener: StoreOpener, progress: ((Int) -> Void)?, _ work: @escaping Work) throws -> VerificationReport {
        let groups = stride(from: 0, to: sessions.count, by: groupSize).map { Array(sessions[$0..<min($0 + groupSize, sessions.count)]) }
        let lanes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, groups.count))
        let shared = Shared(lanes: lanes)
        nonisolated(unsafe) let progress = progress
        nonisolated(unsafe) let work = work
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            do {
                let store = try opener.open()
                defer { store.database.finish() }
                try store.database.beginSnapshot()
                defer { try? store.database.execute("COMMIT") }
                var report = VerificationReport()
                while let next = shared.nextGroup(of: groups.count) {
                    let before = report.records
                    try work(store, groups[next], &report)
                    let total = shared.addRecords(report.records - before)
                    // Only the first lane reports, so lines never interleave.
                    if lane == 0 { progress?(total) }
                }
                shared.store(report, lane: lane)
            } catch {
                shared.fail(error)
            }
        }
        return try shared.merged()
    }

    /// The next group to take and what the lanes found, kept under a lock.
    private final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private var taken = 0
        private var records = 0
        private var reports: [VerificationReport?]
        private var error: (any Error)?

        init(lanes: Int) { reports = Array(repeating: nil, count: lanes) }

        /// The index of the next group nobody has taken; nil when none is left or a lane failed.
        func nextGroup(of count: Int) -> Int? {
            lock.withLock {
                guard error == nil, taken < count else { return nil }
                taken += 1
                return taken - 1
            }
        }

        /// Adds records verified by a lane; the total so far.
        func addRecords(_ count: Int) -> Int { lock.withLock { records += count; return records } }

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
