import CheckrunModel
import Foundation

/// The capture command (`--capture CMD` or `CHECKRUN_CAPTURE`): a shell command with `{file}`
/// where the file it writes goes, e.g. `xcrun simctl io booted screenshot {file}`. It runs
/// with no input; what it prints to standard error is kept to explain a failure.
struct Capture {
    let template: String

    /// Runs the command and returns the file it wrote, in a folder of its own that the caller
    /// removes. Throws, with the exit status and the start of the error output, when the
    /// command fails or writes nothing.
    func run(at date: Date) throws -> (file: String, folder: String) {
        guard template.contains("{file}") else {
            throw CommandFailure("the capture command has no {file} to say where it writes, e.g. --capture \"xcrun simctl io booted screenshot {file}\"")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkrun-capture-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let stamp = Timestamps.iso8601(date).filter { $0.isNumber }
        let file = (folder as NSString).appendingPathComponent("capture-\(stamp).png")
        let quoted = "'" + file.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", template.replacingOccurrences(of: "{file}", with: quoted)]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do { try process.run() } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw CommandFailure("the capture command could not be started: \(error.localizedDescription)")
        }
        // Only the start of the error output is kept: a command may print without end.
        var said = Data()
        while case let chunk = errors.fileHandleForReading.availableData, !chunk.isEmpty {
            if said.count < 4096 { said.append(chunk.prefix(4096 - said.count)) }
        }
        process.waitUntilExit()
        let text = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let output = DisplayText.neutralised(String(text.prefix(200))) + (text.count > 200 ? "…" : "")
        let status = process.terminationStatus
        if status != 0 || !FileManager.default.fileExists(atPath: file) {
            try? FileManager.default.removeItem(atPath: folder)
            let why = status != 0 ? "failed with exit status \(status)" : "finished but wrote no file"
            throw CommandFailure("the capture command \(why)\(output.isEmpty ? "" : ": \(output)"). Nothing was attached; attach a file with a PATH instead, or fix the command")
        }
        return (file, folder)
    }
}
