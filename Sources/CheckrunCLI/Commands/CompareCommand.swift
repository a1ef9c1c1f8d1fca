import CheckrunTerminal
import CheckrunModel
import CheckrunReports
import CheckrunStore

/// `checkrun compare`: timings, counts and verdicts across builds, with regressions flagged.
struct CompareCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "compare",
        abstract: "Compare timings, counts and verdicts across builds, and flag regressions.",
        discussion: """
        Per check, device and build: the median active time and counter values (medians across
        attempts and testers on that device) and the verdict of the device's latest result in that
        build (on two OS versions in one build, a failure on either); per step from one build to the next: the change in time and percent, the verdict change
        (fixed, unblocked, regressed, new, no longer run), and a flag on each regression: a worse
        verdict, a counter that moved the wrong way for its check, a time that grew by more than the
        threshold. A check that got better is never flagged. Where the check's own text changed between
        two builds, that is shown instead of a verdict on its time and counts (a change to another
        check of its protocol does not count). The text format says times in words.
        """,
        options: [
            OptionDefinition(.release, .value("R"), help: "The release whose builds to compare (default: the newest by its label, as builds are ordered)."),
            OptionDefinition(.builds, .value("B1,B2,…"), help: "The builds to compare, in order (default: all of the release's)."),
            OptionDefinition(.from, .value("R:B"), help: "Compare this release and build…"),
            OptionDefinition(.to, .value("R:B"), help: "…with this one, across releases."),
            OptionDefinition(.threshold, .value("PCT"), help: "Flag a median time that grew by more than PCT percent (default 20)."),
            OptionDefinition(.format, .value("FORMAT"), help: "text, markdown, json or csv.", completion: .values(ComparisonFormat.allCases.map(\.rawValue))),
            OptionDefinition(.out, .value("FILE"), help: "Write to FILE (atomically) instead of standard output.", completion: .file),
            OptionDefinition(.failOnRegression, .flag, help: "Exit 3 when anything is flagged."),
            CitedEvidence.option,
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun compare --release 2.4", "Every build of release 2.4, oldest first."),
            Example("checkrun compare --from 2.3:298 --to 2.4:311 --format markdown", "Two builds of two releases, as a Markdown table."),
            Example("checkrun compare --release 2.4 --builds 310,311 --threshold 10 --fail-on-regression", "A CI gate on the last two builds."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        try OutputFile.check(context.arguments.value(.out), example: "compare.md", protocolFolder: context.protocolsDirectory)
        let arguments = context.arguments
        let format = try ResultOptions.format(arguments.value(.format), default: ComparisonFormat.text, command: "compare")
        var threshold = 20.0
        if let text = arguments.value(.threshold) {
            guard let value = Double(text.replacingOccurrences(of: "%", with: "")), value >= 0, value.isFinite else {
                throw UsageError("--threshold '\(text)' is not a percentage; write e.g. --threshold 20", command: "compare")
            }
            threshold = value
        }
        let store = try context.openStore(.readOnly)
        let scopes = try resolveScopes(arguments, store, warn: context.warn)
        let library = try context.loadProtocols(orStoredIn: store)
        let verification = CitedEvidence.start(try store.sessionIDs(through: scopes), release: Set(scopes.map(\.release)).count == 1 ? scopes.first?.release : nil, in: store)
        let judge = CountFailureJudge(store: store, releases: Set(scopes.map(\.release)), protocols: { library })
        var comparison = try Comparison.make(store: store, scopes: scopes, threshold: threshold, known: Set(library.allChecks.map(\.name)), judge: judge)
        comparison.judge(by: library)
        comparison.unverifiedProblems = try CitedEvidence.check(verification, context, shown: comparison.shownResultProblems)
        let rendered = format.render(comparison)
        // In accessible mode the text format says "310 to 311", not an arrow speech reads as "right arrow".
        try OutputFile.write(context.accessible && format == .text ? SpokenWords.replacingSymbols(rendered) : rendered, to: arguments.value(.out), context)
        guard StandardOutput.isWholeSoFar() else { return 1 }
        if arguments.flag(.failOnRegression) && !comparison.regressions.isEmpty {
            context.printError("\(comparison.regressions.count) regression\(comparison.regressions.count == 1 ? "" : "s") flagged; exiting with status 3 (--fail-on-regression).")
            return 3
        }
        if arguments.flag(.failOnRegression) && comparison.unverifiedProblems != nil {
            context.printError("The comparison is UNVERIFIED, so it cannot show that nothing regressed; exiting with status 3 (--fail-on-regression).")
            return 3
        }
        return 0
    }

    private static func resolveScopes(_ arguments: ParsedArguments, _ store: ResultStore, warn: (String) -> Void) throws -> [ResultStore.BuildScope] {
        func check(release: String) throws {
            do { try store.requireRelease(release) } catch { throw CommandFailure(error.message) }
        }
        func check(build: String, of release: String) throws {
            do { try store.requireBuild(build, of: release) } catch { throw CommandFailure(error.message) }
        }
        if arguments.value(.from) != nil || arguments.value(.to) != nil {
            guard let from = arguments.value(.from), let to = arguments.value(.to) else {
                throw UsageError("--from and --to go together: --from 2.3:298 --to 2.4:311", command: "compare")
            }
            // Either selector alone names the builds; together, one of them would be ignored.
            if arguments.value(.builds) != nil || arguments.value(.release) != nil {
                throw UsageError("--from and --to name the two builds themselves; leave out --\(arguments.value(.builds) != nil ? "builds" : "release"), or compare with --release R --builds B1,B2", command: "compare")
            }
            if from == to { throw UsageError("--from and --to both name \(DisplayText.neutralised(from)); a comparison needs two builds", command: "compare") }
            let releases = Set(try store.releases())
            let scopes = try [from, to].map { text in
                let readings = try BuildSelector.readings(ofScope: text, releases: releases, builds: store.builds(release:))
                if readings.count > 1 {
                    let named = readings.map { "release \"\(DisplayText.neutralised($0.release))\" build \"\(DisplayText.neutralised($0.build))\"" }
                    throw UsageError("'\(DisplayText.neutralised(text))' could mean \(named.joined(separator: " or ")), since a label holds a colon; within one release, name it with --release and the builds with --builds", command: "compare")
                }
                if let reading = readings.first { return ResultStore.BuildScope(release: reading.release, build: reading.build) }
                let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw UsageError("'\(text)' should be RELEASE:BUILD, e.g. 2.4:311", command: "compare")
                }
                try check(release: parts[0])
                try check(build: parts[1], of: parts[0])
                return ResultStore.BuildScope(release: parts[0], build: parts[1])
            }
            try warnIfBackwards(scopes, store, warn: warn)
            return scopes
        }
        guard let release = try arguments.value(.release) ?? store.releases().last else {
            throw CommandFailure("the database has no results yet; walk some checks with `checkrun run`")
        }
        try check(release: release)
        var builds = try store.builds(release: release)
        if let list = arguments.value(.builds) {
            let chosen = try chosenBuilds(list, of: release, known: builds, check: { try check(build: $0, of: release) })
            // Kept as given (a comparison may go back on purpose), but said: read the other way,
            // a regression is called fixed, and --fail-on-regression lets it through.
            let inBuildOrder = builds.filter { chosen.contains($0) }
            if chosen != inBuildOrder {
                warn("--builds \(chosen.joined(separator: ",")) is not in build order (\(inBuildOrder.joined(separator: ", "))); each change is read from the build before to the one after as given, so a fix may read as a regression and a regression as fixed")
            }
            builds = chosen
        }
        guard builds.count >= 2 else {
            if arguments.value(.builds) != nil {
                throw UsageError("--builds names \(builds.count) build\(builds.count == 1 ? "" : "s") (\(builds.map(DisplayText.neutralised).joined(separator: ", "))); a comparison needs two, e.g. --builds 310,311", command: "compare")
            }
            throw CommandFailure("release \(release) has \(builds.count) build\(builds.count == 1 ? "" : "s") (\(builds.joined(separator: ", "))); a comparison needs two. Name builds of two releases with --from R:B --to R:B")
        }
        return builds.map { ResultStore.BuildScope(release: release, build: $0) }
    }

    /// Said when --to names an older build than --from (as `--builds` out of order is):
    /// read backwards, a regression is called fixed and passes the gate.
    private static func warnIfBackwards(_ scopes: [ResultStore.BuildScope], _ store: ResultStore, warn: (String) -> Void) throws {
        let (from, to) = (scopes[0], scopes[1])
        let order = from.release == to.release ? try store.builds(release: from.release) : try store.releases()
        let rank = BuildOrder.ranks(order)
        let (before, after) = from.release == to.release ? (from.build, to.build) : (from.release, to.release)
        guard let first = rank[before], let second = rank[after], second < first else { return }
        let named = { (scope: ResultStore.BuildScope) in "\(DisplayText.neutralised(scope.release)):\(DisplayText.neutralised(scope.build))" }
        warn("--from \(named(from)) is newer than --to \(named(to)); each change is read from --from to --to, so a fix may read as a regression and a regression as fixed")
    }

    /// The builds `--builds` names, read as labels the release has (see `BuildSelector`).
    private static func chosenBuilds(_ list: String, of release: String, known: [String], check: (String) throws -> Void) throws -> [String] {
        let readings = BuildSelector.readings(ofList: list, known: Set(known))
        if readings.count > 1 {
            let named = readings.map { $0.map { "\"\(DisplayText.neutralised($0))\"" }.joined(separator: ", ") }
            throw UsageError("--builds \(DisplayText.neutralised(list)) could mean builds \(named.joined(separator: " or builds ")), since a build's label holds a comma; compare two builds with --from \(DisplayText.neutralised(release)):BUILD --to \(DisplayText.neutralised(release)):BUILD", command: "compare")
        }
        if let reading = readings.first {
            if let twice = reading.first(where: { name in reading.filter { $0 == name }.count > 1 }) {
                throw UsageError("--builds names build \(DisplayText.neutralised(twice)) twice; a comparison is of different builds", command: "compare")
            }
            return reading
        }
        // No reading names known builds: the first unknown or empty name is said.
        let pieces = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for piece in pieces {
            guard !piece.isEmpty else { throw UsageError("--builds \(DisplayText.neutralised(list)) has an empty name between commas; list builds as 310,311", command: "compare") }
            try check(piece)
        }
        return pieces
    }
}
