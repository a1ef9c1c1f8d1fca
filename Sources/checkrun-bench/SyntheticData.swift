import CheckrunModel
import CheckrunStore
import Foundation

/// A synthetic but realistic history, written through checkrun's own store: 20 releases of
/// 50 builds, 8 devices, the repository's protocols plus generated ones up to 500 checks,
/// about 5% failures, notes of varied length.
struct SyntheticData {
    static let releases = (1...20).map { String(format: "r%02d", $0) }
    static let buildsPerRelease = 50
    static let devices = ["iPhone 15", "iPhone 15 Pro Max", "iPhone SE", "iPhone 13 mini", "iPad Air", "iPad mini", "iPhone 16", "iPad Pro"]
    static let profiles = ["VoiceOver", "Switch Control", "Voice Control", "touch, one hand", "Larger Text AX3", "Full Keyboard Access", "AssistiveTouch", "Accessibility Inspector"]

    /// Writes the generated protocols beside copies of the repository's, up to `total` checks.
    static func writeProtocols(from source: String, to folder: URL, total: Int) throws -> ProtocolLibrary {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: folder.appendingPathComponent(name).path)
        }
        var library = try ProtocolLibrary.load(directory: folder.path)
        var count = library.allChecks.count
        var number = 1
        let wcag = WCAGTable.wcag22.criteria.filter { $0.level != .aaa }.map(\.number)
        while count < total {
            let checks = (0..<min(20, total - count)).map { index -> Check in
                let counted = index % 4 == 0
                return Check(
                    id: "check-\(index + 1)", profile: profiles[(number + index) % profiles.count],
                    task: "complete flow \(index + 1) of screen \(number)",
                    expected: [ExpectedOutcome("every control is reachable"), ExpectedOutcome("every control says its name and role")],
                    counters: counted ? [Counter(id: "stops", label: "scanning stops", ceiling: 60)] : [],
                    wcag: [wcag[(number * 7 + index) % wcag.count]])
            }
            let document = ProtocolDocument(id: String(format: "bench-screen-%03d", number), title: "Bench screen \(number)", status: .ready,
                                            source: "generated", wcag: [], checks: checks)
            try Data(document.fileText.utf8).write(to: folder.appendingPathComponent("\(document.id).json"))
            count += checks.count
            number += 1
        }
        library = try ProtocolLibrary.load(directory: folder.path)
        return library
    }

    /// Writes `count` protocol files of 8 checks each, for timing lint on a large catalog.
    static func writeManyProtocols(count: Int, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for number in 1...count {
            let checks = (0..<8).map { index in
                Check(id: "check-\(index + 1)", profile: profiles[(number + index) % profiles.count], task: "complete flow \(index + 1)",
                      expected: [ExpectedOutcome("every control is reachable"), ExpectedOutcome("10 out of 10 hits", target: NumericTarget(counter: "hits", atLeast: 10, outOf: 10))],
                      counters: [Counter(id: "hits", label: "hits out of 10")], wcag: ["2.5.8"])
            }
            let document = ProtocolDocument(id: String(format: "catalog-%04d", number), title: "Catalog entry \(number)", status: .ready,
                                            source: "generated", wcag: ["2.5.8", "4.1.2"], checks: checks)
            try Data(document.fileText.utf8).write(to: folder.appendingPathComponent("\(document.id).json"))
        }
    }

    /// Fills the store with `total` results, printing progress to standard error. `answers` is
    /// how many records each result gets: 1 saves it once, as `record` does; more save it as a
    /// walk does, at every answer (`stages`).
    static func fill(_ store: ResultStore, library: ProtocolLibrary, total: Int, answers: Int = 1) throws -> Double {
        var random = SplitMix(seed: 42)
        let hashes = Dictionary(library.documents.map { ($0.id, $0.contentHash) }, uniquingKeysWith: { first, _ in first })
        let checks = library.allChecks
        let builds = releases.count * buildsPerRelease
        let perBuild = max(1, total / builds)
        var written = 0
        var clock = 1_700_000_000.0
        let start = ProcessInfo.processInfo.systemUptime
        var lastProgress = start
        for release in releases {
            for buildNumber in 1...buildsPerRelease {
                let build = String(buildNumber)
                try store.batch {
                    var remaining = min(perBuild, total - written)
                    var deviceIndex = 0
                    while remaining > 0 {
                        let device = devices[deviceIndex % devices.count]
                        deviceIndex += 1
                        let size = min(remaining, max(1, perBuild / devices.count + 1))
                        let offset = Int(random.next() % UInt64(checks.count))
                        let plan = (0..<size).map { checks[(offset + $0) % checks.count] }
                        clock += 600
                        let session = Session(id: UUID(), release: release, build: build, device: device, tester: "tester \(deviceIndex % 5)",
                                              plan: plan.map(\.name), startedAt: Date(timeIntervalSince1970: clock), finishedAt: Date(timeIntervalSince1970: clock + 500))
                        try store.insert(session)
                        for (position, reference) in plan.enumerated() {
                            clock += 1
                            var made = result(for: reference, hash: hashes[reference.document.id] ?? "", session: session, at: clock, &random)
                            // One result in a hundred carries a screenshot: 10,000 attachments in a million results.
                            if (written + position) % attachmentEvery == 0 {
                                made.attachments = [try screenshot(store, number: written + position, at: clock)]
                            }
                            for stage in stages(of: made, count: answers) { try store.save(stage) }
                        }
                        remaining -= size
                        written += size
                    }
                }
                let now = ProcessInfo.processInfo.systemUptime
                if now - lastProgress > 2 {
                    lastProgress = now
                    FileHandle.standardError.write(Data("  building: \(written) of \(total) results (\(Int(Double(written) / Double(total) * 100))%)\n".utf8))
                }
                if written >= total { return ProcessInfo.processInfo.systemUptime - start }
            }
        }
        return ProcessInfo.processInfo.systemUptime - start
    }

    /// A result as a walk saves it `count` times: its stopwatch first, then its outcomes
    /// answered a few more at a time, and last the whole result with its verdict, notes and
    /// attachments.
    static func stages(of result: CheckResult, count: Int) -> [CheckResult] {
        guard count > 1 else { return [result] }
        let early = (0..<(count - 1)).map { stage -> CheckResult in
            var partial = result
            partial.verdict = nil
            partial.notes = ""
            partial.attachments = []
            let answered = stage * result.outcomes.count / (count - 1)
            partial.outcomes = result.outcomes.indices.map { $0 < answered ? result.outcomes[$0] : nil }
            return partial
        }
        return early + [result]
    }

    /// How often a result carries an attachment.
    static let attachmentEvery = 100
    static let scratchFile = FileManager.default.temporaryDirectory.appendingPathComponent("checkrun-bench-shot-\(UUID().uuidString).png").path

    /// A small PNG-looking file, different for every number, stored as an attachment.
    static func screenshot(_ store: ResultStore, number: Int, at clock: Double) throws -> Attachment {
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("screenshot \(number) ".utf8) + Array(repeating: UInt8(number % 251), count: 2_000)
        try Data(bytes).write(to: URL(fileURLWithPath: scratchFile))
        let stored = try store.storeAttachment(path: scratchFile)
        return Attachment(hash: stored.hash, name: "shot-\(number).png", mediaType: stored.mediaType, size: stored.size,
                          description: "The screen when the check was answered", outcome: nil, attachedAt: Date(timeIntervalSince1970: clock))
    }

    /// A file of `megabytes` pseudo-random bytes, written a megabyte at a time.
    static func writeRandomFile(_ path: String, megabytes: Int, seed: UInt64) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { fail("cannot create \(path)") }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var random = SplitMix(seed: seed)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<megabytes {
            chunk.withUnsafeMutableBytes { bytes in
                for offset in stride(from: 0, to: bytes.count, by: 8) { bytes.storeBytes(of: random.next(), toByteOffset: offset, as: UInt64.self) }
            }
            try handle.write(contentsOf: chunk)
        }
    }

    static func result(for reference: CheckReference, hash: String, session: Session, at clock: Double, _ random: inout SplitMix) -> CheckResult {
        let date = Date(timeIntervalSince1970: clock)
        let check = reference.check
        var result = CheckResult(id: .timeOrdered(at: date), sessionID: session.id, check: reference.name, protocolHash: hash,
                                 attempt: 1, outcomeCount: check.expected.count, startedAt: date)
        let fails = random.next() % 100 < 5
        let failing = fails && !check.expected.isEmpty ? Int(random.next() % UInt64(check.expected.count)) : -1
        result.outcomes = check.expected.indices.map { OutcomeAnswer($0 == failing ? .fail : .pass, answeredAt: date) }
        let seconds = 5 + Double(random.next() % 1200) / 10
        result.stopwatch = [StopwatchEvent(.start, at: 0, recordedAt: date), StopwatchEvent(.stop, at: seconds, recordedAt: date)]
        for counter in check.counters {
            result.counters[counter.id] = CounterValue(10 + Int(random.next() % 30), answeredAt: date)
        }
        let noteLength = Int(random.next() % 4 == 0 ? random.next() % 400 : 0)
        result.notes = noteLength > 0 ? String(repeating: "observed ", count: noteLength / 9 + 1) : ""
        result.verdict = fails ? .fail : .pass
        if check.expected.isEmpty { result.verdict = fails ? .fail : .pass }
        result.updatedAt = date
        return result
    }
}

/// A small, seeded random generator, so every run builds the same database.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
