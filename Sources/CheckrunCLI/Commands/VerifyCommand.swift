import CheckrunModel
import CheckrunStore

/// `checkrun verify`: recompute every session's chain and name what changed behind checkrun's back.
struct VerifyCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "verify",
        abstract: "Check that no record was changed or deleted behind checkrun's back.",
        discussion: """
        Every answer is kept in an append-only record, each entry chained by SHA-256 to the one before
        it in its session, starting from the session's own details. verify recomputes every chain and
        compares the results tables with the records, and names every record changed or deleted and
        every result edited or removed. Exit status 1 when anything is wrong.
        """,
        options: [StoreOptions.database],
        examples: [Example("checkrun verify --db team.sqlite", "Check a database before signing its report.")])

    static func run(_ context: CommandContext) throws -> Int32 {
        let store = try context.openStore(.existingOnly)
        let report = try store.verify { count in context.printError("Verified \(count) records…") }
        for problem in report.fileProblems { context.print(problem) }
        for problem in report.problems { context.print(DisplayText.neutralised(problem.description)) }
        let counts = "\(report.records) record\(report.records == 1 ? "" : "s") in \(report.sessions) session\(report.sessions == 1 ? "" : "s")"
        if report.isClean {
            context.print("Verified: \(counts); every chain is intact and the file is sound.")
            return 0
        }
        let count = report.problems.count + report.fileProblems.count
        context.print("Verification failed: \(count) problem\(count == 1 ? "" : "s") in \(counts).")
        return 1
    }
}
