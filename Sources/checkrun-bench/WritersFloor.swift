import CheckrunModel
import CheckrunStore
import Foundation

/// The floor beside the twenty writers: pgbench, PostgreSQL's own load generator, written in C,
/// sending the statements a walk's answer sends, in the same two trips (BEGIN, the locks and the
/// read of the session's last record; then the result's row, one expected outcome, the record
/// and COMMIT), from twenty clients at once, each on a connection of its own, a hundred answers
/// each, with a payload as long as the writers'. What lies between the two figures is checkrun's
/// own work per answer (the payload, its hash, which rows changed) on the cores the server
/// shares, not the server's: without a floor, a figure short of its target cannot say whether
/// checkrun or the machine falls short.
enum WritersFloor {
    static let clients = 20
    static let answersEach = 100

    /// pgbench 15 or later (pipelines need 14, its count of failed transactions 15): beside
    /// the server's programs on Debian (its wrapper in /usr/bin), newest first; or why there is none.
    static func pgbench() -> Result<String, FloorMissing> {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { $0.compare($1, options: .numeric) == .orderedDescending }
        let candidates = ["/usr/bin/pgbench", "/usr/local/bin/pgbench"] + versions.map { "/usr/lib/postgresql/\($0)/bin/pgbench" }
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return .failure(FloorMissing("pgbench not found")) }
        let version = run(path, ["--version"]).output
        let major = version.split(separator: " ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        return major >= 15 ? .success(path) : .failure(FloorMissing("\(version.trimmingCharacters(in: .whitespacesAndNewlines)) is older than 15"))
    }

    struct FloorMissing: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Answers a second, as pgbench counts them once its clients are connected; nil, with why
    /// on standard error, unless every one of its transactions ran.
    static func answersPerSecond(server: String, pgbench: String, payloadBytes: Int) -> Double? {
        do {
            return try ServerBench.withDatabase(server) { address -> Double? in
                try prepare(address)
                let script = FileManager.default.temporaryDirectory.appendingPathComponent("checkrun-bench-\(UUID().uuidString).pgbench")
                try Data(self.script.utf8).write(to: script)
                defer { try? FileManager.default.removeItem(at: script) }
                let payload = "{" + String(repeating: "x", count: max(0, payloadBytes - 2)) + "}"
                let (status, output) = run(pgbench, ["-n", "-M", "prepared", "-c", String(clients), "-j", "2", "-t", String(answersEach),
                                                     "-D", "payload=\(payload)", "-f", script.path, address])
                let total = clients * answersEach
                guard status == 0, output.contains("number of transactions actually processed: \(total)/\(total)"),
                      output.contains("number of failed transactions: 0 "),
                      let line = output.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
                      let value = Double(line.dropFirst("tps = ".count).prefix { $0.isNumber || $0 == "." }) else {
                    FileHandle.standardError.write(Data("  pgbench failed (exit \(status)):\n\(output.suffix(600))\n".utf8))
                    return nil
                }
                return value
            }
        } catch {
            FileHandle.standardError.write(Data("  the floor's database could not be made ready: \(error)\n".utf8))
            return nil
        }
    }

    /// One session and result per client, with their first answer, as the writers have when timing starts.
    private static func prepare(_ address: String) throws {
        let store = try ResultStore(path: address)
        defer { store.close() }
        for client in 0..<clients {
            let now = Date()
            guard let sessionID = UUID(uuidString: id(1, client)), let resultID = UUID(uuidString: id(2, client)) else { fail("bad floor ids") }
            let session = Session(id: sessionID, release: "floor", build: "1", device: "device \(client)", plan: ["tiny-target/touch-one-hand"], startedAt: now)
            try store.insert(session)
            var result = Measure.walkResult(in: session, at: now)
            result.id = resultID
            Measure.answer(&result, round: 0, at: now)
            try store.save(result, over: nil)
        }
    }

    /// The ids of the floor's sessions (kind 1) and results (kind 2): what the script spells as
    /// the prefix followed by pgbench's client number.
    private static func id(_ kind: Int, _ client: Int) -> String { "00000000-0000-0000-000\(kind)-" + String(format: "%012d", client) }

    /// A walk's answer as pgbench sends it. The sequence is drawn at random (pgbench cannot read
    /// the last one back inside a pipeline); the read of the last record is still made, by the
    /// same index.
    private static let script = """
        \\set seq random(2, 1000000000000000)
        \\set now random(1, 1000000000)
        \\set tally :seq % 100
        \\set position :seq % 2
        \\startpipeline
        BEGIN;
        SELECT pg_advisory_xact_lock_shared(1), pg_advisory_xact_lock(:client_id + 2);
        SELECT sequence, hash, result_id = '00000000-0000-0000-0002-' || lpad(:client_id::text, 12, '0') AND payload = :payload FROM records WHERE session_id = '00000000-0000-0000-0001-' || lpad(:client_id::text, 12, '0') ORDER BY sequence DESC LIMIT 1;
        \\endpipeline
        \\startpipeline
        INSERT INTO results (id, session_id, check_name, protocol_hash, attempt, verdict, blocked_reason, active_seconds, tally, notes, notes_answered_at, started_at, updated_at) VALUES ('00000000-0000-0000-0002-' || lpad(:client_id::text, 12, '0'), '00000000-0000-0000-0001-' || lpad(:client_id::text, 12, '0'), 'tiny-target/touch-one-hand', 'x', 1, NULL, NULL, 12, :tally, NULL, NULL, :now, :now) ON CONFLICT (id) DO UPDATE SET verdict = excluded.verdict, blocked_reason = excluded.blocked_reason, active_seconds = excluded.active_seconds, tally = excluded.tally, notes = excluded.notes, notes_answered_at = excluded.notes_answered_at, updated_at = excluded.updated_at;
        INSERT INTO outcome_answers (result_id, position, verdict, value, note, answered_at) VALUES ('00000000-0000-0000-0002-' || lpad(:client_id::text, 12, '0'), :position, 'pass', NULL, 'answer', :now) ON CONFLICT (result_id, position) DO UPDATE SET verdict = excluded.verdict, value = excluded.value, note = excluded.note, answered_at = excluded.answered_at;
        INSERT INTO records (session_id, sequence, result_id, kind, reason, payload, recorded_at, previous_hash, hash) VALUES ('00000000-0000-0000-0001-' || lpad(:client_id::text, 12, '0'), :seq, '00000000-0000-0000-0002-' || lpad(:client_id::text, 12, '0'), 'answer', NULL, :payload, :now, '0000000000000000000000000000000000000000000000000000000000000000', '0000000000000000000000000000000000000000000000000000000000000000');
        COMMIT;
        \\endpipeline

        """

    /// Runs a program to its end: its exit status and what it printed, both streams.
    private static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "cannot start \(executable): \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
