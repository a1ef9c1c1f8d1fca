import CSQLite
import CheckrunModel
import Foundation

extension Database {
    /// SQL functions checkrun's own queries use. `checkrun_is_id(x)` is 1 when `x` is text
    /// spelling an id as checkrun stores ids (see `UUID.isStorageSpelling`), else 0: `verify`
    /// asks it of every row of the parts tables, where `x <> upper(x)` made a string per row
    /// and was a tenth of the whole check.
    func defineFunctions() {
        sqlite3_create_function_v2(handle, "checkrun_is_id", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, values in
            guard count == 1, let value = values?[0], sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else {
                sqlite3_result_int(context, 0)
                return
            }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
            sqlite3_result_int(context, UUID.isStorageSpelling(bytes) ? 1 : 0)
        }, nil, nil, nil)
    }
}
