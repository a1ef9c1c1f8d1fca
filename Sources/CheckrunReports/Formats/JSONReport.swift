import CheckrunModel
import CheckrunStore

/// The report as JSON, described by `Schemas/report.schema.json`.
enum JSONReport {
    static func render(_ report: ReleaseReport) -> String {
        JSONWriter.forReading(JSONWriter.write(json(report)))
    }

    static func json(_ report: ReleaseReport) -> JSONValue {
        object([
            ("product", report.product.map(JSONValue.string) ?? .null),
            ("release", .string(report.release)),
            ("build", report.build.map(JSONValue.string) ?? .null),
            ("generatedAt", .string(ReportPhrases.timestamp(report.generatedAt))),
            ("builds", strings(report.builds)),
            ("devices", strings(report.devices)),
            ("testers", strings(report.testers)),
            ("firstResult", report.firstResult.map { .string(ReportPhrases.timestamp($0)) } ?? .null),
            ("lastResult", report.lastResult.map { .string(ReportPhrases.timestamp($0)) } ?? .null),
            ("summary", summary(report)),
            ("protocols", .array(report.protocols.map { entry in node(object([
                ("id", .string(entry.id)), ("title", .string(entry.title)), ("status", .string(entry.status)),
                ("contentHash", .string(entry.contentHash)), ("resultsWithOtherHash", .integer(entry.resultsWithOtherHash)),
                ("changedChecks", strings(entry.changedChecks)),
            ])) })),
            ("wcag", .array(report.criteria.map { node(criterion($0)) })),
            ("profiles", .array(report.profiles.map { row in node(object([
                ("profile", .string(row.profile)),
                ("passed", .integer(row.counts[.passed] ?? 0)), ("failed", .integer(row.counts[.failed] ?? 0)),
                ("blocked", .integer(row.counts[.blocked] ?? 0)), ("skipped", .integer(row.counts[.skipped] ?? 0)),
                ("notApplicable", .integer(row.counts[.notApplicable] ?? 0)), ("notRun", .integer(row.counts[.notRun] ?? 0)),
            ])) })),
            ("checks", .array(report.checks.map { node(check($0, report)) })),
            ("removed", .array(report.removed.map { node(result($0, $0.answeredCheck, report)) })),
            ("verification", object([
                ("verified", .bool(report.isVerified)),
                ("message", report.unverifiedBanner.map(JSONValue.string) ?? .null),
                ("problems", .array(((report.unverifiedProblems ?? []) + report.unknownCriteria).map { JSONNode(.string($0)) })),
            ])),
            ("evidence", object([
                ("digest", .string(report.evidenceDigest)),
                ("sessions", .array(report.chains.map { chain in node(object([
                    ("session", .string(chain.session.lowercasedText)),
                    ("records", .integer(chain.records)),
                    ("head", .string(chain.head)),
                ])) })),
            ])),
            ("changes", report.changes.map(comparison) ?? .null),
            ("unfinishedFailures", .array(report.unfinishedFailures.map { failure in node(object([
                ("check", .string(failure.check)), ("device", .string(failure.device)), ("osVersion", .string(failure.osVersion)), ("build", .string(failure.build)),
                ("session", .string(failure.session.lowercasedText)), ("attempt", .integer(failure.attempt)),
            ])) })),
        ])
    }

    /// The count of checks by status.
    private static func summary(_ report: ReleaseReport) -> JSONValue {
        let counts = report.summary
        return object([
            ("checks", .integer(report.checkCount)),
            ("passed", .integer(counts[.passed] ?? 0)),
            ("failed", .integer(counts[.failed] ?? 0)),
            ("blocked", .integer(counts[.blocked] ?? 0)),
            ("skipped", .integer(counts[.skipped] ?? 0)),
            ("notApplicable", .integer(counts[.notApplicable] ?? 0)),
            ("notRun", .integer(counts[.notRun] ?? 0)),
        ])
    }

    /// One WCAG row with its coverage.
    private static func criterion(_ row: ReleaseReport.CriterionRow) -> JSONValue {
        object([
            ("criterion", .string(row.criterion.number)), ("name", .string(row.criterion.name)),
            ("level", .string(row.criterion.level.rawValue)), ("conformance", .string(row.conformance.rawValue)),
            ("coverageGap", .bool(row.isCoverageGap)),
            ("coverage", object([
                ("mapped", .integer(row.coverage.mapped)), ("passed", .integer(row.coverage.passed)), ("failed", .integer(row.coverage.failed)),
                ("partlyPassed", .integer(row.coverage.partlyPassed)), ("blocked", .integer(row.coverage.blocked)), ("skipped", .integer(row.coverage.skipped)),
                ("notApplicable", .integer(row.coverage.notApplicable)), ("notRun", .integer(row.coverage.notRun)),
                ("provisional", .integer(row.coverage.provisional)), ("sentence", .string(row.coverage.sentence)),
            ])),
            ("checks", strings(row.checks)), ("remarks", .string(row.remarks)),
        ])
    }

    /// One check with its latest result per device.
    private static func check(_ entry: ReleaseReport.CheckEntry, _ report: ReleaseReport) -> JSONValue {
        object([
            ("check", .string(entry.reference.name)), ("protocol", .string(entry.reference.document.id)),
            ("profile", .string(entry.reference.check.profile)), ("task", .string(entry.reference.check.task)),
            ("wcag", strings(entry.reference.criteria)), ("status", .string(entry.status.rawValue)),
            ("results", .array(entry.results.map { node(result($0, $0.answeredCheck ?? entry.reference.check, report)) })),
        ])
    }

    static func result(_ reported: ReportedResult, _ check: Check?, _ report: ReleaseReport) -> JSONValue {
        let criteriaAsAnswered = JSONValue.array((report.criteriaAsAnswered[reported.result.id] ?? []).map { JSONNode(.string($0)) })
        let result = reported.result
        return object([
            ("check", .string(result.check)),
            ("device", .string(reported.device)), ("osVersion", .string(reported.osVersion)), ("build", .string(reported.build)),
            ("tester", .string(reported.tester)),
            ("verdict", .string(result.verdict?.rawValue ?? "pass")),
            ("countedAs", .string(CheckStatus.countedAs(reported))),
            ("failedEarlier", reported.failedEarlier.map { earlier in
                object([("build", .string(earlier.build)), ("attempt", .integer(earlier.attempt)), ("elsewhere", earlier.elsewhere.map(JSONValue.string) ?? .null),
                        ("notes", earlier.notes.map(JSONValue.string) ?? .null),
                        ("inThisResult", .bool(earlier.isThisResult))])
            } ?? .null),
            ("amendments", .integer(reported.amendments)),
            ("amendReason", reported.amendReason.map(JSONValue.string) ?? .null),
            ("blockedReason", result.blockedReason.map(JSONValue.string) ?? .null),
            ("attempt", .integer(result.attempt)), ("attempts", .integer(reported.attempts)),
            ("activeSeconds", result.activeSeconds.map(JSONValue.number) ?? .null),
            ("overTimeLimit", .bool(check.map(result.isOverTimeLimit) ?? false)),
            ("counters", object(result.counters.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.integer($0.value.value)) })),
            ("outcomes", .array(ReportPhrases.answers(result, check).enumerated().map { index, answer in node(object([
                ("text", .string(check?.expected.indices.contains(index) == true ? check?.expected[index].text ?? "" : "")),
                ("verdict", answer.map { .string($0.verdict.rawValue) } ?? .null),
                ("value", answer?.value.map(JSONValue.integer) ?? .null),
                ("note", answer?.note.map(JSONValue.string) ?? .null),
            ])) })),
            ("notes", result.notes.map(JSONValue.string) ?? .null),
            ("attachments", .array(result.attachments.indices.map { position in
                let attachment = result.attachments[position]
                return node(object([
                    ("name", .string(attachment.name)), ("mediaType", .string(attachment.mediaType)), ("size", .integer(attachment.size)),
                    ("description", .string(attachment.description)), ("outcome", attachment.outcome.map(JSONValue.integer) ?? .null),
                    ("sha256", .string(attachment.hash)), ("attachedAt", .string(ReportPhrases.timestamp(attachment.attachedAt))),
                    ("path", AttachedEvidence.path(report, reported, position).map(JSONValue.string) ?? .null),
                ]))
            })),
            ("protocolHash", .string(result.protocolHash)),
            ("answeredEarlierVersion", .bool(reported.answeredCheck != nil || reported.answeredUnkeptVersion)),
            ("criteriaAsAnswered", criteriaAsAnswered),
            ("updatedAt", .string(ReportPhrases.timestamp(result.updatedAt))),
        ])
    }

    static func comparison(_ comparison: Comparison) -> JSONValue {
        let labels = comparison.labels
        return object([
            ("builds", strings(labels)),
            ("threshold", .number(comparison.threshold)),
            ("checks", .array(comparison.checks.map { check in node(object([
                ("check", .string(check.check)),
                ("device", .string(check.device)),
                ("removed", .bool(check.removed)),
                ("builds", .array(check.builds.enumerated().map { index, figures in node(object([
                    ("build", .string(labels[index])),
                    ("results", .integer(figures?.results ?? 0)),
                    ("medianSeconds", figures?.medianSeconds.map(JSONValue.number) ?? .null),
                    ("medianCounters", object((figures?.medianCounters ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, JSONValue.number($0.value)) })),
                    ("verdict", figures.map { .string($0.verdict.rawValue) } ?? .null),
                    ("protocolHash", figures.map { .string($0.protocolHash) } ?? .null),
                ])) })),
                ("changes", .array(check.changes.map { change in node(object([
                    ("from", .string(labels[change.from])), ("to", .string(labels[change.to])),
                    ("verdictChange", .string(change.verdictChange.rawValue)),
                    ("secondsDelta", change.secondsDelta.map(JSONValue.number) ?? .null),
                    ("percentDelta", change.percentDelta.map(JSONValue.number) ?? .null),
                    ("counterDeltas", object(change.counterDeltas.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.number($0.value)) })),
                    ("protocolChanged", .bool(change.protocolChanged)),
                    ("regression", .bool(!change.flags.isEmpty)),
                    ("flags", strings(change.flags)),
                ])) })),
            ])) })),
        ])
    }

    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { JSONMember($0.0, JSONNode($0.1)) })
    }

    static func node(_ value: JSONValue) -> JSONNode { JSONNode(value) }

    static func strings(_ values: [String]) -> JSONValue {
        .array(values.map { JSONNode(.string($0)) })
    }
}
