import CheckrunStore

/// Options shared by the commands that read or write results.
enum StoreOptions {
    static let database = OptionDefinition(.db, .value("PATH"), help: "The results database: a file, or a team store's postgresql:// address (default: $CHECKRUN_DB, else ./checkrun.sqlite).", completion: .file)
}

extension CommandContext {
    /// `--db PATH`, else `CHECKRUN_DB`, else `./checkrun.sqlite`.
    var databasePath: String {
        arguments.value(.db) ?? environment["CHECKRUN_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? ResultStore.defaultPath
    }

    /// The results database as messages name it: never with a server's password.
    var databaseName: String { ServerAddress.shown(databasePath) }

    /// Opens the results database. Commands that only read pass `.readOnly`, and those that
    /// change an existing one `.existingOnly`: neither creates a file, so a mistyped path fails
    /// instead of "verifying" an empty database.
    func openStore(_ access: ResultStore.Access = .createIfMissing) throws -> ResultStore {
        let path = databasePath
        if path.isEmpty || path == ":memory:" {
            // SQLite would keep the answers in a temporary database and lose them at exit.
            throw UsageError("--db needs a file name; an empty one would keep nothing, e.g. --db checkrun.sqlite")
        }
        do {
            let store = try ResultStore(path: path, access: access) { [self] from, to in
                printError("Upgrading \(databaseName) from schema version \(from) to \(to), once; on a large database this takes a few minutes. Nothing is lost if it is stopped.")
            }
            remember(store)
            return store
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
