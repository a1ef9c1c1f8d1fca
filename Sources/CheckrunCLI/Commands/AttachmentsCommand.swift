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
        let store = try context.openStore(.existingOnly)
        do { try store.requireRelease(release) } catch { throw CommandFailure(error.message) }
        // What is listed or written comes from the results tables: they are checked against
        // the records first, as a report's are.
        let verification = CitedEvidence.start(try store.sessionIDs(release: release, build: nil), release: release, in: store)
        if let problems = try CitedEvidence.check(verification, context) {
            context.print("UNVERIFIED: \(problems.count) problem\(problems.count == 1 ? "" : "s"); run checkrun verify.")
        }
        let found = try store.attachments(release: release, check: context.arguments.value(.check))
        guard let out = context.arguments.value(.out) else {
            list(found, release: release, context)
            return 0
        }
        let written = try AttachmentExport.write(found, into: out, from: store)
        context.print("Wrote \(written.count) attachment\(written.count == 1 ? "" : "s") of release \(DisplayText.neutralised(release)) into \(DisplayText.neutralised(out)).")
        for path in written { context.print("  \(DisplayText.neutralised(path))") }
        return 0
    }

    private static func list(_ found: [ReleaseAttachment], release: String, _ context: CommandContext) {
        guard !found.isEmpty else {
            context.print("Release \(DisplayText.neutralised(release)) has no attachments.")
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

/// Writes attachments out as files, each through `AtomicFile`, checking every file's bytes
/// against its hash as they stream past; a file whose bytes do not match is not left behind.
enum AttachmentExport {
    /// - Returns: the paths written, relative to `folder`, in order.
    static func write(_ found: [ReleaseAttachment], into folder: String, from store: ResultStore) throws -> [String] {
        try makeFolder(folder)
        var used = Set<String>()
        var written: [String] = []
        for item in found {
            let relative = AttachmentFileName.unique(
                AttachmentFileName.relativePath(check: item.check, build: item.build, device: item.device, attempt: item.attempt, attachment: item.attachment),
                hash: item.attachment.hash, among: used)
            used.insert(relative)
            let path = (folder as NSString).appendingPathComponent(relative)
            try makeFolder((path as NSString).deletingLastPathComponent)
            var file = try AtomicFile(path: path)
            var hasher = SHA256.Hasher()
            do {
                let present = try store.readAttachment(hash: item.attachment.hash) { bytes in
                    hasher.update(bytes)
                    try file.write(bytes)
                }
                guard present, hasher.finalHex() == item.attachment.hash else {
                    throw CommandFailure("the stored bytes of \(DisplayText.neutralised(item.attachment.name)) (\(item.check)) are \(present ? "not those recorded" : "missing"); run checkrun verify. Files written before it are kept")
                }
                try file.commit()
            } catch {
                file.discard()
                throw error
            }
            written.append(relative)
        }
        return written
    }

    static func makeFolder(_ path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw CommandFailure("\(DisplayText.neutralised(path)) is not a folder; name a folder to write the attachments into", exitCode: 2) }
            return
        }
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw CommandFailure("cannot create the folder \(DisplayText.neutralised(path)): \(error.localizedDescription)")
        }
    }
}
