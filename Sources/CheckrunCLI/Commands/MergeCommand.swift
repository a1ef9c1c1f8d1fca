import CheckrunStore
import Foundation

/// `checkrun merge`: other testers' databases or exports into this one, whole sessions at a time.
struct MergeCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "merge",
        abstract: "Bring other checkrun databases or export files into this database.",
        discussion: """
        Every session and attempt is kept; a session already here gains only the records it lacks, so
        merging the same file twice adds nothing. Each source's chains are checked first, and a
        database's tables against its records, as `verify` checks them (a record deleted from the end
        of a chain shows only there): a source that fails is refused whole. A session
        with the same id but other content is a conflict: it is reported and nothing is written.
        Every source is checked whole before anything is written, so a bad source changes nothing.
        Sessions are then written in batches of about half a second, so a walk saving beside a long
        merge waits no longer than that; a merge stopped part way keeps whole sessions only, and
        running it again completes it.
        """,
        arguments: [ArgumentDefinition("FILE", help: "checkrun databases (.sqlite), exports (.json), or a team store's postgresql:// address.", repeating: true, completion: .file)],
        options: [StoreOptions.database],
        examples: [
            Example("checkrun merge ana.sqlite ben.sqlite --db team.sqlite", "Combine two testers' databases."),
            Example("checkrun merge ana-2.4.json", "Read an export back into ./checkrun.sqlite."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let targetPath = context.databasePath
        var sources: [any SessionSource] = []
        var scratch: [String] = []
        defer { for path in scratch { removeDatabase(path) } }
        for path in context.arguments.positionals {
            let kind = try SourceKind.of(path)
            if isSameFile(path, targetPath) || (kind == .server && ServerAddress.shown(path) == context.databaseName) {
                throw CommandFailure("\(ServerAddress.shown(path)) is the database being merged into; name another")
            }
            switch kind {
            case .server:
                do {
                    let server = try ResultStore(path: path, access: .existingOnly)
                    sources.append(try DatabaseSource(store: server, name: ServerAddress.shown(path)))
                } catch {
                    throw CommandFailure("\(error)")
                }
            case .database:
                let copy = FileManager.default.temporaryDirectory.appendingPathComponent("checkrun-merge-\(UUID().uuidString).sqlite").path
                scratch.append(copy)
                do {
                    sources.append(try DatabaseSource(store: try ResultStore.openForReading(path: path, scratch: copy), name: path))
                } catch {
                    throw CommandFailure("\(error)")
                }
            case .export:
                sources.append(ExportFileSource(path: path))
            }
        }
        let created = !ServerAddress.isServer(targetPath) && !FileManager.default.fileExists(atPath: targetPath)
        let store = try context.openStore()
        // A merge is not interactive: behind another long merge it may wait minutes, not seconds.
        store.waitWhenBusy(seconds: 600)
        do {
            // A refused merge leaves the target as it was: a file this merge would have made is not made.
            // A server's database that held no store keeps the empty tables its opening set up.
            let untouched = created ? "\(context.databaseName) was not created"
                : store.setUpOnOpening ? "\(context.databaseName) holds no result, only the empty tables it was set up with" : "\(context.databaseName) is unchanged"
            return try merge(sources, into: store, context, untouched: untouched)
        } catch {
            // A target this merge created and nothing landed in is removed again.
            if created, (try? store.holdsNoSession()) == true {
                store.close()
                removeDatabase(targetPath)
            }
            throw error
        }
    }

    /// Whether two paths name one file (a symbolic or hard link included).
    private static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    private static func merge(_ sources: [any SessionSource], into store: ResultStore, _ context: CommandContext, untouched: String) throws -> Int32 {
        var lastProgress = Date()
        let summaries: [MergeSummary]
        do {
            summaries = try store.merge(from: sources) { progress in
                guard Date().timeIntervalSince(lastProgress) > 1 else { return }
                lastProgress = Date()
                context.printError("\(progress.writing ? "Merging" : "Checking") \(progress.source): \(progress.records) record\(progress.records == 1 ? "" : "s")…")
            }
        } catch let conflict as MergeConflict {
            throw CommandFailure("\(conflict.description). \(untouched).")
        } catch let error as ExportFileError {
            throw CommandFailure("\(error.description). Nothing was merged; \(untouched).")
        } catch let error as StoreError {
            throw CommandFailure("\(error.message). Sessions merged before this point are kept whole; run the same merge again to complete it.")
        }
        // Said only once every batch has committed.
        var total = MergeSummary()
        for (source, summary) in zip(sources, summaries) {
            context.print("From \(source.name): \(describe(summary)).")
            total.sessionsAdded += summary.sessionsAdded
            total.sessionsExtended += summary.sessionsExtended
            total.sessionsUnchanged += summary.sessionsUnchanged
            total.recordsAdded += summary.recordsAdded
            total.resultsAdded += summary.resultsAdded
            total.attachmentsAdded += summary.attachmentsAdded
        }
        if sources.count > 1 { context.print("In all: \(describe(total)).") }
        return 0
    }

    private static func describe(_ summary: MergeSummary) -> String {
        let attachments = summary.attachmentsAdded == 0 ? nil : "\(summary.attachmentsAdded) attachment\(summary.attachmentsAdded == 1 ? "" : "s")"
        if summary.recordsAdded == 0 && summary.sessionsAdded == 0 {
            return attachments.map { "added \($0) (no new records)" }
                ?? "nothing new (\(summary.sessionsUnchanged) session\(summary.sessionsUnchanged == 1 ? "" : "s") already here)"
        }
        var parts = ["added \(summary.sessionsAdded) session\(summary.sessionsAdded == 1 ? "" : "s")"]
        if summary.sessionsExtended > 0 { parts.append("continued \(summary.sessionsExtended)") }
        parts.append("\(summary.resultsAdded) result\(summary.resultsAdded == 1 ? "" : "s"), \(summary.recordsAdded) record\(summary.recordsAdded == 1 ? "" : "s")")
        if let attachments { parts.append(attachments) }
        if summary.sessionsUnchanged > 0 { parts.append("\(summary.sessionsUnchanged) session\(summary.sessionsUnchanged == 1 ? "" : "s") already here") }
        return parts.joined(separator: ", ")
    }

    /// What a merge source is: SQLite files start with "SQLite format 3"; anything else is read
    /// as an export. Folders and other non-files are refused here, with a message.
    enum SourceKind {
        case database, export, server

        static func of(_ path: String) throws -> SourceKind {
            if ServerAddress.isServer(path) { return .server }
            try ResultStore.refuseMisnamedServer(path)
            var info = stat()
            guard stat(path, &info) == 0 else { throw CommandFailure("\(path): no such file; check the path") }
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw CommandFailure("\(path) is a folder; name a checkrun database (.sqlite) or export (.json) to merge")
            default: throw CommandFailure("\(path) is not a regular file; name a checkrun database (.sqlite) or export (.json) to merge")
            }
            guard let isDatabase = ResultStore.isSQLiteFile(path) else { throw CommandFailure("\(path): cannot read the file; check its permissions") }
            return isDatabase ? .database : .export
        }
    }

    private static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
