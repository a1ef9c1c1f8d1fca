import CheckrunModel
import CheckrunStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// checkrun's benchmark: measures what a tester and a CI job feel, on the built binaries.
/// Run it as `swift run -c release checkrun-bench` from the package folder.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("checkrun-bench: \(message)\n".utf8))
    exit(1)
}

let benchDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let checkrunBinary = benchDirectory.appendingPathComponent("checkrun").path
guard FileManager.default.isExecutableFile(atPath: checkrunBinary) else {
    fail("no checkrun binary beside this one (\(checkrunBinary)); build with `swift build -c release` first")
}
let protocolsFolder = FileManager.default.currentDirectoryPath + "/protocols"
// Scratch files go beside the package, on the disk a tester's database would use (a tmpfs
// /tmp would make every fsync free and the commit figure meaningless).
let scratch = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
}

/// Runs a command to its end, feeding `input`; returns wall seconds and peak resident memory.
func measure(_ arguments: [String], input: String = "") -> (seconds: Double, peakMB: Double, status: Int32) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var inputPipe: [Int32] = [0, 0]
    pipe(&inputPipe)
    let devNull = open("/dev/null", O_WRONLY)
    posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, devNull, 1)
    posix_spawn_file_actions_adddup2(&actions, devNull, 2)
    posix_spawn_file_actions_addclose(&actions, inputPipe[1])
    let argv = ([checkrunBinary] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = ProcessInfo.processInfo.systemUptime
    guard posix_spawn(&pid, checkrunBinary, &actions, nil, argv, environ) == 0 else { fail("cannot start checkrun") }
    close(inputPipe[0])
    close(devNull)
    let bytes = Array(input.utf8)
    _ = bytes.withUnsafeBytes { write(inputPipe[1], $0.baseAddress, $0.count) }
    close(inputPipe[1])
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let seconds = ProcessInfo.processInfo.systemUptime - start
    return (seconds, Double(usage.ru_maxrss) / 1024, (status >> 8) & 0xFF)
}

// 1. An answer's durable commit: ResultStore.save in WAL mode with synchronous = FULL.
let store = try ResultStore(path: scratch.appendingPathComponent("commit.sqlite").path)
let session = Session(release: "bench", build: "1", plan: ["tiny-target/touch-one-hand"])
try store.insert(session)
var result = CheckResult(sessionID: session.id, check: "tiny-target/touch-one-hand", protocolHash: "x", attempt: 1, outcomeCount: 2)
result.stopwatch = [StopwatchEvent(.start, at: 0), StopwatchEvent(.stop, at: 12)]
var commitTimes: [Double] = []
for round in 0..<500 {
    result.outcomes[round % 2] = OutcomeAnswer(round % 3 == 0 ? .fail : .pass, note: "answer \(round)")
    result.tally = round
    let start = ProcessInfo.processInfo.systemUptime
    try store.save(result)
    commitTimes.append((ProcessInfo.processInfo.systemUptime - start) * 1000)
}

// 2. A whole walk of every check in protocols/, answers piped in, as the real process.
let walkAnswers = String(repeating: "t 30\np\np\np\np\np\n\n\n\n\n", count: 60) + "q\n"
let walkDatabase = scratch.appendingPathComponent("walk.sqlite").path
let walk = measure(["run", "--release", "bench", "--build", "1", "--protocols", protocolsFolder, "--db", walkDatabase], input: walkAnswers)
let walked = try ResultStore(path: walkDatabase).database.scalarInt("SELECT count(*) FROM results WHERE verdict IS NOT NULL") ?? 0
let version = (0..<20).map { _ in measure(["--version"]).seconds }
let list = (0..<20).map { _ in measure(["list", "--protocols", protocolsFolder]).seconds }
let lint = (0..<10).map { _ in measure(["lint", "--protocols", protocolsFolder]).seconds }

print("checkrun benchmark on \(ProcessInfo.processInfo.processorCount) cores")
print("| measurement | figure |")
print("| --- | --- |")
print(String(format: "| answer committed durably (500 saves), median | %.2f ms |", percentile(commitTimes, 0.5)))
print(String(format: "| answer committed durably, 95th percentile | %.2f ms |", percentile(commitTimes, 0.95)))
print(String(format: "| whole walk of protocols/ (%d checks answered, piped), wall time | %.0f ms |", walked, walk.seconds * 1000))
print(String(format: "| whole walk of protocols/, peak memory | %.1f MB |", walk.peakMB))
print(String(format: "| checkrun --version, median | %.1f ms |", percentile(version, 0.5) * 1000))
print(String(format: "| checkrun list, median | %.1f ms |", percentile(list, 0.5) * 1000))
print(String(format: "| checkrun lint protocols/, median | %.1f ms |", percentile(lint, 0.5) * 1000))
