import CheckrunModel
import CheckrunStore
import CheckrunTestSupport
import Foundation

/// The team store's figures (`--postgres URI`): each measured in a database of its own that
/// the benchmark creates on that server and drops again, beside a floor: psql running the
/// report's own query, pgbench sending the writers' statements.
enum ServerBench {
    @MainActor
    static func run(server: String, sizes: [Int], library: ProtocolLibrary, protocolFolder: URL) throws {
        // checkrun's connections ask for no JIT compiling; so do the floors' (psql, pgbench),
        // through libpq's PGOPTIONS, so neither side pays a compile the other does not.
        setenv("PGOPTIONS", ((ProcessInfo.processInfo.environment["PGOPTIONS"].map { $0 + " " }) ?? "") + "-c jit=off", 1)
        try answerCommits(server: server)
        try concurrentWriters(server: server)
        for size in sizes { try report(server: server, size: size, library: library, protocolFolder: protocolFolder) }
    }

    /// A database of its own on the server, handed to `body` by address, dropped afterwards.
    static func withDatabase<T>(_ server: String, keep: Bool = false, _ body: (String) throws -> T) throws -> T {
        guard var parts = URLComponents(string: server) else { fail("--postgres \(ServerAddressText.masked(server)) is not a connection URI") }
        let name = "checkrun_bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try ResultStore.createServerDatabase(name, administering: server)
        parts.path = "/" + name
        defer {
            if keep {
                FileHandle.standardError.write(Data("Kept the server database \(name)\n".utf8))
            } else {
                try? ResultStore.dropServerDatabase(name, administering: server)
            }
        }
        return try body(parts.string ?? server)
    }

    @MainActor
    static func answerCommits(server: String) throws {
        try withDatabase(server) { address in
            let store = try ResultStore(path: address)
            defer { store.close() }
            let times = try Measure.answerCommits(store)
            row("[server] answer committed durably, median of 500", String(format: "%.2f ms (95th percentile %.2f ms)", Measure.median(times), Measure.percentile(times, 0.95)))
        }
    }

    /// Twenty writers at once, beside pgbench sending the same statements (`WritersFloor`), in
    /// three turns each, in alternating order, so a slower stretch of the machine weighs on
    /// both: the medians and ranges.
    @MainActor
    static func concurrentWriters(server: String) throws {
        let pgbench = WritersFloor.pgbench()
        var rates: [Double] = [], floors: [Double] = [], lost: [Int] = []
        for turn in 0..<3 {
            func floor() {
                if case .success(let path) = pgbench, let rate = WritersFloor.answersPerSecond(server: server, pgbench: path, payloadBytes: writersPayloadBytes) {
                    floors.append(rate)
                }
            }
            if turn % 2 == 1 { floor() }
            let (seconds, saved) = try writersAtOnce(server: server)
            rates.append(Double(20 * WritersFloor.answersEach) / seconds)
            if saved != 20 { lost.append(saved) }
            if turn % 2 == 0 { floor() }
        }
        row("[server] 20 writers × 100 answers, each writer on its own connection",
            String(format: "%.0f answers/s in total (median of 3, %.0f–%.0f, connections open)%@%@", Measure.median(rates), rates.min() ?? 0, rates.max() ?? 0,
                   lost.isEmpty ? ", none lost" : " — only \(lost.map(String.init).joined(separator: ", ")) of 20 writers' last answers found",
                   besideFloor(pgbench, floors, rate: Measure.median(rates))))
    }

    /// The writers' floor as their row states it.
    private static func besideFloor(_ pgbench: Result<String, WritersFloor.FloorMissing>, _ floors: [Double], rate: Double) -> String {
        if case .failure(let missing) = pgbench { return "; \(missing.reason), no floor" }
        guard !floors.isEmpty else { return "; pgbench failed in every turn, no floor" }
        let floor = Measure.median(floors)
        return String(format: "; floor (pgbench sending the same statements from C, %d clients × %d answers) %.0f answers/s (median of %d, %.0f–%.0f), %.0f%% of it",
                      WritersFloor.clients, WritersFloor.answersEach, floor, floors.count, floors.min() ?? 0, floors.max() ?? 0, 100 * rate / floor)
    }

    /// The bytes of a writer's payload once both its outcomes are answered: the floor's payload is as long.
    private static var writersPayloadBytes: Int {
        let session = Session(id: UUID(), release: "bench", build: "1", plan: ["tiny-target/touch-one-hand"], startedAt: Date())
        var result = Measure.walkResult(in: session, at: Date())
        for round in 0...WritersFloor.answersEach { Measure.answer(&result, round: round, at: Date()) }
        return result.payload.utf8.count
    }

    /// Twenty writers, really at once, each on its own connection, 100 answers each after its
    /// result's first save: the seconds they took and how many writers' last answers are found afterwards.
    static func writersAtOnce(server: String) throws -> (Double, Int) {
        try withDatabase(server) { address -> (Double, Int) in
            // Connected and each with its session first: what is timed is answers being saved.
            let writers = try (0..<20).map { writer -> Writer in
                let store = try ResultStore(path: address)
                let session = Session(id: UUID(), release: "bench", build: "1", device: "device \(writer)", plan: ["tiny-target/touch-one-hand"], startedAt: Date())
                try store.insert(session)
                // The result's first save (which looks for it and its session first) before the
                // clock starts, as the floor's: what is timed is the answers that follow.
                var result = Measure.walkResult(in: session, at: Date())
                Measure.answer(&result, round: 0, at: Date())
                try store.save(result, over: nil)
                return Writer(store: store, result: result)
            }
            let start = ProcessInfo.processInfo.systemUptime
            AllAtOnce.run(writers.count) { index in
                let writer = writers[index]
                var result = writer.result
                do {
                    // Answers as the walk gives them, each saved over the one saved before.
                    var seen: String? = result.payload
                    for round in 1...WritersFloor.answersEach {
                        Measure.answer(&result, round: round, at: Date())
                        try writer.store.save(result, over: seen)
                        seen = result.payload
                    }
                } catch {
                    FileHandle.standardError.write(Data("  writer \(index): \(error)\n".utf8))
                }
            }
            let seconds = ProcessInfo.processInfo.systemUptime - start
            for writer in writers { writer.store.close() }
            let store = try ResultStore(path: address, access: .existingOnly)
            defer { store.close() }
            let complete = try store.sessionSummaries().filter { summary in
                (try? store.results(inSession: summary.session.id).first?.tally) == WritersFloor.answersEach
            }.count
            return (seconds, complete)
        }
    }

    @MainActor
    static func report(server: String, size: Int, library: ProtocolLibrary, protocolFolder: URL) throws {
        try withDatabase(server, keep: CommandLine.arguments.contains("--keep")) { address in
            FileHandle.standardError.write(Data("Building a server store of \(size) results…\n".utf8))
            let store = try ResultStore(path: address)
            let seconds = try SyntheticData.fill(store, library: library, total: size, answers: answersPerResult)
            try store.analyse()
            store.close()
            let label = (size % 1_000_000 == 0 ? "\(size / 1_000_000)M" : size % 1000 == 0 ? "\(size / 1000)k" : String(size))
                + (answersPerResult > 1 ? ", \(answersPerResult) records a result" : "")
            row("[server \(label)] insert throughput", String(format: "%.0f results/s", Double(size) / seconds))
            let reportCommand = (checkrun, ["report", "--release", "r20", "--format", "json", "--protocols", protocolFolder.path, "--db", address])
            let psql = ["/usr/bin/psql", "/usr/local/bin/psql"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let psql else {
                let report = Measure.typical(of: 3, reportCommand.0, reportCommand.1)
                row("[server \(label)] report --format json (verifying what it cites)", String(format: "%.0f ms, %.1f MB peak; psql not found", report.seconds * 1000, report.peakMB))
                return
            }
            let (report, floor, citedFloor) = reportBesideFloors(reportCommand, psql: psql, address: address, hasher: hasher.command)
            row("[server \(label)] report --format json (verifying what it cites)",
                String(format: "%.0f ms, %.1f MB peak%@; floor (psql, the report's query) %.0f ms, %.1f× the floor%@; floor with what it verifies (the query, then the payloads of the release's records into %@) %.0f ms, %.1f×",
                       report.seconds * 1000, report.peakMB, report.status == 0 ? "" : " (exit \(report.status))", floor.seconds * 1000,
                       report.seconds / max(floor.seconds, 0.001), floor.status == 0 ? "" : " (psql exit \(floor.status))",
                       hasher.name, citedFloor.seconds * 1000, report.seconds / max(citedFloor.seconds, 0.001)))
            let verify = Measure.typical(of: 1, checkrun, ["verify", "--db", address])
            row("[server \(label)] verify every chain", String(format: "%.2f s, %.1f MB peak%@", verify.seconds, verify.peakMB, verify.status == 0 ? "" : " (exit \(verify.status))"))
        }
    }

    /// What hashes the payloads of the floor that reads them: OpenSSL where it is installed,
    /// which uses the processor's SHA instructions as checkrun does (sha256sum took 0.3 s
    /// where it took 0.09 s, a floor slower than it need be).
    static var hasher: (name: String, command: String) {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") ? ("openssl dgst -sha256", "/usr/bin/openssl dgst -sha256") : ("sha256sum", "sha256sum")
    }

    /// The report, psql running the report's own query, and that query followed by psql reading
    /// the payload of every record of the release into `hasher` (the least a report that
    /// checks the hash of every record it cites must read), five times each in turns.
    static func reportBesideFloors(_ report: (String, [String]), psql: String, address: String, hasher: String) -> (Measurement, Measurement, Measurement) {
        let builds = "[" + (1...SyntheticData.buildsPerRelease).map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let statement = "PREPARE latest (text, text, text) AS \(ResultStore.serverLatestResultQuery); EXECUTE latest('r20', NULL, '\(builds)');"
        // Session by session through the records' key, as the report reads them: joined whole,
        // the server chose to read every record of the store (0.76 s of the server's time
        // against 0.07 s), which made this floor look slower than any report need be.
        let payloads = """
            COPY (SELECT r.payload FROM sessions s CROSS JOIN LATERAL (SELECT x.payload FROM records x WHERE x.session_id = s.id ORDER BY x.sequence) r
            WHERE s.release = 'r20') TO STDOUT
            """
        let query = (psql, ["-X", "-q", "-o", "/dev/null", "-d", address, "-c", statement])
        let withPayloads = ("/bin/sh", ["-c", "\"$0\" -X -q -o /dev/null -d \"$1\" -c \"$2\" && \"$0\" -X -q -d \"$1\" -c \"$3\" | \(hasher) >/dev/null",
                                        psql, address, statement, payloads])
        let measured = Measure.inTurns(5, [report, query, withPayloads])
        return (measured[0], measured[1], measured[2])
    }
}

/// One of the concurrent writers: its own connection and the result it keeps answering.
private struct Writer: @unchecked Sendable {
    let store: ResultStore
    let result: CheckResult
}
