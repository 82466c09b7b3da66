import COpenSSL
import Glibc

/// The server's TLS settings in OpenSSL: one SSL_CTX holding the certificate
/// chain and its key. SIGHUP loads a new one (`TLSPort.reload`); sessions
/// already open keep a reference to the one they began with (OpenSSL counts
/// them), so nobody is dropped.
final class TLSContext {
    let ctx: OpaquePointer

    private init(ctx: OpaquePointer) { self.ctx = ctx }

    deinit { SSL_CTX_free(ctx) }

    /// Loads a PEM certificate chain and its PEM private key, and checks that
    /// they belong together; `.failure` says why not, in one line.
    static func load(certificate: String, key: String) -> Result<TLSContext, TLSError> {
        for (option, path) in [("--tls-cert", certificate), ("--tls-key", key)] where access(path, R_OK) != 0 {
            return .failure(TLSError("\(option): cannot read \(path): \(String(cString: strerror(errno)))"))
        }
        ERR_clear_error()
        guard let ctx = SSL_CTX_new(TLS_server_method()) else {
            return .failure(TLSError("cannot set up TLS: \(TLS.reason())"))
        }
        let context = TLSContext(ctx: ctx)
        // TLS 1.2 at least; no renegotiation (a client could make the
        // server redo the expensive part at will); an EOF without
        // close_notify is an ordinary close (clients such as nc-like tools
        // just go). Partial writes: SSL_write returns what it took, as
        // send() does, and the buffer may move between retries (the loop
        // trims what was sent from the front of its output).
        _ = SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        _ = SSL_CTX_set_options(ctx, TLS.ignoreUnexpectedEOF | TLS.noRenegotiation)
        // Release buffers: a session's read and write buffers (about 16 KiB
        // each) are freed while it has nothing buffered, and taken again for
        // the next record: an idle TLS connection costs their bytes only while
        // it reads or writes.
        _ = SSL_CTX_ctrl(ctx, SSL_CTRL_MODE,
                         Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS), nil)
        // Read ahead: one read(2) per SSL_read takes what the socket has,
        // instead of one for a record's header and one for its body. What
        // it reads beyond the record waits in OpenSSL (`hasPending`).
        _ = SSL_CTX_ctrl(ctx, SSL_CTRL_SET_READ_AHEAD, 1, nil)
        guard SSL_CTX_use_certificate_chain_file(ctx, certificate) == 1 else {
            return .failure(TLSError("--tls-cert: \(certificate) is not a PEM certificate: \(TLS.reason())"))
        }
        guard SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) == 1 else {
            let reason = TLS.reason()
            // OpenSSL checks the key against the certificate as it loads it.
            let what = reason.contains("mismatch") ? "is not the key of the certificate in \(certificate)" : "is not a PEM private key"
            return .failure(TLSError("--tls-key: \(key) \(what): \(reason)"))
        }
        guard SSL_CTX_check_private_key(ctx) == 1 else {
            return .failure(TLSError("--tls-key: \(key) is not the key of the certificate in \(certificate): \(TLS.reason())"))
        }
        return .success(context)
    }
}

struct TLSError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum TLS {
    // SSL_OP_BIT(7) and SSL_OP_BIT(30): function-like macros Swift does not import.
    static let ignoreUnexpectedEOF: UInt64 = 1 << 7
    static let noRenegotiation: UInt64 = 1 << 30

    /// Cost units a handshake is charged to its network's budget (and its
    /// own), or its time in the loop if that is more: an ECDHE key exchange
    /// and a signature are worth about ten PINGs.
    static let handshakeCost = 10

    /// OpenSSL's reasons for the last failure, oldest first; the error
    /// queue is emptied.
    static func reason(errno saved: Int32 = 0) -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            // "error:0A00010B:SSL routines::wrong version number": the part after the last colon.
            let text = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let reason = text.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? text
            if !parts.contains(reason) { parts.append(reason) }
        }
        if parts.isEmpty { return saved != 0 ? String(cString: strerror(saved)) : "connection closed" }
        return parts.joined(separator: "; ")
    }
}

/// One connection's TLS session over its non-blocking socket. Each call
/// says what it did, or what the socket must become (readable, writable)
/// before the call can go on.
final class TLSSession {
    private var ssl: OpaquePointer?
    /// The handshake is done: the connection is a session.
    private(set) var established = false
    /// The last SSL_read wanted the socket writable, or the last SSL_write
    /// wanted it readable: the loop asks epoll for that too, and tries again.
    var readWantsWrite = false
    var writeWantsRead = false
    /// What the unfinished handshake waits for.
    private(set) var handshakeWantsWrite = false
    /// CPU time the handshake threads spent in its steps, charged when it ends.
    var handshakeSeconds = 0.0
    /// Its fixed cost is charged (at its first step).
    var handshakeCharged = false
    /// A step of its handshake is on a handshake thread (TLSHandshakes.swift):
    /// until `takeBack` the SSL object is that thread's, and the loop does
    /// not touch it (nor free it, nor close its socket). Loop thread only.
    private(set) var away = false
    /// Its socket is ready for the next step, which waits for a place on
    /// the threads (`Server.dispatchHandshake`). Loop thread only.
    var waitingForThread = false

    enum Step: Sendable {
        case done
        case wantRead
        case wantWrite
        case failed(String)
    }

    init?(context: TLSContext, fd: Int32) {
        guard let ssl = SSL_new(context.ctx) else { return nil }
        self.ssl = ssl
        guard SSL_set_fd(ssl, fd) == 1 else { free(); return nil }
        SSL_set_accept_state(ssl)
    }

    deinit { free() }

    /// Frees the session (it does not close the socket). Safe to call
    /// twice; never while `away` (the thread's).
    func free() {
        guard !away else { return }
        if let ssl { SSL_free(ssl) }
        ssl = nil
    }

    /// Sends close_notify, best effort and without waiting for the peer's
    /// (not after a fatal error, as OpenSSL asks).
    func shutdown() {
        guard let ssl, established, !broken else { return }
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Hands the SSL object to a handshake thread for one step (loop
    /// thread): nil if there is none. The loop owns it again at `takeBack`.
    func handOff() -> OpaquePointer? {
        guard let ssl, !away, !established else { return nil }
        away = true
        return ssl
    }

    /// The step handed off is done (loop thread, the outcome taken from the
    /// threads): the SSL object is the loop's again. `established` is set
    /// by `becameSession`, only if the loop makes it a session.
    func takeBack(_ step: Step) {
        away = false
        switch step {
        case .wantRead: handshakeWantsWrite = false
        case .wantWrite: handshakeWantsWrite = true
        case .done, .failed: break
        }
    }

    /// The handshake is done and the connection a session.
    func becameSession() {
        established = true
        handshakeWantsWrite = false
    }

    /// One more step of the handshake, on a handshake thread: `SSL_accept`
    /// and nothing else, with this thread's OpenSSL error queue; no field
    /// of any session is read or written here (TLSHandshakes.swift).
    static func acceptStep(_ ssl: OpaquePointer) -> Step {
        HandshakeGate.pass()
        ERR_clear_error()
        let r = SSL_accept(ssl)
        if r == 1 { return .done }
        let saved = errno
        switch SSL_get_error(ssl, r) {
        case SSL_ERROR_WANT_READ:
            return .wantRead
        case SSL_ERROR_WANT_WRITE:
            return .wantWrite
        case SSL_ERROR_SYSCALL where ERR_peek_error() == 0:
            return .failed(saved != 0 ? String(cString: strerror(saved)) : "closed during the handshake")
        default:
            return .failed(TLS.reason(errno: saved))
        }
    }

    /// The protocol and cipher agreed, for the log: "TLSv1.3 TLS_AES_256_GCM_SHA384".
    var summary: String {
        guard let ssl else { return "" }
        let version = SSL_get_version(ssl).map { String(cString: $0) } ?? "?"
        let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) } ?? "?"
        return "\(version) \(cipher)"
    }

    /// OpenSSL holds input already read from the socket (decrypted or not),
    /// which epoll cannot see.
    var hasPending: Bool { ssl.map { SSL_has_pending($0) == 1 } ?? false }

    /// The last fatal error's text, for the close reason.
    private(set) var failure: String?
    /// A read or write failed for good (SSL_ERROR_SYSCALL or SSL_ERROR_SSL).
    private var broken = false

    /// Reads as `read(2)` does: bytes, 0 at the end, or -1 with errno set
    /// (EAGAIN: try again when the socket is ready; EPROTO: `failure` says why).
    func read(_ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        guard let ssl else { errno = EBADF; return -1 }
        readWantsWrite = false
        ERR_clear_error()
        let r = SSL_read(ssl, buffer, Int32(clamping: count))
        if r > 0 { return Int(r) }
        return outcome(ssl, r, forRead: true)
    }

    /// Writes as `send(2)` does, with the same convention as `read`.
    func write(_ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        guard let ssl else { errno = EBADF; return -1 }
        writeWantsRead = false
        ERR_clear_error()
        let r = SSL_write(ssl, buffer, Int32(clamping: count))
        if r > 0 { return Int(r) }
        return outcome(ssl, r, forRead: false)
    }

    private func outcome(_ ssl: OpaquePointer, _ r: Int32, forRead: Bool) -> Int {
        let saved = errno
        switch SSL_get_error(ssl, r) {
        case SSL_ERROR_WANT_READ:
            if !forRead { writeWantsRead = true }
            errno = EAGAIN
            return -1
        case SSL_ERROR_WANT_WRITE:
            if forRead { readWantsWrite = true }
            errno = EAGAIN
            return -1
        case SSL_ERROR_ZERO_RETURN:
            return 0
        case SSL_ERROR_SYSCALL where ERR_peek_error() == 0:
            broken = true
            if saved == 0 { return 0 }
            errno = saved
            return -1
        default:
            broken = true
            failure = "TLS error: " + TLS.reason(errno: saved)
            errno = EPROTO
            return -1
        }
    }
}
