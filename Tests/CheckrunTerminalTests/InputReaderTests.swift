import CheckrunTerminal
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Lines read the way they were typed or piped: CRLF is one line end in a file, and on a
/// terminal an Enter typed after a line that ended in raw mode (CR) is an answer of its own.
@Suite struct InputReaderTests {
    @Test func onATerminalAnEnterAfterALineTypedInRawModeIsAnEmptyAnswer() throws {
        var master: Int32 = 0, slave: Int32 = 0
        #expect(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master); close(slave) }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        let reader = InputReader(fileDescriptor: slave)
        write(master, "a /tmp/shot.png\r", 16)
        #expect(reader.readLine() == "a /tmp/shot.png")
        write(master, "\n", 1)
        #expect(reader.readLine() == "", "the Enter at the next prompt is not the second half of a CRLF")
        write(master, "x\r\nnext\n", 8)
        #expect(reader.readLine() == "x")
        #expect(reader.readLine() == "next", "a CRLF that arrives whole is one line end")
    }

    @Test func inAPipeACRLFSplitBetweenReadsIsOneLineEnd() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let reader = InputReader(fileDescriptor: ends[0])
        write(ends[1], "first\r", 6)
        #expect(reader.readLine() == "first")
        write(ends[1], "\nsecond\r\n\r\nfourth", 17)
        close(ends[1])
        #expect(reader.readLine() == "second")
        #expect(reader.readLine() == "", "an empty line stays an empty line")
        #expect(reader.readLine() == "fourth")
        #expect(reader.readLine() == nil)
    }
}
