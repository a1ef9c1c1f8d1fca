import CheckrunStore
import Foundation

/// Reports and comparisons check the records they cite before writing anything: a report made
/// from a tampered database must not look like an honest one.
enum CitedEvidence {
    static let option = OptionDefinition(.unverified, .flag, help: "Write even when the records it rests on fail verification; every format then says so at its top.")

    /// Starts verifying the sessions on connections of their own while the command goes on
    /// building its output; `check` waits for it. A report or comparison compares what it
    /// reads of each result (`.cited`); a command that hands out the evidence itself, everything.
    static func start(_ sessions: [UUID], release: String?, depth: VerificationDepth = .cited,
                      in store: ResultStore) -> BackgroundWork<Result<VerificationReport, StoreError>> {
        let verifier = store.verifier()
        return BackgroundWork {
            do { return .success(try verifier.verify(sessions: sessions, release: release, depth: depth)) } catch let error as StoreError { return .failure(error) } catch {
                return .failure(StoreError("cannot verify: \(error)"))
            }
        }
    }

    /// The verification's outcome, with what the command found comparing the results it shows
    /// with their records (`shown`; the same problem found by both is named once); with
    /// problems, names them and fails, unless `--unverified` was given, in which case the
    /// problems are returned for the output to state.
    static func check(_ work: BackgroundWork<Result<VerificationReport, StoreError>>, _ context: CommandContext,
                      shown: [VerificationProblem] = []) throws -> [String]? {
        var report: VerificationReport
        do { report = try work.value.get() } catch { throw CommandFailure(error.message) }
        try context.requireReadingUnchanged()
        for problem in shown where !report.problems.contains(problem) { report.problems.append(problem) }
        report.problems.sort(by: VerificationProblem.listed)
        guard !report.isClean else { return nil }
        let problems = report.fileProblems + report.problems.map(\.description)
        for problem in problems.prefix(20) { context.printError(problem) }
        if problems.count > 20 { context.printError("… and \(problems.count - 20) more; run \(context.commandHere("verify")) for all of them.") }
        try writeAnywayOnlyIfUnverified(context, refusal: "the records this rests on fail verification (\(problems.count) problem\(problems.count == 1 ? "" : "s") above), so nothing was written. Run `\(context.commandHere("verify"))` for the whole database, or pass --unverified to write it anyway, marked as unverified")
        return problems
    }

    /// Output that must not look like an honest one is refused with `refusal`, unless
    /// --unverified: then it is written, marked UNVERIFIED at its top, and the user is told so.
    static func writeAnywayOnlyIfUnverified(_ context: CommandContext, refusal: String) throws {
        guard context.arguments.flag(.unverified) else { throw CommandFailure(refusal) }
        context.warn("writing it anyway (--unverified); it says UNVERIFIED at its top")
    }
}
