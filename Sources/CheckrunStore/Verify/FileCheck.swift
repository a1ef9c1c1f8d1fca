import Foundation

/// SQLite's own check of a database file (`PRAGMA quick_check`) and the scan for ids checkrun
/// did not write, run on another thread with a connection of its own, beside the chains'
/// verification: both read whole tables, and one after the other they took as long as the
/// floor `verify` is measured against.
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
                let damage = lines == ["ok"] ? [] : lines.prefix(5).map { "the file is damaged (SQLite: \($0))" }
                outcome = .success(damage + (try ResultStore(readingDatabase: database).idFormProblems()))
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
