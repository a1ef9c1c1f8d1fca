import CheckrunStore
import Foundation

/// `checkrun export`: sessions and their records as JSON, for another tester's `merge`.
struct ExportCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "export",
        abstract: "Write sessions and their records as JSON (Schemas/export.schema.json).",
        discussion: "The file holds every record of every session, with its chain hashes; `checkrun merge FILE.json` reads it back without loss.",
        options: [
            OptionDefinition(.release, .value("R"), help: "Only this release's sessions."),
            OptionDefinition(.out, .value("FILE"), help: "The file to write, written atomically.", completion: .file, required: true),
            StoreOptions.database,
        ],
        examples: [Example("checkrun export --release 2.4 --out ana-2.4.json", "Hand release 2.4's results to the lead.")])

    static func run(_ context: CommandContext) throws -> Int32 {
        guard let out = context.arguments.value(.out) else {
            throw UsageError("missing --out FILE: where to write the export, e.g. --out results.json", command: "export")
        }
        try OutputFile.check(out, example: "export.json", protocolFolder: context.protocolsDirectory)
        let store = try context.openStore(.readOnly)
        let release = context.arguments.value(.release)
        if let release {
            do { try store.requireRelease(release) } catch { throw CommandFailure(error.message) }
        }
        try requireVerified(store, release: release, context)
        var file = try AtomicFile(path: out)
        let counts: ExportCounts
        do {
            counts = try store.export(release: release) { try file.write($0) }
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
        let attachments = counts.attachments == 0 ? "" : " and \(counts.attachments) attachment\(counts.attachments == 1 ? "" : "s")"
        context.print("Exported \(counts.sessions) session\(counts.sessions == 1 ? "" : "s") with \(counts.records) record\(counts.records == 1 ? "" : "s")\(attachments) to \(out).")
        return 0
    }

    /// An export carries the records only: a database whose last record of a chain was deleted
    /// (a lead's amendment to fail, say) exported without a word, and merged clean into a store
    /// that then reported the pass. So what is exported is first verified, as `merge` verifies
    /// a database it reads, tables against records; a database that fails is not exported.
    private static func requireVerified(_ store: ResultStore, release: String?, _ context: CommandContext) throws {
        // On connections of its own, a group of sessions on each core, as `verify` does.
        let report = try store.verifier().verify(sessions: try store.sessionIDs(release: release), release: release)
        let problems = report.fileProblems + report.problems.map(\.description)
        guard let first = problems.first else { return }
        let more = problems.count > 1 ? ", and \(problems.count - 1) more" : ""
        throw CommandFailure("\(context.databaseName) fails verification (\(first)\(more)), so nothing was exported: an export carries the records only, and would pass on what changed without it. "
            + "See every problem with: \(context.commandHere("verify"))")
    }
}
