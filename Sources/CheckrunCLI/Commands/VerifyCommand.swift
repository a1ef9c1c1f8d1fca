import CheckrunModel
import CheckrunStore
import Foundation

/// `checkrun verify`: recompute every session's chain and name what changed behind checkrun's back.
struct VerifyCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "verify",
        abstract: "Check that no record was changed or deleted behind checkrun's back.",
        discussion: """
        verify asks SQLite whether the file is sound, recomputes every session's chain of SHA-256
        hashes (from the session's own details through each record) and compares every stored value
        of the results tables with the records. With --against REPORT.json it also checks the chain
        heads a kept JSON report pinned: a session deleted whole, the tail of a chain cut off, or
        records rewritten with recomputed hashes. Exit status 1 when anything is wrong.
        """,
        options: [
            OptionDefinition(.against, .value("REPORT.json"), help: "A JSON report kept earlier (checkrun report --format json): check the chains it pinned.", completion: .file),
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun verify --db team.sqlite", "Check a database before signing its report."),
            Example("checkrun verify --against report-2.4.json --db team.sqlite", "Check that nothing the kept report rests on was deleted or rewritten."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let pins = try context.arguments.value(.against).map(readPins)
        let store = try context.openStore(.readOnly)
        let clock = ProgressClock()
        var report = try store.verify { count in
            if clock.due(count) { context.printError("Verified about \(count) records…") }
        }
        let checked = try pins.map { try store.problems(against: $0.chains) }
        report.problems += checked?.problems ?? []
        try context.requireReadingUnchanged()
        for problem in report.fileProblems { context.print(problem) }
        for problem in report.problems { context.print(problem.description) }
        var counts = "\(report.records) record\(report.records == 1 ? "" : "s") in \(report.sessions) session\(report.sessions == 1 ? "" : "s")"
        if report.attachments > 0 {
            counts += " and \(report.attachments) attachment\(report.attachments == 1 ? "" : "s") (\(Attachment.sizeText(report.attachmentBytes)), rehashed)"
        }
        let against = pins.map { "; \($0.chains.count) session\($0.chains.count == 1 ? "" : "s") pinned by \($0.path) \($0.chains.count == 1 ? "is" : "are") whole" } ?? ""
        if report.isClean {
            // A server keeps its own files sound; what verify checked there is the tables.
            let sound = store.engine == .sqlite ? "the file is sound" : "the tables agree with the records"
            context.print("Verified: \(counts); every chain is intact and \(sound)\(against).")
            if let pins, let grown = checked?.grown, !grown.isEmpty { sayGrown(grown, since: pins.path, context) }
            return 0
        }
        let count = report.problems.count + report.fileProblems.count
        context.print("Verification failed: \(count) problem\(count == 1 ? "" : "s") in \(counts).")
        return 1
    }

    /// Records added to pinned sessions since the kept report: not a problem, but a report made
    /// now would rest on them too, and an amendment among them can change a verdict it states.
    private static func sayGrown(_ grown: [ResultStore.PinnedGrowth], since path: String, _ context: CommandContext) {
        let added = grown.reduce(0) { $0 + $1.now - $1.pinned }
        context.print("Since \(path) was written, \(added) record\(added == 1 ? " was" : "s were") added to \(grown.count) session\(grown.count == 1 ? "" : "s") it pins; a report made now rests on \(added == 1 ? "it" : "them") too:")
        for growth in grown.prefix(20) { context.print("  " + growth.description) }
        if grown.count > 20 { context.print("  … and \(grown.count - 20) more sessions") }
    }

    /// The evidence section of a JSON report.
    private static func readPins(_ path: String) throws -> (path: String, chains: [ResultStore.ChainDigest]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("\(path): cannot read the report; check the path")
        }
        let root: JSONNode
        do { root = try JSONParser.parse(bytes: [UInt8](data)) } catch {
            throw CommandFailure("\(path):\(error.location.line):\(error.location.column): not a JSON report: \(error.message)")
        }
        guard let sessions = root["evidence"]?["sessions"]?.arrayValue else {
            throw CommandFailure("\(path): no evidence section; give a report written with `checkrun report --format json`")
        }
        var chains: [ResultStore.ChainDigest] = []
        for (index, item) in sessions.enumerated() {
            guard let id = item["session"]?.stringValue.flatMap(UUID.init(uuidString:)), let records = item["records"]?.intValue,
                  let head = item["head"]?.stringValue else {
                throw CommandFailure("\(path): /evidence/sessions/\(index) is not a pinned session (session, records, head)")
            }
            chains.append(ResultStore.ChainDigest(session: id, records: records, head: head))
        }
        return (path, chains)
    }
}

/// Progress at most once a second, from whichever thread reports it, and only when it moved:
/// a store of sessions not answered yet said "about 0 records" again and again.
final class ProgressClock {
    private let lock = NSLock()
    private let now: @Sendable () -> Date
    private var last: Date
    private var said = 0

    init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        last = now()
    }

    func due(_ count: Int) -> Bool {
        lock.withLock {
            guard count > said, now().timeIntervalSince(last) >= 1 else { return false }
            last = now()
            said = count
            return true
        }
    }
}
