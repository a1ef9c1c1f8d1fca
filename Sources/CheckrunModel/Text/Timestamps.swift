import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// UTC timestamps as reports and listings print them (`2026-11-29T19:15:33Z`). Written by hand
/// because a Foundation date formatter per value, and then `String(format:)`, dominated
/// report time: a report prints several timestamps for each of thousands of results.
package enum Timestamps {
    package static func iso8601(_ date: Date) -> String {
        let parts = components(date)
        return day(parts) + "T" + padded(parts.hour, 2) + ":" + padded(parts.minute, 2) + ":" + padded(parts.second, 2) + "Z"
    }

    /// The day alone: `2026-11-29`.
    package static func day(_ date: Date) -> String {
        day(components(date))
    }

    private static func day(_ parts: (year: Int32, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32)) -> String {
        padded(parts.year, 4) + "-" + padded(parts.month, 2) + "-" + padded(parts.day, 2)
    }

    /// `value` with leading zeros up to `width` digits, as `%0*d` writes it.
    private static func padded(_ value: Int32, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        let zeros = width - digits.count - sign.count
        return zeros > 0 ? sign + String(repeating: "0", count: zeros) + digits : sign + digits
    }

    private static func components(_ date: Date) -> (year: Int32, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32) {
        // A time edited by hand into the database (NaN, 1e300) prints as the nearest it can,
        // never traps: verify names the edit.
        let raw = date.timeIntervalSince1970
        var seconds = time_t(raw.isNaN ? 0 : min(max(raw.rounded(.down), -62_135_596_800), 253_402_300_799))
        var value = tm()
        gmtime_r(&seconds, &value)
        return (value.tm_year + 1900, value.tm_mon + 1, value.tm_mday, value.tm_hour, value.tm_min, value.tm_sec)
    }
}
