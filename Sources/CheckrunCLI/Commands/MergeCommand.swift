import CheckrunStore
import Foundation

/// `checkrun merge`: other testers' databases or exports into this one, in one transaction.
struct MergeCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "merge",
        abstract: "Bring other checkrun databases or export files into this database.",
        discussion: """
        Every session and attempt is kept; a session already here gains only the records it lacks, so
        merging the same file twice adds nothing. Each source's chains are checked first. A session
        with the same id but other content is a conflict: it is reported and nothing is written.
        All sources land in one transaction, or none do.
        """,
        arguments: [ArgumentDefinition("FILE", help: "checkrun databases (.sqlite) or exports (.json).", repeating: true, completion: .file)],
        options: [StoreOptions.database],
        examples: [
            Example("checkrun merge ana.sqlite ben.sqlite --db team.sqlite", "Combine two testers' databases."),
            Example("checkrun merge ana-2.4.json", "Read an export back into ./checkrun.sqlite."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let store = try context.openStore()
        let target = URL(fileURLWithPath: context.databasePath).standardizedFileURL.path
        var sources: [any SessionSource] = []
        var scratch: [String] = []
        defer { for path in scratch { removeDatabase(path) } }
        for path in context.arguments.positionals {
            if URL(fileURLWithPath: path).standardizedFileURL.path == target {
                throw CommandFailure("\(path) is the database being merged into; name another file")
            }
            if isSQLite(path) {
                let copy = FileManager.default.temporaryDirectory.appendingPathComponent("checkrun-merge-\(UUID().uuidString).sqlite").path
                scratch.append(copy)
                do {
                    sources.append(DatabaseSource(store: try ResultStore.openForReading(path: path, scratch: copy), name: path))
                } catch {
                    throw CommandFailure(error.description)
                }
            } else if FileManager.default.fileExists(atPath: path) {
                sources.append(ExportFileSource(path: path))
            } else {
                throw CommandFailure("\(path): no such file; check the path")
            }
        }
        var total = MergeSummary()
        var lines: [String] = []
        var lastProgress = Date()
        do {
            try store.batch {
                for source in sources {
                    let expected = source.recordCount
                    let summary = try store.merge(from: source) { done in
                        guard Date().timeIntervalSince(lastProgress) > 1 else { return }
                        lastProgress = Date()
                        context.printError("Merging \(source.name): \(done)\(expected.map { " of \($0)" } ?? "") records…")
                    }
                    lines.append("From \(source.name): \(describe(summary)).")
                    total.sessionsAdded += summary.sessionsAdded
                    total.sessionsExtended += summary.sessionsExtended
                    total.sessionsUnchanged += summary.sessionsUnchanged
                    total.recordsAdded += summary.recordsAdded
                    total.resultsAdded += summary.resultsAdded
                }
            }
        } catch let conflict as MergeConflict {
            throw CommandFailure("\(conflict.description). \(context.databasePath) is unchanged.")
        } catch let error as ExportFileError {
            throw CommandFailure("\(error.description). \(context.databasePath) is unchanged.")
        } catch let error as StoreError {
            throw CommandFailure("\(error.message). \(context.databasePath) is unchanged.")
        }
        // Said only once the transaction has committed.
        for line in lines { context.print(line) }
        if sources.count > 1 { context.print("In all: \(describe(total)).") }
        return 0
    }

    private static func describe(_ summary: MergeSummary) -> String {
        if summary.recordsAdded == 0 { return "nothing new (\(summary.sessionsUnchanged) session\(summary.sessionsUnchanged == 1 ? "" : "s") already here)" }
        var parts = ["added \(summary.sessionsAdded) session\(summary.sessionsAdded == 1 ? "" : "s")"]
        if summary.sessionsExtended > 0 { parts.append("continued \(summary.sessionsExtended)") }
        parts.append("\(summary.resultsAdded) result\(summary.resultsAdded == 1 ? "" : "s"), \(summary.recordsAdded) record\(summary.recordsAdded == 1 ? "" : "s")")
        if summary.sessionsUnchanged > 0 { parts.append("\(summary.sessionsUnchanged) session\(summary.sessionsUnchanged == 1 ? "" : "s") already here") }
        return parts.joined(separator: ", ")
    }

    /// SQLite files start with "SQLite format 3"; anything else is read as an export.
    private static func isSQLite(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return handle.readData(ofLength: 16) == Data("SQLite format 3\0".utf8)
    }

    private static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
