import Foundation
import Testing
import GhostProtocol
import GhostStore
import TestSupport
@testable import GhostServer
#if canImport(Glibc)
import Glibc
#endif

/// The pure parts of an operator's request through a cluster's relay port
/// (OperatorRelay.swift, ConnectionIO+Operator.swift) and of STATS' count
/// of connections by entry node (Stats.swift), in this process.
struct OperatorRelayTests {
    @Test("The command reads the leader's answer: ok and error lines, ERR store-failed and a BYE before any answer are failures, the greeting is skipped")
    func answers() throws {
        #expect(try OperatorRelay.answer("HELLO ghostd/0.4.0 protocol=2 languages=en", node: "a") == nil)
        #expect(try OperatorRelay.answer("ok: ann: banned until lifted", node: "a") == .done("ann: banned until lifted"))
        #expect(throws: OperatorRelay.Failure.refused("request refused: unknown request \"x\"")) {
            try OperatorRelay.answer("error: request refused: unknown request \"x\"", node: "a")
        }
        #expect(throws: OperatorRelay.Failure.refused("node a could not store it; nothing changed")) {
            try OperatorRelay.answer("ERR store-failed the server could not store that", node: "a")
        }
        #expect(throws: OperatorRelay.Failure.closed(node: "a", bye: "BYE shutdown not a relay of this server")) {
            try OperatorRelay.answer("BYE shutdown not a relay of this server", node: "a")
        }
        #expect(OperatorRelay.Failure.closed(node: "a", bye: "BYE shutdown x").description == "node a did not take the request (BYE shutdown x); nothing changed")
        #expect(OperatorRelay.Failure.closed(node: "a", bye: "").description
                == "node a closed the connection without answering: see `ghostd accounts list` for whether it was done")
    }

    @Test("The command's line reader: lines split at LF with or without CR, across reads, the end of the stream seen")
    func lineReader() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]) }
        let deadline = monotonicSeconds() + 30
        func write(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fds[1], $0.baseAddress, $0.count) } }
        var reader = OperatorRelay.LineReader()
        write("HELLO x\r\nok: a")
        #expect(reader.next(fds[0], deadline: deadline) == "HELLO x")
        write("nn: muted\nBYE quit done\r\n")
        #expect(reader.next(fds[0], deadline: deadline) == "ok: ann: muted")
        #expect(reader.next(fds[0], deadline: deadline) == "BYE quit done")
        close(fds[1])
        #expect(reader.next(fds[0], deadline: deadline) == nil)
        #expect(reader.ended)
    }

    @Test("The leader reads an operator relay's request line as untrusted input: the request files' form, at most their length, UTF-8, one line")
    func requestLines() {
        #expect(ConnectionIO.operatorAction(.line(Array("ban ann until=forever".utf8))) == .success(.ban(name: "ann", until: nil)))
        #expect(ConnectionIO.operatorAction(.line(Array("mute Bob_2 until=1796000000".utf8))) == .success(.mute(name: "Bob_2", until: 1_796_000_000)))
        #expect(ConnectionIO.operatorAction(.tooLong) == .failure("the request is longer than \(LineFramer.defaultMaxLineBytes) bytes"))
        #expect(ConnectionIO.operatorAction(.line([0x62, 0x61, 0x6E, 0x20, 0xFF])) == .failure("the request is not UTF-8 text"))
        #expect(ConnectionIO.operatorAction(.line(Array("delete ann".utf8))) == .failure("unknown request \"delete\""))
        #expect(ConnectionIO.operatorAction(.line(Array("ban ann".utf8))) == .failure("ban takes a name and until="))
        #expect(ConnectionIO.operatorAction(.line(Array(String(repeating: "x", count: OperatorRequest.maxBytes + 1).utf8)))
                == .failure("the request is longer than \(OperatorRequest.maxBytes) bytes"))
    }

    @Test("With --store, the folder's own ghostd is asked through its request files only if it holds the folder's lock and said it takes requests; the probe makes nothing")
    func folderDaemonProbe() throws {
        let data = try DataDirectory()
        let missing = data.path + "/nowhere"
        #expect(OperatorClient.daemonTakingRequests(data: missing) == nil)
        #expect(access(missing, F_OK) != 0)
        #expect(OperatorClient.daemonTakingRequests(data: data.path) == nil)   // no pidfile
        let lock = try DataFolderLock(directory: data.path)
        #expect(OperatorClient.daemonTakingRequests(data: data.path) == nil)   // held, but no `ready`
        #expect(mkdir(data.path + "/operator", 0o700) == 0)
        #expect(OperatorRequest.writeAtomically("\(getpid())\n", folder: data.path + "/operator", temporary: ".r", final: "ready") == nil)
        #expect(OperatorClient.daemonTakingRequests(data: data.path) == Int(getpid()))
        lock.unlock()
        #expect(OperatorClient.daemonTakingRequests(data: data.path) == nil)   // `ready` left, the lock not held
    }

    @Test("Connections by entry node: counted once when a relay names its node, uncounted once when it closes, a direct connection never")
    func entryCounts() {
        let stats = ServerStats(startedAt: 0)
        let one = Connection(id: 3, fd: -1, peer: "127.0.0.1:1", now: 0)
        let two = Connection(id: 4, fd: -1, peer: "127.0.0.1:2", now: 0)
        let three = Connection(id: 5, fd: -1, peer: "127.0.0.1:3", now: 0)
        let direct = Connection(id: 6, fd: -1, peer: "127.0.0.1:4", now: 0)
        stats.entered(one, through: "node-b")
        stats.entered(two, through: "node-b")
        stats.entered(three, through: "node-c")
        stats.entered(one, through: "node-c")   // a connection enters once
        #expect(one.entryNode == "node-b" && stats.relayed(through: "node-b") == 2 && stats.relayed(through: "node-c") == 1)
        #expect(stats.relayedTotal == 3)
        stats.left(direct)
        stats.left(one)
        stats.left(one)   // closed once
        #expect(stats.relayed(through: "node-b") == 1 && stats.relayedTotal == 2 && one.entryNode == nil)
        stats.left(two)
        stats.left(three)
        #expect(stats.relayed(through: "node-b") == 0 && stats.relayed(through: "node-c") == 0 && stats.relayedTotal == 0)
    }
}
