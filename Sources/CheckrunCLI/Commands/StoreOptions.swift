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
        do {
            return try ResultStore(path: databasePath)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
