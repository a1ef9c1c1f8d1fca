import CheckrunModel
import CheckrunStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Wall time and peak resident memory of one child process.
struct Measurement {
    var seconds: Double
    var peakMB: Double
    var status: Int32
    var outputBytes: Int
}

enum Measure {
    /// Runs `executable` with `arguments` to its end, feeding `input`, its output counted and dropped.
    static func run(_ executable: String, _ arguments: [String], input: String = "") -> Measurement {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var inputPipe: [Int32] = [0, 0], outputPipe: [Int32] = [0, 0]
        pipe(&inputPipe)
        pipe(&outputPipe)
        let devNull = open("/dev/null", O_WRONLY)
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, devNull, 2)
        posix_spawn_file_actions_addclose(&actions, inputPipe[1])
        posix_spawn_file_actions_addclose(&actions, outputPipe[0])
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = ProcessInfo.processInfo.systemUptime
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { fail("cannot start \(executable)") }
        close(inputPipe[0])
        close(outputPipe[1])
        close(devNull)
        let bytes = Array(input.utf8)
        _ = bytes.withUnsafeBytes { write(inputPipe[1], $0.baseAddress, $0.count) }
        close(inputPipe[1])
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(outputPipe[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            total += count
        }
        close(outputPipe[0])
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        return Measurement(seconds: ProcessInfo.processInfo.systemUptime - start, peakMB: Double(usage.ru_maxrss) / 1024,
                           status: (status >> 8) & 0xFF, outputBytes: total)
    }

    /// Milliseconds for each of 500 answers saved one after another, each committed durably:
    /// the walk's save, on whichever engine `store` is.
    static func answerCommits(_ store: ResultStore) throws -> [Double] {
        let now = Date()
        let session = Session(id: UUID(), release: "bench", build: "1", plan: ["tiny-target/touch-one-hand"], startedAt: now)
        try store.insert(session)
        var result = walkResult(in: session, at: now)
        var times: [Double] = []
        // As the walk saves: each answer only over the record it saved last.
        var seen: String?
        for round in 0..<500 {
            answer(&result, round: round, at: now)
            let start = ProcessInfo.processInfo.systemUptime
            try store.save(result, over: seen)
            times.append((ProcessInfo.processInfo.systemUptime - start) * 1000)
            seen = result.payload
        }
        return times
    }

    /// A result as a walk holds it: two expected outcomes and the stopwatch run once.
    static func walkResult(in session: Session, at now: Date) -> CheckResult {
        var result = CheckResult(id: .timeOrdered(at: now), sessionID: session.id, check: "tiny-target/touch-one-hand", protocolHash: "x",
                                 attempt: 1, outcomeCount: 2, startedAt: now)
        result.stopwatch = [StopwatchEvent(.start, at: 0, recordedAt: now), StopwatchEvent(.stop, at: 12, recordedAt: now)]
        return result
    }

    /// The walk's next answer: one expected outcome answered again, with a note, and the tally.
    static func answer(_ result: inout CheckResult, round: Int, at now: Date) {
        result.outcomes[round % 2] = OutcomeAnswer(round % 3 == 0 ? .fail : .pass, note: "answer \(round)", answeredAt: now)
        result.tally = round
    }

    /// The median wall time of `runs` runs (this machine's timings vary by 10–30% from run to
    /// run), with the highest peak memory and the first failing status.
    static func typical(of runs: Int, _ executable: String, _ arguments: [String], input: String = "") -> Measurement {
        typical((0..<runs).map { _ in run(executable, arguments, input: input) })
    }

    /// The median run's time, the largest peak, and the first failure's status.
    static func typical(_ all: [Measurement]) -> Measurement {
        var result = all.sorted { $0.seconds < $1.seconds }[all.count / 2]
        result.peakMB = all.map(\.peakMB).max() ?? 0
        result.status = all.first { $0.status != 0 }?.status ?? 0
        return result
    }

    /// Two commands measured in turns, `runs` times each: the median of each.
    static func alternating(_ runs: Int, _ first: (String, [String]), _ second: (String, [String])) -> (Measurement, Measurement) {
        let both = inTurns(runs, [first, second])
        return (both[0], both[1])
    }

    /// Commands measured in turns, `runs` times each, so a slower stretch of the machine weighs
    /// on all alike: the median of each, in the order given.
    static func inTurns(_ runs: Int, _ commands: [(String, [String])]) -> [Measurement] {
        var all = Array(repeating: [Measurement](), count: commands.count)
        for _ in 0..<runs {
            for (index, command) in commands.enumerated() { all[index].append(run(command.0, command.1)) }
        }
        return all.map(typical)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("checkrun-bench: \(message)\n".utf8))
    exit(1)
}
