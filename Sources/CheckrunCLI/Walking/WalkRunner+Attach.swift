import CheckrunModel
import CheckrunStore
import CheckrunWalk
import Foundation

/// Attaching during the walk: the file named, or the capture command's, is stored whole or
/// not at all; a failure is said in words and the walk stays at the same prompt.
extension WalkRunner {
    /// The largest file accepted (`--max-attachment`), and the capture command, if any.
    var attachmentLimit: Int { (try? AttachmentOptions.limit(context.arguments)) ?? ResultStore.defaultAttachmentLimit }

    var capture: Capture? {
        (context.arguments.value(.capture) ?? context.environment["CHECKRUN_CAPTURE"]).flatMap { $0.isEmpty ? nil : Capture(template: $0) }
    }

    /// The text pasted while the timer runs, when it names a file as a terminal pastes one
    /// dragged onto it (quoted, escaped, a file URL, an absolute path); nil for other text.
    func droppedFile(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard ["/", "~/", "'", "\"", "file://"].contains(where: { trimmed.lowercased().hasPrefix($0) }),
              let path = DroppedPath.resolve(trimmed, home: context.environment["HOME"]), PathKind.of(path) == .file else { return nil }
        return trimmed
    }

    mutating func attach(_ request: AttachmentRequest) -> [WalkEvent] {
        let date = context.now()
        do {
            let attachment: Attachment
            if let typed = request.path {
                guard let path = DroppedPath.resolve(typed, home: context.environment["HOME"]) else { return [.say("Name the file to attach, e.g. a ~/Desktop/shot.png, or drag it onto the terminal.")] }
                attachment = try AttachmentOptions.attach(AttachmentOptions.Request(path: path, outcome: request.outcome, description: ""),
                                                          to: store, limit: attachmentLimit, at: date)
            } else {
                guard let capture else {
                    return [.say("No capture command is set. Attach a file with a followed by its path (drag it in), or start checkrun with --capture \"xcrun simctl io booted screenshot {file}\" or CHECKRUN_CAPTURE.")]
                }
                context.print("Capturing…")
                let captured = try capture.run(at: date)
                defer { try? FileManager.default.removeItem(atPath: captured.folder) }
                attachment = try AttachmentOptions.attach(AttachmentOptions.Request(path: captured.file, outcome: request.outcome, description: ""),
                                                          to: store, limit: attachmentLimit, at: date)
            }
            return walk.attached(attachment, for: request, date: date)
        } catch let error as CommandFailure {
            return [.say("Not attached: \(error.message)")]
        } catch {
            return [.say("Not attached: \(error)")]
        }
    }
}
