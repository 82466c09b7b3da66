import Testing
@testable import GhostServer
import TestSupport

/// The PROXY protocol's text line (version 1), as HAProxy's `send-proxy`
/// writes it, parsed without a socket; and a daemon behind a
/// `--trusted-proxy` counting its clients by the networks those lines name.
@Suite("The PROXY protocol line, parsed and behind a --trusted-proxy", .ownThread)
struct ProxyLineTests {
    private func parse(_ text: String) -> ProxyLine? { ProxyLine.parse(Array(text.utf8)) }

    @Test("TCP4 and TCP6 lines name the client; UNKNOWN names none")
    func wellFormed() {
        #expect(parse("PROXY TCP4 203.0.113.7 127.0.0.1 56324 7777") == .client("203.0.113.7"))
        #expect(parse("PROXY TCP6 2001:db8::1 ::1 56324 7777") == .client("2001:db8::1"))
        #expect(parse("PROXY UNKNOWN") == .unknown)
        #expect(parse("PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535") == .unknown)
    }

    @Test("Anything else is not a PROXY line: bad addresses, ports, families, fields, lengths")
    func malformed() {
        for text in ["PING", "PROXY", "PROXY ", "proxy TCP4 203.0.113.7 127.0.0.1 1 2", "PROXY TCP4 203.0.113.7 127.0.0.1 1",
                     "PROXY TCP4 203.0.113.7 127.0.0.1 1 2 3", "PROXY TCP4 203.0.113.300 127.0.0.1 1 2",
                     "PROXY TCP4 2001:db8::1 127.0.0.1 1 2", "PROXY TCP6 203.0.113.7 ::1 1 2",
                     "PROXY TCP4 203.0.113.7 127.0.0.1 65536 2", "PROXY TCP4 203.0.113.7 127.0.0.1 -1 2",
                     "PROXY UDP4 203.0.113.7 127.0.0.1 1 2", "PROXY TCP4  203.0.113.7 127.0.0.1 1 2",
                     "PROXY TCP4 \u{1b}[2J 127.0.0.1 1 2",
                     "PROXY UNKNOWN " + String(repeating: "x", count: 120)] {
            #expect(parse(text) == nil, "\(text)")
        }
        #expect(ProxyLine.parse([0x50, 0x52, 0x4f, 0x58, 0x59, 0x20, 0xff, 0xfe]) == nil)
    }

    @Test("A relay's line names its client only with the cluster's secret (compared whole) and an address")
    func relayLine() {
        let secret = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
        func client(_ text: String) -> String? { RelayLine.client(Array(text.utf8), secret: secret) }
        #expect(RelayLine.line(secret: secret, client: "203.0.113.7", port: .tls, node: "b-2")
                == "RELAY \(secret) 203.0.113.7 tls b-2")
        #expect(RelayLine.parse(Array("RELAY \(secret) 203.0.113.7 web-tls node.b:7777".utf8), secret: secret)
                == RelayLine.Relayed(client: "203.0.113.7", port: .webTLS, node: "node.b:7777"))
        // The older form is a plain client's from an unnamed node.
        #expect(RelayLine.parse(Array("RELAY \(secret) 203.0.113.7".utf8), secret: secret)
                == RelayLine.Relayed(client: "203.0.113.7", port: .plain, node: ""))
        #expect(client("RELAY \(secret) 203.0.113.7") == "203.0.113.7")
        #expect(client("RELAY \(secret) 2001:db8::1") == "2001:db8::1")
        for text in ["RELAY \(secret.dropLast())0 203.0.113.7", "RELAY \(secret.dropLast()) 203.0.113.7", "RELAY \(secret)0 203.0.113.7",
                     "RELAY \(secret) ann", "RELAY \(secret)", "RELAY  \(secret) 203.0.113.7", "relay \(secret) 203.0.113.7",
                     "PROXY TCP4 203.0.113.7 127.0.0.1 1 2", "RELAY \(secret) 203.0.113.7 extra",
                     "RELAY \(secret) 203.0.113.7 plain", "RELAY \(secret) 203.0.113.7 ssh b", "RELAY \(secret) 203.0.113.7 plain b c",
                     "RELAY \(secret) 203.0.113.7 plain \u{1b}[2J", "RELAY \(secret) 203.0.113.7 plain " + String(repeating: "b", count: 65)] {
            #expect(client(text) == nil, "\(text)")
        }
        #expect(RelayLine.client(Array("RELAY  203.0.113.7".utf8), secret: "") == nil)
    }

    @Test("Behind a --trusted-proxy, a plain connection's first PROXY line makes it count by its client's network (BYE full past --max-clients-per-ip; new names counted per client network); from anyone else it is an unknown command")
    func daemonBehindAProxy() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--max-clients-per-ip", "1", "--trusted-proxy", "127.0.0.1",
                                                             "--max-new-names-per-minute", "1"])
        defer { daemon.kill() }
        // Two clients of the proxy, each its own network: both served, though both come from 127.0.0.1.
        let ann = try LineClient(port: daemon.port, label: "ann")
        try ann.send("PROXY TCP4 203.0.113.7 127.0.0.1 40001 7777")
        try ann.send("PING")
        try ann.expect("OK PING")
        // New names count by the client's network too (one each here), not the proxy's.
        try ann.send("NAME ann")
        try ann.expect("OK NAME name=ann lang=en")
        let ben = try LineClient(port: daemon.port, label: "ben")
        try ben.send("PROXY TCP4 203.0.113.8 127.0.0.1 40002 7777")
        try ben.send("NAME ben")
        try ben.expect("OK NAME name=ben lang=en")
        #expect(daemon.waitForStderrLine { $0.hasSuffix("carries 203.0.113.8 (PROXY line from 127.0.0.1:\(ben.localPort))") } != nil,
                "\(daemon.stderrText)")
        // A second client from ann's network: over its limit of one.
        let cat = try LineClient(port: daemon.port, label: "cat")
        try cat.send("PROXY TCP4 203.0.113.7 127.0.0.1 40003 7777")
        try cat.expect("BYE full too many connections from 203.0.113.7 (at most 1)")
        try cat.expectClosed()
        // Only the first line may be one; later, and from an address not trusted, it is a line like any other.
        try ann.send("PROXY TCP4 203.0.113.9 127.0.0.1 40004 7777")
        try ann.expect("ERR unknown-command unknown command; play one letter per line, or send HELP for the commands")
        let dan = try LineClient(port: daemon.port, label: "dan", source: "127.0.0.2")
        try dan.send("PROXY TCP4 203.0.113.10 127.0.0.1 40005 7777")
        try dan.expect("ERR unknown-command unknown command; play one letter per line, or send HELP for the commands")
    }
}
