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
        --build. A check in the protocol folder with no result is "not run". The WCAG table holds
        every level A and AA criterion and the AAA ones a protocol maps, with a conformance term
        (Supports, Partially Supports, Does Not Support); an A or AA criterion without evidence is
        shown as a gap in coverage. Formats: markdown (default), html, json (Schemas/report.schema.json),
        csv, junit, openacr (YAML).
        """,
        options: [
            OptionDefinition(.release, .value("R"), help: "The release to report on.", required: true),
            OptionDefinition(.build, .value("B"), help: "Only this build's results."),
            OptionDefinition(.format, .value("FORMAT"), help: "markdown, html, json, csv, junit or openacr.", completion: .values(ReportFormat.allCases.map(\.rawValue))),
            OptionDefinition(.out, .value("FILE"), help: "Write to FILE (atomically) instead of standard output.", completion: .file),
            OptionDefinition(.product, .value("NAME"), help: "The product's name, shown in every format (OpenACR's product name)."),
            OptionDefinition(.failOnFailure, .flag, help: "Exit 3 when any check failed, for release gates in CI."),
            CitedEvidence.option,
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun report --release 2.4", "The Markdown report of release 2.4 on standard output."),
            Example("checkrun report --release 2.4 --format html --out report.html", "A self-contained HTML page."),
            Example("checkrun report --release 2.4 --format openacr --product \"Acme Pay\" --out acme-2.4.yaml", "An OpenACR report naming the product."),
            Example("checkrun report --release 2.4 --format junit --out results.xml --fail-on-failure", "JUnit XML for CI, failing the job when a check failed."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        try OutputFile.check(context.arguments.value(.out))
        guard let release = context.arguments.value(.release) else {
            throw UsageError("missing --release R: which release to report on (`checkrun sessions` lists them)", command: "report")
        }
        let format = try ResultOptions.format(context.arguments.value(.format), default: ReportFormat.markdown, command: "report")
        // The protocol files are read and checked on another core while SQLite gathers results.
        let library = context.loadProtocolsInBackground()
        let store = try context.openStore(.existingOnly)
        // The sessions the report rests on are verified on the other cores while it is built.
        let verification = CitedEvidence.start(try store.sessionIDs(release: release, build: context.arguments.value(.build)), release: release, in: store)
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
        report.product = context.arguments.value(.product)
        report.unverifiedProblems = try CitedEvidence.check(verification, context)
        try OutputFile.write(format.render(report), to: context.arguments.value(.out), context)
        if context.arguments.flag(.failOnFailure) && report.hasFailures {
            context.printError("A check failed in release \(release); exiting with status 3 (--fail-on-failure).")
            return 3
        }
        return 0
    }
}
