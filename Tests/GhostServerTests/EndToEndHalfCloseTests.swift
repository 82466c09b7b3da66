import Foundation
import Testing
import GhostProtocol
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A client that shuts its sending side after its
/// commands (`printf 'NAME x\nNEW bot=easy\np\n' | nc -N`) got none of their
/// replies with `--durability full` (all three with `normal`): ghostd dropped
/// the connection at the end of its input, before the replies that wait for
/// the sync were written. Now it gets every reply it is owed, then the end of
/// the stream; one that does not read them is still dropped after the close
/// grace. No time is measured: each test waits for lines, the end of the
/// stream or a log line; the timeouts only bound a failure.
@Suite("EndToEnd: a half-closed client gets its replies", .ownThread, .hangLimit)
struct EndToEndHalfCloseTests {
    /// Connects and reads the HELLO.
    static func connect(_ d: DaemonProcess, receiveBuffer: Int32? = nil, maxSegment: Int32? = nil,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> RawSocket {
        let s = try RawSocket.connect(port: d.port, receiveBuffer: receiveBuffer, maxSegment: maxSegment).get()
        let hello = s.readLine(timeout: 10) ?? "nothing"
        #expect(hello.hasPrefix(LineClient.helloPrefix), "got \(hello)", sourceLocation: sourceLocation)
        return s
    }

    @Test("NAME, NEW bot=easy and a letter, then shutdown(SHUT_WR), with the default --durability full: every reply (OK NAME, OK NEW, GAME, TURN, OK LETTER), then the end of the stream, no reset; the game is adjourned and resumes")
    func halfClosedClientGetsEveryReply() throws {
        let d = try DaemonProcess.start()
        defer { d.kill() }
        let name = E2E.name("half")
        let s = try Self.connect(d)
        // All three at once, then the end of its input, as `nc -N` sends them.
        #expect(s.send(Array("NAME \(name)\nNEW bot=easy\np\n".utf8)) == .sent)
        #expect(shutdown(s.fd, Int32(SHUT_WR)) == 0, "shutdown: \(String(cString: strerror(errno)))")
        let (lines, closed) = s.readToEOF(timeout: 20)
        #expect(closed, "no end of the stream within 20 s; got \(lines)")
        #expect(!s.wasReset, "reset after \(lines)")
        #expect(lines.first == "OK NAME name=\(name) lang=en", "\(lines)")
        #expect(lines.contains("OK NEW bot=easy lang=en"), "\(lines)")
        let game = lines.first { $0.hasPrefix("GAME ") && $0.contains(" players=\(name),bot-easy ") }
        #expect(game != nil, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("TURN ") && $0.contains(" player=\(name) fragment=") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("OK LETTER ") && $0.contains("letter=p") }, "\(lines)")
        // In that order, and nothing after its end but what the game sent (no BYE: the client went).
        let okNew = lines.firstIndex(of: "OK NEW bot=easy lang=en") ?? -1
        let okLetter = lines.firstIndex { $0.hasPrefix("OK LETTER ") } ?? -1
        #expect(0 < okNew && okNew < okLetter, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("BYE ") }, "\(lines)")
        #expect(d.closeReason(localPort: s.localPort, timeout: 10) == "closed by peer")

        // Its game was adjourned when it closed, not lost: its token resumes it.
        let token = try #require(game.flatMap { Message.parse($0)?["token"] }, "no token in \(game ?? "no GAME")")
        let back = try LineClient(port: d.port, label: "back")
        try back.send("RESUME \(token)")
        let resumed = try back.readUntil(prefix: "GAME ", timeout: 10)
        #expect(resumed.line.contains(" players=\(name),bot-easy "), "\(resumed)")
        #expect(d.isRunning)
    }

    @Test("A half-closed client that does not read its replies is dropped after the close grace (closed by peer; last replies not read)")
    func halfClosedNonReaderIsDropped() throws {
        let d = try DaemonProcess.start()
        defer { d.kill() }
        // Small kernel buffers: most of 160 HELPs' replies wait in ghostd (LimitsTests.helps160).
        let s = try Self.connect(d, receiveBuffer: 4096, maxSegment: 536)
        #expect(s.send("NAME \(E2E.name("halfmute"))") == .sent)
        #expect(s.send(try LimitsTests.helps160(d)) == .sent)
        #expect(shutdown(s.fd, Int32(SHUT_WR)) == 0, "shutdown: \(String(cString: strerror(errno)))")
        // It never reads: ghostd gives up on it.
        #expect(d.closeReason(localPort: s.localPort, timeout: 20) == "closed by peer; last replies not read")
        // And serves others meanwhile and after.
        let other = try LineClient(port: d.port, label: "other")
        try other.ping()
        #expect(d.isRunning)
    }
}
