import CGhostSys
import GhostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Plain line mode, for pipes and scripts: prints each server line (control
/// characters removed) and sends each line read from stdin, as it is; a line
/// holding one letter is a move, as the server reads it. Input is framed like
/// the server frames it (`LineFramer`, LF or CRLF, at most 512 bytes with the
/// line end): a longer line is not sent, and a note goes to stderr. At the end
/// of stdin it sends QUIT and prints the rest of the replies until the server
/// closes.
/// Exit status: 0 when the server closed after QUIT, 1 if the connection
/// failed or dropped, 128+n on signal n.
final class LineMode {
    let connection: Connection
    private var framer = LineFramer()
    private var stdinOpen = true
    private var quitSent = false

    /// Whether a line carrying a password may be sent (see `PasswordTransport`).
    let passwordsAllowed: Bool

    init(address: ServerAddress, tls: TLSSettings? = nil, insecure: Bool = false) {
        connection = Connection(address: address, tls: tls)
        passwordsAllowed = tls != nil || insecure || address.isLoopback
    }

    func run() -> Int32 {
        let signals = ghost_client_signalfd_open()
        defer { if signals >= 0 { close(signals) } }
        if let why = connection.start() {
            ClientApp.printError("ghost-client: \(why)")
            return 1
        }
        while true {
            var fds = [pollfd(fd: connection.fd, events: connection.pollEvents, revents: 0)]
            if signals >= 0 { fds.append(pollfd(fd: signals, events: Int16(POLLIN), revents: 0)) }
            // Read commands only once connected, so a refused connection is reported first.
            let stdinSlot = stdinOpen && connection.isConnected ? fds.count : -1
            if stdinSlot >= 0 { fds.append(pollfd(fd: 0, events: Int16(POLLIN), revents: 0)) }
            let r = poll(&fds, nfds_t(fds.count), -1)
            if r < 0 {
                if errno == EINTR { continue }
                return 1
            }
            if signals >= 0, fds[1].revents != 0 {
                let sig = ghost_signalfd_read(signals)
                if sig != 0 && sig != SIGWINCH { return 128 + sig }
            }
            if fds[0].revents != 0 {
                for e in connection.handle(revents: fds[0].revents) {
                    switch e {
                    case .connected: break
                    case .line(let text): printLine(text)
                    case .closed(let why):
                        if quitSent { return 0 }
                        ClientApp.printError("ghost-client: \(why)")
                        return 1
                    case .refused(let why):
                        ClientApp.printError("ghost-client: \(why)")
                        return 1
                    }
                }
            }
            if stdinSlot >= 0, fds[stdinSlot].revents != 0 { readInput() }
        }
    }

    private func readInput() {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return }
        if n <= 0 {
            stdinOpen = false
            // A last line without its LF is still a line.
            if framer.pendingBytes > 0 { for f in framer.feed([0x0A]) { frame(f) } }
            connection.send(Command.quit.rendered)
            quitSent = true
            return
        }
        buf.withUnsafeBytes { raw in
            framer.feed(UnsafeRawBufferPointer(rebasing: raw[0..<n])) { frame($0) }
        }
    }

    private func frame(_ frame: LineFramer.Frame) {
        switch frame {
        case .line(let bytes):
            // Sent as read: the server judges it (encoding included).
            if !passwordsAllowed, AccountCommand.carriesPassword(bytes) {
                ClientApp.printError("ghost-client: a line with a password was not sent: it would cross the network unencrypted;"
                                     + " connect with --tls, or give --insecure to send it anyway")
                return
            }
            if case .success(.quit?) = CommandParser.parse(bytes) { quitSent = true }
            connection.send(bytes: bytes)
        case .tooLong:
            ClientApp.printError("ghost-client: a line longer than \(LineFramer.defaultMaxLineBytes) bytes (with its line end) was not sent")
        }
    }

    private func printLine(_ text: String) {
        _ = Sys.writeAll(1, Array((Sanitize.strippingControls(text, keepingTabs: true) + "\n").utf8))
    }
}
