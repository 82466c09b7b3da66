import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// TLS for the end-to-end tests: self-signed certificates made by the
/// `openssl` command in a temporary folder, and `openssl s_client -quiet`
/// as a client (the netcat of TLS), fed lines through its stdin.
enum TLSTest {
    /// Runs `openssl` with `arguments`; returns its exit status and output (stdout and stderr).
    @discardableResult
    static func openssl(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["openssl"] + arguments
        let out = try TemporaryFile()
        p.standardOutput = FileHandle(fileDescriptor: out.fd, closeOnDealloc: false)
        p.standardError = FileHandle(fileDescriptor: out.fd, closeOnDealloc: false)
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let status = p.waitForExit()
        return (status, out.contents())
    }

    /// A self-signed certificate for `subject` (`/CN=first`) and its key,
    /// written as `<stem>-cert.pem` and `<stem>-key.pem` in `folder`.
    static func makeCertificate(in folder: String, stem: String, subject: String = "/CN=localhost") throws -> (cert: String, key: String) {
        let cert = "\(folder)/\(stem)-cert.pem", key = "\(folder)/\(stem)-key.pem"
        let r = try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                             "-days", "1", "-subj", subject, "-keyout", key, "-out", cert])
        guard r.status == 0 else { throw DaemonError("openssl req failed: \(r.output)") }
        return (cert, key)
    }

    /// The TLS port a daemon logged (`TLS port: HOST:PORT`, before `listening on`).
    static func port(of daemon: DaemonProcess) throws -> Int {
        guard let port = TestSupport.tlsPort(inLog: daemon.stderrLines) else {
            throw DaemonError("no TLS port in the log:\n\(daemon.stderrText)")
        }
        return port
    }

    /// The subject of the certificate a server presents, as `openssl
    /// s_client` prints it (`subject=CN = first`).
    static func subject(port: Int) throws -> String {
        let r = try openssl(["s_client", "-connect", "127.0.0.1:\(port)"])
        return r.output.split(separator: "\n").first(where: { $0.hasPrefix("subject=") }).map(String.init) ?? "(none) \(r.output)"
    }
}

/// A file in the temporary folder, for a child's output (no pipe to drain).
final class TemporaryFile {
    let path: String
    let fd: Int32

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/ghostd-tls-XXXXXX").utf8CString)
        fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw DaemonError("mkstemp failed") }
        path = String(cString: template)
    }

    func contents() -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    deinit {
        Glibc.close(fd)
        unlink(path)
    }
}

/// `openssl s_client -quiet -connect 127.0.0.1:PORT` as a line client: lines
/// go to its stdin, the server's lines come from its stdout (its own
/// chatter goes to stderr, kept for failure messages).
final class SClient: @unchecked Sendable {
    let label: String
    private let process = Process()
    private let input: FileHandle
    private let lock = NSCondition()
    private var buffer: [UInt8] = []
    private var eof = false
    /// Set by `stopReading`: s_client's stdout is no longer read.
    private var paused = false
    private let errors: TemporaryFile
    /// The first line, HELLO, once `readHello`.
    private(set) var hello = ""

    init(port: Int, label: String, readHello: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.label = label
        let stdin = Pipe(), stdout = Pipe()
        errors = try TemporaryFile()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "s_client", "-quiet", "-connect", "127.0.0.1:\(port)"]
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle(fileDescriptor: errors.fd, closeOnDealloc: false)
        try process.run()
        input = stdin.fileHandleForWriting
        let output = stdout.fileHandleForReading
        let reader = Thread { [lock] in
            while true {
                let data = output.availableData
                lock.lock()
                if data.isEmpty { self.eof = true } else { self.buffer += data }
                lock.broadcast()
                lock.unlock()
                if data.isEmpty { return }
                lock.lock()
                while self.paused && !self.eof { lock.wait() }
                lock.unlock()
            }
        }
        reader.start()
        if readHello { hello = try readLine(sourceLocation: sourceLocation) }
    }

    deinit { close() }

    /// Ends s_client (SIGTERM), as a client that goes away.
    func close() {
        if process.isRunning { process.terminate() }
        lock.lock()
        eof = true
        lock.broadcast()
        lock.unlock()
    }

    /// Stops reading s_client's output: once its pipe is full, s_client
    /// stops reading the connection, a reader that does not read.
    func stopReading() {
        lock.lock()
        paused = true
        lock.unlock()
    }

    func send(_ line: String) throws {
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The next line, or nil after `timeout` (without failing).
    func nextLine(timeout: Double) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<nl])
                buffer.removeFirst(nl + 1)
                return String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self)
            }
            if eof || !lock.wait(until: deadline) { return nil }
        }
    }

    func readLine(timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<nl])
                buffer.removeFirst(nl + 1)
                if line.last == 0x0D { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if eof || !lock.wait(until: deadline) {
                let why = eof ? "s_client ended" : "no line within \(timeout) s"
                Issue.record("\(label): \(why); stderr: \(errors.contents())", sourceLocation: sourceLocation)
                throw DaemonError("\(label): \(why)")
            }
        }
    }

    func expect(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let got = try readLine(sourceLocation: sourceLocation)
        #expect(got == line, "\(label)", sourceLocation: sourceLocation)
        if got != line { throw DaemonError("\(label): expected \(line), got \(got)") }
    }

    func expect(lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for line in lines { try expect(line, sourceLocation: sourceLocation) }
    }

    /// Waits until s_client's stdout ends (the server closed the connection).
    func waitForEnd(timeout: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while !eof { if !lock.wait(until: deadline) { return eof } }
        return true
    }
}

/// A bare TCP client, for what is not a protocol client: one that speaks
/// in clear to the TLS port, or opens a connection and says nothing.
final class BareSocket {
    private(set) var fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("socket failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard r == 0 else { Glibc.close(fd); throw DaemonError("connect: \(String(cString: strerror(errno)))") }
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until the server closes the connection (EOF or a reset), or
    /// `timeout` passes: whether it closed, and the bytes that came first.
    func waitForClose(timeout: Double = 15) -> (closed: Bool, received: [UInt8]) {
        var received: [UInt8] = []
        let deadline = monotonicNow() + timeout
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - monotonicNow()
            if left <= 0 { return (false, received) }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(left * 1000) + 1) <= 0 { continue }
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { received += buf[..<n]; continue }
            if n < 0, errno == EINTR { continue }
            return (true, received)
        }
    }
}
