import Foundation
import CheckrunModel
import CheckrunReports
import CheckrunStore

/// `checkrun report`: the per-release compliance report.
struct ReportCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "report",
        abstract: "Write the compliance report of a release: WCAG table, per profile, per protocol.",
        discussion: """
        For each check and device the latest result of the release counts, or of one build with
        --build; a device on two OS versions (--os) is two devices, so a pass on one never hides a
        failure on the other. A check in the protocol folder with no result is "not run". The WCAG table holds
        every level A and AA criterion and the AAA ones a protocol maps, with a conformance term
        (Supports, Partially Supports, Does Not Support); an A or AA criterion without evidence is
        shown as a gap in coverage. Formats: markdown (default), html, json (Schemas/report.schema.json),
        csv, junit, openacr (YAML).
        """,
        options: [
            OptionDefinition(.release, .value("R"), help: "The release to report on.", required: true),
            OptionDefinition(.build, .value("B"), help: "This build's results, and each failure of an earlier build where this one did not test (it stands until tested again)."),
            OptionDefinition(.format, .value("FORMAT"), help: "markdown, html, json, csv, junit or openacr.", completion: .values(ReportFormat.allCases.map(\.rawValue))),
            OptionDefinition(.out, .value("FILE"), help: "Write to FILE (atomically) instead of standard output.", completion: .file),
            OptionDefinition(.product, .value("NAME"), help: "The product's name, shown in every format (OpenACR's product name)."),
            OptionDefinition(.failOnFailure, .flag, help: "Exit 3 when any check failed, for release gates in CI."),
            OptionDefinition(.attachments, .value("DIR"), help: "Write the results' attachments into DIR and link them: pictures shown in HTML and Markdown, [[ATTACHMENT|path]] lines in JUnit.", completion: .directory),
            CitedEvidence.option,
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun report --release 2.4", "The Markdown report of release 2.4 on standard output."),
            Example("checkrun report --release 2.4 --format html --out report.html", "A self-contained HTML page."),
            Example("checkrun report --release 2.4 --format openacr --product \"Acme Pay\" --out acme-2.4.yaml", "An OpenACR report naming the product."),
            Example("checkrun report --release 2.4 --format junit --out results.xml --fail-on-failure", "JUnit XML for CI, failing the job when a check failed."),
            Example("checkrun report --release 2.4 --format html --out report.html --attachments evidence", "The page with its screenshots beside it, in ./evidence."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        try OutputFile.check(context.arguments.value(.out), example: "report.md", protocolFolder: context.protocolsDirectory)
        try checkAttachmentFolder(context.arguments.value(.attachments), out: context.arguments.value(.out))
        guard let release = context.arguments.value(.release) else {
            throw UsageError("missing --release R: which release to report on (`\(context.commandHere("sessions"))` lists them)", command: "report")
        }
        let format = try ResultOptions.format(context.arguments.value(.format), default: ReportFormat.markdown, command: "report")
        let product = try context.arguments.value(.product).map(checkedProduct)
        // The protocol files are read and checked on another core while SQLite gathers results.
        let library = context.loadProtocolsInBackground()
        let store = try context.openStore(.readOnly)
        // The sessions the report rests on are verified on the other cores while it is built.
        let verification = CitedEvidence.start(try store.sessionIDs(release: release, through: context.arguments.value(.build)), release: release, in: store)
        var report: ReleaseReport
        do {
            report = try ReleaseReport.make(
                store: store, loadingLibrary: {
                    context.usesStoredProtocols ? try context.loadProtocols(orStoredIn: store) : try context.checked(library.value)
                }, release: release,
                build: context.arguments.value(.build), history: format.history)
        } catch let error as ReleaseReport.ScopeError {
            throw CommandFailure(error.description)
        }
        report.product = product
        report.unverifiedProblems = try CitedEvidence.check(verification, context, shown: report.shownResultProblems)
        try refuseUnknownCriteria(&report, store, context)
        if let folder = context.arguments.value(.attachments) {
            report.attachmentPaths = try writeAttachments(of: report, into: folder, from: store, besides: context.arguments.value(.out))
        }
        try OutputFile.write(format.render(report), to: context.arguments.value(.out), context)
        guard StandardOutput.isWholeSoFar() else { return 1 }
        if context.arguments.flag(.failOnFailure) && report.hasFailures {
            context.printError("A check failed in release \(release); exiting with status 3 (--fail-on-failure).")
            return 3
        }
        if context.arguments.flag(.failOnFailure) && !report.isVerified {
            // The tables may say pass where the records say fail: no gate passes on them.
            context.printError("The report is UNVERIFIED, so it cannot show that no check failed; exiting with status 3 (--fail-on-failure).")
            return 3
        }
        return 0
    }

    /// Refuses, before anything is written, a folder for the attachments that is the report's
    /// own file or an existing file.
    private static func checkAttachmentFolder(_ folder: String?, out: String?) throws {
        guard let folder else { return }
        guard !folder.isEmpty else { throw UsageError("--attachments needs a folder, e.g. --attachments evidence", command: "report") }
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        if let out, URL(fileURLWithPath: out, relativeTo: current).standardizedFileURL.path == URL(fileURLWithPath: folder, relativeTo: current).standardizedFileURL.path {
            throw UsageError("--attachments and --out name the same place; give the attachments a folder of their own, e.g. --attachments evidence", command: "report")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            throw CommandFailure("\(DisplayText.neutralised(folder)) is not a folder; name a folder for the attachments", exitCode: 2)
        }
    }

    /// `--product`: the name heads every format and stands in OpenACR's title, pasted into a
    /// VPAT, so it is one line of plain text, as a label is.
    private static func checkedProduct(_ name: String) throws -> String {
        if name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw UsageError("--product is empty; name the product (e.g. --product \"Acme Pay\"), or leave the option out", command: "report")
        }
        if !DisplayText.isOneLinePlain(name) {
            throw UsageError("--product holds a line break, a control character or a direction control (\(DisplayText.preview(name, limit: 80))); a product name is one line of plain text", command: "report")
        }
        if name.unicodeScalars.count > SessionLabel.limit {
            throw UsageError("--product is \(name.unicodeScalars.count) characters; a product name holds at most \(SessionLabel.limit)", command: "report")
        }
        return name
    }

    /// A failure whose criteria are unknown (see `failuresWithUnknownCriteria`) would leave the
    /// WCAG terms reading better than the results: named, and nothing written, unless
    /// --unverified, which writes the report marked as such at its top.
    private static func refuseUnknownCriteria(_ report: inout ReleaseReport, _ store: ResultStore, _ context: CommandContext) throws {
        let problems = try report.failuresWithUnknownCriteria(store)
        guard !problems.isEmpty else { return }
        for problem in problems { context.printError(problem) }
        try CitedEvidence.writeAnywayOnlyIfUnverified(context, refusal: "the WCAG terms would not count \(problems.count == 1 ? "this failure" : "these \(problems.count) failures") (above), so nothing was written. Name a protocol folder that holds \(problems.count == 1 ? "the check" : "them") as answered with --protocols DIR, or pass --unverified to write it anyway, marked as unverified")
        report.unknownCriteria = problems
    }

    /// Writes every attachment of the results the report shows into `folder`; returns each
    /// one's link from the report (relative to the report's own folder when it is inside it).
    private static func writeAttachments(of report: ReleaseReport, into folder: String, from store: ResultStore, besides out: String?) throws -> [String: String] {
        let shown = report.checks.flatMap(\.results) + report.removed
        var keys: [String] = []
        var items: [ReleaseAttachment] = []
        for reported in shown {
            for (position, attachment) in reported.result.attachments.enumerated() {
                keys.append(AttachedEvidence.key(reported, position))
                items.append(ReleaseAttachment(check: reported.result.check, build: reported.build, device: reported.device,
                                               attempt: reported.result.attempt, attachment: attachment))
            }
        }
        let written = try AttachmentExport.write(items, into: folder, from: store)
        let base = linkBase(folder, from: out)
        return Dictionary(zip(keys, written.map { base + $0 }), uniquingKeysWith: { first, _ in first })
    }

    /// How the report reaches `folder`: relative to the report's folder when the folder is
    /// inside it, else the folder as given.
    private static func linkBase(_ folder: String, from out: String?) -> String {
        let current = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String {
            URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: current, isDirectory: true)).standardizedFileURL.path
        }
        let target = absolute(folder)
        let home = absolute(out.map(FilePaths.folder(of:)) ?? ".")
        if target.hasPrefix(home + "/") { return String(target.dropFirst(home.count + 1)) + "/" }
        return target == home ? "" : target + "/"
    }
}
