import CGhostSys
import GhostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Plain line mode, for pipes and scripts: prints each server line (control
/// characters removed) and sends each line read from stdin; a line holding
/// one letter is a move, as the server reads it. At the end of stdin it sends
/// QUIT and prints the rest of the replies until the server closes.
/// Exit status: 0 when the server closed after QUIT, 1 if the connection
/// failed or dropped, 128+n on signal n.
final class LineMode {
    let connection: Connection
    private var input: [UInt8] = []
    private var stdinOpen = true
    private var quitSent = false

    init(address: ServerAddress) {
        connection = Connection(address: address)
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
            if !input.isEmpty { sendLine(input) }
            input = []
            connection.send("QUIT")
            quitSent = true
            return
        }
        input += buf[0..<n]
        while let lf = input.firstIndex(of: 0x0A) {
            sendLine(Array(input[..<lf]))
            input.removeSubrange(...lf)
        }
        // A runaway line: pass it on in pieces; the server refuses it anyway.
        if input.count > 4096 {
            sendLine(input)
            input = []
        }
    }

    private func sendLine(_ bytes: [UInt8]) {
        var line = bytes
        if line.last == 0x0D { line.removeLast() }
        let text = String(decoding: line, as: UTF8.self)
        if text.trimmingSpaces.uppercased() == "QUIT" { quitSent = true }
        connection.send(text)
    }

    private func printLine(_ text: String) {
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter {
            !($0.value < 0x20 && $0.value != 0x09) && !(0x7F...0x9F).contains($0.value)
        }))
        _ = Sys.writeAll(1, Array((clean + "\n").utf8))
    }
}
