import Foundation

/// Opens another connection to the store a command uses, for reading beside it on another
/// thread (verification lanes, the file check): the same file read-only, or the same server.
struct StoreOpener: Sendable {
    let open: @Sendable () throws -> ResultStore

    static func sqlite(path: String, name: String, uri: Bool) -> StoreOpener {
        StoreOpener {
            ResultStore(readingDatabase: try Database(path: path, create: false, readOnly: true, uri: uri, name: name))
        }
    }
}

extension ResultStore {
    /// How to open another connection to this store.
    var opener: StoreOpener {
        if let sqlite { return .sqlite(path: sqlite.path, name: sqlite.name, uri: sqlite.isURI) }
        let name = database.name
        return serverOpener ?? StoreOpener { throw StoreError("cannot open another connection to \(name)") }
    }
}
