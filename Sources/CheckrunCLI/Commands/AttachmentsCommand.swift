import CheckrunModel
import CheckrunStore
import Foundation

/// `checkrun attachments`: the evidence of a release, listed or written out as files.
struct AttachmentsCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "attachments",
        abstract: "List a release's attachments, or write them out as files.",
        discussion: """
        Lists each attachment the release's results hold now (withdrawn ones are left out): its check,
        build, device and attempt, name, type, size, description and hash. With --out DIR, writes each
        file into DIR, a folder per check, under a name that says whose evidence it is; the bytes are
        checked against their hash as they are written. As reports do, it first checks the release's
        records and refuses when they fail verification (unless --unverified).
        """,
        options: [
            OptionDefinition(.release, .value("R"), help: "The release.", required: true),
            OptionDefinition(.check, .value("PROTOCOL/CHECK"), help: "Only this check's attachments."),
            OptionDefinition(.out, .value("DIR"), help: "The folder to write the files into (created if missing).", completion: .directory),
            CitedEvidence.option,
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun attachments --release 2.4", "List release 2.4's evidence."),
            Example("checkrun attachments --release 2.4 --check tiny-target/touch-one-hand --out evidence", "Write one check's files into ./evidence."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        guard let release = context.arguments.value(.release) else {
            throw UsageError("missing --release R", command: "attachments")
        }
        if context.arguments.value(.out)?.isEmpty == true {
            throw UsageError("--out needs a folder, e.g. --out evidence", command: "attachments")
        }
        let store = try context.openStore(.readOnly)
        do { try store.requireRelease(release) } catch { throw CommandFailure(error.message) }
        // What is listed or written comes from the results tables: they are checked against
        // the records first, as a report's are.
        let verification = CitedEvidence.start(try store.sessionIDs(release: release, through: nil), release: release, depth: .everything, in: store)
        if let problems = try CitedEvidence.check(verification, context) {
            context.print("UNVERIFIED: \(problems.count) problem\(problems.count == 1 ? "" : "s"); run \(context.commandHere("verify")).")
        }
        let check = context.arguments.value(.check)
        if let check {
            // A misspelled check must not read as "no attachments".
            let known = try store.checkNames(release: release)
            guard known.contains(check) else {
                throw CommandFailure("release \(DisplayText.neutralised(release)) has no result of \(DisplayText.neutralised(check)).\(Suggestions.didYouMean(check, among: known)) `checkrun report --release \(DisplayText.neutralised(release))` lists its checks")
            }
        }
        let found = try store.attachments(release: release, check: check)
        guard let out = context.arguments.value(.out) else {
            list(found, release: release, check: check, context)
            return 0
        }
        let written = try AttachmentExport.write(found, into: out, from: store)
        context.print("Wrote \(written.count) attachment\(written.count == 1 ? "" : "s") of release \(DisplayText.neutralised(release)) into \(DisplayText.neutralised(out)).")
        for path in written { context.print("  \(DisplayText.neutralised(path))") }
        return 0
    }

    private static func list(_ found: [ReleaseAttachment], release: String, check: String?, _ context: CommandContext) {
        guard !found.isEmpty else {
            context.print("\(check.map { "\(DisplayText.neutralised($0)) in release " } ?? "Release ")\(DisplayText.neutralised(release)) has no attachments.")
            return
        }
        context.print("Release \(DisplayText.neutralised(release)): \(found.count) attachment\(found.count == 1 ? "" : "s").")
        for item in found {
            let attachment = item.attachment
            let place = attachment.outcome.map { ", expected outcome \($0)" } ?? ""
            context.print("- \(DisplayText.neutralised(item.check)), build \(DisplayText.neutralised(item.build)), \(DisplayText.neutralised(item.device.isEmpty ? "no device named" : item.device)), attempt \(item.attempt)\(place):")
            context.print("  \(DisplayText.neutralised(attachment.name)), \(attachment.mediaType), \(attachment.sizeText), hash \(attachment.hash)")
            context.print("  Description: \(attachment.description.isEmpty ? "none given" : DisplayText.neutralised(attachment.description))")
        }
    }
}
