import CheckrunStore

/// Options shared by the commands that read or write results.
enum StoreOptions {
    static let database = OptionDefinition(
        "db", .value("PATH"), help: "The results database (default: $CHECKRUN_DB, else ./checkrun.sqlite).", completion: .file)
}

extension CommandContext {
    /// `--db PATH`, else `CHECKRUN_DB`, else `./checkrun.sqlite`.
    var databasePath: String {
        arguments.value("db") ?? environment["CHECKRUN_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? ResultStore.defaultPath
    }

    func openStore() throws -> ResultStore {
        let path = databasePath
        do {
            return try ResultStore(path: path) { [self] from, to in
                printError("Upgrading \(path) from schema version \(from) to \(to), once; on a large database this takes a few minutes. Nothing is lost if it is stopped.")
            }
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
