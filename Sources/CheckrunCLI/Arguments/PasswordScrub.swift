import CheckrunStore
import Foundation

/// A server password typed in `--db postgresql://user:password@…` is overwritten in the
/// process's own argument memory as soon as checkrun starts, so `ps` and /proc show stars
/// instead (the arguments were copied first, so the connection still has it). A moment
/// remains before checkrun starts; PGPASSWORD or ~/.pgpass leave no such moment.
enum PasswordScrub {
    static func scrubArgumentVector() {
        for index in 1..<max(1, Int(CommandLine.argc)) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let length = strlen(argument)
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: length))
            for range in ServerAddressText.passwordOffsets(in: bytes) {
                for offset in range { argument[offset] = CChar(UInt8(ascii: "*")) }
            }
        }
    }
}
