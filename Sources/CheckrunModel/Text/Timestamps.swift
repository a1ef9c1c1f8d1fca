import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// UTC timestamps as reports and listings print them (`2026-11-29T19:15:33Z`). Written by hand
/// because creating a Foundation date formatter per value dominated report time.
public enum Timestamps {
    public static func iso8601(_ date: Date) -> String {
        let parts = components(date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second)
    }

    /// The day alone: `2026-11-29`.
    public static func day(_ date: Date) -> String {
        let parts = components(date)
        return String(format: "%04d-%02d-%02d", parts.year, parts.month, parts.day)
    }

    private static func components(_ date: Date) -> (year: Int32, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32) {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var value = tm()
        gmtime_r(&seconds, &value)
        return (value.tm_year + 1900, value.tm_mon + 1, value.tm_mday, value.tm_hour, value.tm_min, value.tm_sec)
    }
}
