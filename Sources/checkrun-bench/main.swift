import CheckrunModel
import CheckrunStore
import Foundation

/// checkrun's benchmark: what a tester and a CI job feel, measured on the built binaries.
/// Run it from the package folder:
/// `swift run -c release checkrun-bench [--sizes 10000,100000,1000000] [--exchange-sizes 10000,100000]
/// [--keep] [--reports-only]`.

let benchStart = ProcessInfo.processInfo.systemUptime
let usage = """
    usage: swift run -c release checkrun-bench [--sizes N,N,…] [--exchange-sizes N,N,…] [--answers N] [--reports-only] [--keep]

      --sizes            database sizes in results (default 10000,100000)
      --exchange-sizes   sizes at which merge, export and verify are measured too (default: the sizes up to 100000)
      --answers N        records per result: 1 (the default) saves each result once, as `record`
                         does; a walk saves one at every answer (4 for a check of two outcomes)
      --reports-only     leave merge, export and verify out
      --keep             keep the databases under .build/bench-… for a closer look
      --postgres URI     measure the team store on this PostgreSQL server instead (a database of
                         its own is created there for each figure and dropped again)

    Run it from the package folder, after `swift build -c release`. Example:
      swift run -c release checkrun-bench --sizes 10000,100000,1000000
      swift run -c release --traits PostgreSQL checkrun-bench --sizes 100000 --postgres postgresql://me@/postgres
    """
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
/// Reads `--sizes 10000,100000` style lists; anything else there is refused, not skipped.
func sizeList(after flag: String) -> [Int]? {
    guard let index = arguments.firstIndex(of: flag) else { return nil }
    guard index + 1 < arguments.count else { fail("\(flag) needs a list of sizes, e.g. \(flag) 10000,100000\n\n\(usage)") }
    let parts = arguments[index + 1].split(separator: ",")
    let numbers = parts.compactMap { Int($0.filter { $0 != "_" }) }.filter { $0 > 0 }
    guard !parts.isEmpty, numbers.count == parts.count else {
        fail("\(flag) \(arguments[index + 1]): sizes are positive whole numbers separated by commas, e.g. 10000,100000")
    }
    return numbers
}
var position = 0
while position < arguments.count {
    switch arguments[position] {
    case "--sizes", "--exchange-sizes", "--postgres", "--answers": position += 2
    case "--keep", "--reports-only": position += 1
    default: fail("unknown argument \(arguments[position])\n\n\(usage)")
    }
}
let sizes = sizeList(after: "--sizes") ?? [10_000, 100_000]
let answersPerResult: Int = {
    guard let list = sizeList(after: "--answers") else { return 1 }
    guard list.count == 1 else { fail("--answers takes one number, e.g. --answers 4") }
    return list[0]
}()
// Merge, export and verify run at every size up to 100k unless told otherwise: at 1M they add
// several minutes and measure the same per-record work as at 100k.
let exchangeSizes = arguments.contains("--reports-only") ? [] : sizeList(after: "--exchange-sizes") ?? sizes.filter { $0 <= 100_000 }
let benchDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let checkrun = benchDirectory.appendingPathComponent("checkrun").path
guard FileManager.default.isExecutableFile(atPath: checkrun) else {
    fail("no checkrun binary beside this one (\(checkrun)); build with `swift build -c release` first")
}
let repositoryProtocols = FileManager.default.currentDirectoryPath + "/protocols"
guard FileManager.default.fileExists(atPath: repositoryProtocols) else { fail("run me from the package folder (no ./protocols here)") }
// Scratch files go beside the package, on the disk a tester's database would use (a tmpfs
// /tmp would make every fsync free and the commit figure meaningless).
let scratch = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
// `--keep` leaves the databases for a closer look (profiling a single command, say).
let keep = arguments.contains("--keep")
defer {
    if keep {
        FileHandle.standardError.write(Data("Kept \(scratch.path)\n".utf8))
    } else {
        try? FileManager.default.removeItem(at: scratch)
    }
}

var rows: [(String, String)] = []
@MainActor func row(_ name: String, _ value: String) {
    rows.append((name, value))
    FileHandle.standardError.write(Data("  \(name): \(value)\n".utf8))
}

/// The figures as a Markdown table, for the README.
@MainActor func printTable() {
    print("checkrun-bench on \(ProcessInfo.processInfo.processorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB")
    print("")
    print("| measurement | figure |")
    print("| --- | --- |")
    for (name, value) in rows { print("| \(name) | \(value) |") }
    print("")
    print(String(format: "The benchmark took %.0f s.", ProcessInfo.processInfo.systemUptime - benchStart))
}

// The team store instead, on the server named: its own figures beside psql's.
if let index = arguments.firstIndex(of: "--postgres") {
    guard index + 1 < arguments.count, ServerAddressText.isServer(arguments[index + 1]) else {
        fail("--postgres needs a server's address, e.g. --postgres postgresql://me@/postgres\n\n\(usage)")
    }
    guard ResultStore.canUseServers else {
        fail("this benchmark was built without the team store; run it with swift run -c release --traits PostgreSQL checkrun-bench …")
    }
    let folder = scratch.appendingPathComponent("protocols")
    let library = try SyntheticData.writeProtocols(from: repositoryProtocols, to: folder, total: 500)
    try ServerBench.run(server: arguments[index + 1], sizes: sizes, library: library, protocolFolder: folder)
    printTable()
    if !keep { try? FileManager.default.removeItem(at: scratch) }
    exit(0)
}

// 1. The walk: an answer's durable commit, the whole walk's memory, start-up of small commands.
do {
    let store = try ResultStore(path: scratch.appendingPathComponent("commit.sqlite").path)
    let times = try Measure.answerCommits(store)
    row("answer committed durably (synchronous=FULL), median of 500", String(format: "%.2f ms", Measure.median(times)))
    row("answer committed durably, 95th percentile", String(format: "%.2f ms", Measure.percentile(times, 0.95)))
    let walkDatabase = scratch.appendingPathComponent("walk.sqlite").path
    let answers = String(repeating: "t 30\np\np\np\np\np\n\n\n\n\n", count: 60) + "q\n"
    let walk = Measure.run(checkrun, ["run", "--release", "bench", "--build", "1", "--protocols", repositoryProtocols, "--db", walkDatabase], input: answers)
    row("whole walk of protocols/ (piped answers), wall time", String(format: "%.0f ms", walk.seconds * 1000))
    row("whole walk of protocols/, peak memory", String(format: "%.1f MB", walk.peakMB))
    let version = (0..<20).map { _ in Measure.run(checkrun, ["--version"]).seconds * 1000 }
    let list = (0..<20).map { _ in Measure.run(checkrun, ["list", "--protocols", repositoryProtocols]).seconds * 1000 }
    row("checkrun --version, median of 20", String(format: "%.1f ms", Measure.median(version)))
    row("checkrun list, median of 20", String(format: "%.1f ms", Measure.median(list)))
}

// Evidence: a long recording attached, and a gigabyte of attachments verified, each beside
// sha256sum reading the same bytes.
do {
    let database = scratch.appendingPathComponent("evidence.sqlite").path
    var files: [String] = []
    var attachSeconds: [Double] = []
    var attachPeak = 0.0
    for index in 1...5 {
        let file = scratch.appendingPathComponent("recording-\(index).mov").path
        try SyntheticData.writeRandomFile(file, megabytes: 200, seed: UInt64(index))
        files.append(file)
        let attach = Measure.run(checkrun, ["record", "--release", "bench", "--build", String(index), "--check", "tiny-target/touch-one-hand",
                                            "--verdict", "fail", "--expected", "2=fail", "--notes", "recorded", "--attach", "2=\(file)=A recording",
                                            "--protocols", repositoryProtocols, "--db", database])
        if attach.status != 0 { fail("record --attach exited \(attach.status)") }
        attachSeconds.append(attach.seconds)
        attachPeak = max(attachPeak, attach.peakMB)
    }
    let hashOne = Measure.typical(of: 3, "/usr/bin/sha256sum", [files[0]])
    row("attach a 200 MB recording (record --attach), median of 5", String(format: "%.2f s, %.1f MB peak; sha256sum of the file %.2f s", Measure.median(attachSeconds), attachPeak, hashOne.seconds))
    let verify = Measure.typical(of: 3, checkrun, ["verify", "--db", database])
    let hashAll = Measure.typical(of: 3, "/usr/bin/sha256sum", files)
    row("verify with 1 GB of attachments (5 × 200 MB)", String(format: "%.2f s, %.1f MB peak; floor (sha256sum of the same files) %.2f s; %.1f× the floor%@", verify.seconds, verify.peakMB, hashAll.seconds, verify.seconds / max(hashAll.seconds, 0.001), verify.status == 0 ? "" : " (exit \(verify.status))"))
    for file in files { try? FileManager.default.removeItem(atPath: file) }
}

// 2. Reports and comparisons on synthetic histories (each timing the median of three runs).
let protocolFolder = scratch.appendingPathComponent("protocols")
let library = try SyntheticData.writeProtocols(from: repositoryProtocols, to: protocolFolder, total: 500)
let lint = (0..<5).map { _ in Measure.run(checkrun, ["lint", protocolFolder.path]).seconds * 1000 }
row("lint of \(library.documents.count) protocol files (\(library.allChecks.count) checks), median of 5", String(format: "%.0f ms", Measure.median(lint)))
let thousand = scratch.appendingPathComponent("protocols-1000")
try SyntheticData.writeManyProtocols(count: 1000, to: thousand)
let lintThousand = (0..<3).map { _ in Measure.run(checkrun, ["lint", thousand.path]) }
row("lint of 1,000 protocol files, median of 3", String(format: "%.0f ms, %.1f MB peak%@", Measure.median(lintThousand.map { $0.seconds * 1000 }),
    lintThousand.map(\.peakMB).max() ?? 0, lintThousand.allSatisfy { $0.status == 0 } ? "" : " (problems found)"))

// The floor: the report's own core query (latest result per check and device, with the
// attempt count), run by the sqlite3 shell with the same parameters the report binds.
let floorScript = """
    .parameter init
    .parameter set ?1 'r20'
    .parameter set ?2 NULL
    .parameter set ?3 '[\((1...SyntheticData.buildsPerRelease).map { "\"\($0)\"" }.joined(separator: ","))]'
    .output /dev/null
    \(ResultStore.latestResultQuery);

    """
let sqliteShell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }

for size in sizes {
    FileHandle.standardError.write(Data("Building a database of \(size) results…\n".utf8))
    let path = scratch.appendingPathComponent("history-\(size).sqlite").path
    let store = try ResultStore(path: path)
    let seconds = try SyntheticData.fill(store, library: library, total: size, answers: answersPerResult)
    // Closed before anything reads it, as a database at rest is: the last connection's close
    // folds the write-ahead log into the file, which every reader would otherwise consult.
    store.close()
    let label = (size % 1_000_000 == 0 ? "\(size / 1_000_000)M" : size % 1000 == 0 ? "\(size / 1000)k" : String(size))
        + (answersPerResult > 1 ? ", \(answersPerResult) records a result" : "")
    row("[\(label)] insert throughput", String(format: "%.0f results/s", Double(size) / seconds))
    let common = ["--protocols", protocolFolder.path, "--db", path]
    var jsonReport: Measurement?
    for format in ["markdown", "html", "json", "csv", "junit", "openacr"] {
        let run = Measure.typical(of: 3, checkrun, ["report", "--release", "r20", "--format", format] + common)
        if format == "json" { jsonReport = run }
        row("[\(label)] report --format \(format) (verifying what it cites)", String(format: "%.0f ms, %.1f MB peak%@", run.seconds * 1000, run.peakMB, run.status == 0 ? "" : " (exit \(run.status))"))
    }
    let compare = Measure.typical(of: 3, checkrun, ["compare", "--release", "r20"] + common)
    row("[\(label)] compare across \(SyntheticData.buildsPerRelease) builds", String(format: "%.0f ms, %.1f MB peak", compare.seconds * 1000, compare.peakMB))
    if exchangeSizes.contains(size) {
        let merged = scratch.appendingPathComponent("merged-\(size).sqlite").path
        let merge = Measure.run(checkrun, ["merge", path, "--db", merged])
        row("[\(label)] merge into an empty database", String(format: "%.1f s, %.0f results/s, %.1f MB peak%@", merge.seconds, Double(size) / merge.seconds, merge.peakMB, merge.status == 0 ? "" : " (exit \(merge.status))"))
        let exportFile = scratch.appendingPathComponent("export-\(size).json").path
        let export = Measure.run(checkrun, ["export", "--db", path, "--out", exportFile])
        row("[\(label)] export", String(format: "%.1f s, %.1f MB peak", export.seconds, export.peakMB))
    }
    // verify at every size, beside its floor: the sqlite3 shell reading every payload into
    // sha256sum, the least any check of every record's hash must do.
    if let sqliteShell {
        // Taken in turns, five each, so a slower stretch of the machine weighs on both alike.
        let (verify, hashFloor) = Measure.alternating(5, (checkrun, ["verify", "--db", path]),
                                                      ("/bin/sh", ["-c", "\"$0\" \"$1\" 'SELECT payload FROM records' | sha256sum >/dev/null", sqliteShell, path]))
        row("[\(label)] verify every chain (file check and tables included)", String(format: "%.2f s, %.1f MB peak; floor (sqlite3 … | sha256sum) %.2f s; %.1f× the floor%@", verify.seconds, verify.peakMB, hashFloor.seconds, verify.seconds / max(hashFloor.seconds, 0.001), verify.status == 0 ? "" : " (exit \(verify.status))"))
    } else {
        let verify = Measure.typical(of: 3, checkrun, ["verify", "--db", path])
        row("[\(label)] verify every chain", String(format: "%.2f s, %.1f MB peak", verify.seconds, verify.peakMB))
    }
    if let sqliteShell, let report = jsonReport {
        let floor = Measure.typical(of: 3, sqliteShell, [path], input: floorScript)
        row("[\(label)] sqlite3 shell, the report's latest-result query (the floor)", String(format: "%.0f ms; report json is %.1f× the floor", floor.seconds * 1000, report.seconds / max(floor.seconds, 0.001)))
    }
}

printTable()
