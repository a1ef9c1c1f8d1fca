import Foundation

/// SQLite's own check of a database file (`PRAGMA quick_check`), run on another thread with a
/// connection of its own, so it costs no time beside the chains' verification.
final class FileCheck: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<[String], any Error> = .success([])

    init(path: String) {
        DispatchQueue.global().async { [self] in
            defer { done.signal() }
            do {
                let database = try Database(path: path, create: false, readOnly: true)
                defer { database.close() }
                let lines = try database.query("PRAGMA quick_check") { $0.string(0) ?? "" }
                outcome = .success(lines == ["ok"] ? [] : lines.prefix(5).map { "the file is damaged (SQLite: \($0))" })
            } catch {
                outcome = .failure(error)
            }
        }
    }

    /// Waits for the check; what SQLite found, in words.
    func problems() throws -> [String] {
        done.wait()
        return try outcome.get()
    }
}
