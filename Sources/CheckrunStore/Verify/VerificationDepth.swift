/// How much of each result the results tables hold a verification compares with its records.
/// Every record's hash and link is checked either way.
package enum VerificationDepth: Sendable {
    /// Every stored value of every result: `verify`, and the attachments a release exports.
    case everything
    /// What a report or comparison reads of every result it rests on: the result's own fields
    /// (verdict, attempt, times, which decide the latest attempt and the counts), its counters,
    /// its active time and its amendments; and the outcomes of skipped and blocked results,
    /// which say whether a failure stands behind the skip, and of unfinished ones, which say
    /// whether the report names a failed answer not finished yet. The other outcomes, stopwatch events
    /// and attachments, which a report shows of the latest results alone, are not read here:
    /// the report compares those results whole with their records, in the snapshot it reads
    /// them from (`ResultStore.latestResults`), and a comparison the few passes it asks about.
    /// Reading every result's parts was one index probe per result per table, most of a large
    /// report's time on a server.
    case cited
}
