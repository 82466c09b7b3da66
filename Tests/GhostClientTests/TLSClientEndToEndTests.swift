import Foundation
import Testing
@testable import GhostClient
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The full-screen client over TLS in a real terminal (tmux), against
/// `openssl s_server` playing the server's side by hand: a certificate that
/// does not verify is shown plainly; with `--tls-ca` the client logs in to a
/// registered name, the password typed with nothing echoed, and it never
/// reaches the settings file.
@Suite("EndToEnd: ghost-client --tls", .ownThread, .serialized)
struct TLSClientEndToEndTests {
    static func command(_ tmux: Tmux, _ label: String, host: String, port: Int, extra: String) throws -> String {
        "sh -c 'exec env NO_COLOR=1 \(try ClientBinary.path()) --config \(tmux.folder)/\(label)/config \(extra) \(host):\(port)'"
    }

    static func waitForReceived(_ server: TLSServer, _ text: String) -> Bool {
        let deadline = monotonicNow() + 20
        while !server.received.contains(text), monotonicNow() < deadline { usleep(20_000) }
        return server.received.contains(text)
    }

    @Test("--tls against a self-signed certificate: the screen says it could not be verified, and why")
    func refusedOnScreen() throws {
        let cert = try TestCertificate.make()
        defer { cert.remove() }
        let server = try TLSServer(certificate: cert)
        defer { server.stop() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("ann", width: 60, height: 20)
        try HangmanEndToEndTests.writeConfig(tmux, "ann", name: "ann")
        try tmux.waitFor("ann", "the shell prompt") { $0.last(where: { !$0.isEmpty }) == "$" }
        try tmux.shell("ann", try Self.command(tmux, "ann", host: "localhost", port: server.port, extra: "--tls"))
        let screen = try tmux.waitFor("ann", "the refusal") { $0.joined(separator: " ").contains("self-signed certificate") }
        let text = screen.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("Not connected: the server's certificate could not be verified: self-signed certificate. Ctrl-C quits."), "\(screen)")
        #expect(!server.received.contains("LANG"))
    }

    @Test("--tls-ca: the name is registered, the password is asked with • for each character, sent in one NAME line, and never saved")
    func loginOverTLS() throws {
        let cert = try TestCertificate.make()
        defer { cert.remove() }
        let server = try TLSServer(certificate: cert)
        defer { server.stop() }
        let tmux = try Tmux()
        defer { tmux.kill() }
        try tmux.newSession("ann")
        try HangmanEndToEndTests.writeConfig(tmux, "ann", name: "ann")
        try tmux.waitFor("ann", "the shell prompt") { $0.last(where: { !$0.isEmpty }) == "$" }
        try tmux.shell("ann", try Self.command(tmux, "ann", host: "localhost", port: server.port, extra: "--tls-ca \(cert.cert)"))
        // s_server passes its input on once a client has connected.
        server.send("HELLO ghostd/0.4.0 protocol=2 languages=en,nl\r\n")
        #expect(Self.waitForReceived(server, "LANG en\nNAMES\n"))
        server.send("OK LANG lang=en\r\nOK NAMES count=0 more=no\r\n")
        try tmux.waitFor("ann", text: "Name: _")
        try tmux.keys("ann", "Enter")
        #expect(Self.waitForReceived(server, "NAME ann\n"))
        server.send("ERR password-required\r\n")
        try tmux.waitFor("ann", text: "Password: _")
        try tmux.type("ann", "sec ret words")
        let typed = try tmux.waitFor("ann", text: "Password: •••••••••••••_")
        #expect(!typed.joined().contains("sec ret"))
        try tmux.keys("ann", "Enter")
        #expect(Self.waitForReceived(server, "NAME ann sec ret words\n"))
        server.send("OK NAME name=ann lang=en registered=yes\r\n")
        try tmux.waitFor("ann", text: "a  Change your password")
        let config = try String(contentsOfFile: "\(tmux.folder)/ann/config", encoding: .utf8)
        #expect(config.contains("name=ann"))
        #expect(!config.contains("sec ret"))
        #expect(Self.waitForReceived(server, "SETTINGS\n"))
        #expect(server.received == "LANG en\nNAMES\nNAME ann\nNAME ann sec ret words\nSETTINGS\n")
    }
}
