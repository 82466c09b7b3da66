import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// `--tls`: the connection is TLS, checked against `caFile` (`--tls-ca`, a
/// PEM file of the certificates to trust, e.g. a self-signed server's), else
/// against the system's certificate authorities.
public struct TLSSettings: Equatable, Sendable {
    public var caFile: String?

    public init(caFile: String? = nil) {
        self.caFile = caFile
    }
}

/// One TLS client session over a connected, non-blocking socket, through the
/// system's OpenSSL. It checks the server's certificate chain (SSL_VERIFY_PEER)
/// and that the certificate is for the host the player asked for: a name
/// (SSL_set1_host, and sent as SNI) or an IP address (X509_VERIFY_PARAM_set1_ip_asc).
final class TLSSession {
    /// What a call needs next.
    enum Step: Equatable {
        case done
        /// Call again when the socket is readable (or writable).
        case wantRead, wantWrite
        /// The peer closed the connection (or it dropped): an ordinary drop.
        case closed(String)
        /// The session cannot be trusted or set up (a certificate that does
        /// not verify, no common protocol): retrying will not help.
        case refused(String)
    }

    private let ctx: OpaquePointer
    private let ssl: OpaquePointer

    /// Sets up a session on `fd` for `host`. Nil and a text for people when
    /// the settings cannot be used (an unreadable `--tls-ca` file).
    static func make(fd: Int32, host: String, settings: TLSSettings) -> Result<TLSSession, TLSFailure> {
        guard let method = TLS_client_method(), let ctx = SSL_CTX_new(method) else {
            return .failure(TLSFailure(text: "cannot set up TLS: \(TLSSession.lastError())"))
        }
        SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        if let file = settings.caFile {
            guard SSL_CTX_load_verify_locations(ctx, file, nil) == 1 else {
                let why = TLSSession.lastError()
                SSL_CTX_free(ctx)
                return .failure(TLSFailure(text: "cannot read the certificates in \(file) (--tls-ca): \(why)"))
            }
        } else if SSL_CTX_set_default_verify_paths(ctx) != 1 {
            let why = TLSSession.lastError()
            SSL_CTX_free(ctx)
            return .failure(TLSFailure(text: "cannot read the system's certificate authorities: \(why)"))
        }
        guard let ssl = SSL_new(ctx) else {
            let why = TLSSession.lastError()
            SSL_CTX_free(ctx)
            return .failure(TLSFailure(text: "cannot set up TLS: \(why)"))
        }
        let session = TLSSession(ctx: ctx, ssl: ssl)
        // Partial writes, from an outbox that may move between calls.
        SSL_ctrl(ssl, SSL_CTRL_MODE, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), nil)
        if TLSSession.isIPAddress(host) {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else {
                return .failure(TLSFailure(text: "cannot check the certificate against \(host): \(TLSSession.lastError())"))
            }
        } else {
            guard SSL_set1_host(ssl, host) == 1 else {
                return .failure(TLSFailure(text: "cannot check the certificate against \(host): \(TLSSession.lastError())"))
            }
            // SNI: a server with several names picks the certificate for this one.
            _ = host.withCString { SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name), UnsafeMutableRawPointer(mutating: $0)) }
        }
        guard SSL_set_fd(ssl, fd) == 1 else {
            return .failure(TLSFailure(text: "cannot set up TLS: \(TLSSession.lastError())"))
        }
        return .success(session)
    }

    private init(ctx: OpaquePointer, ssl: OpaquePointer) {
        self.ctx = ctx
        self.ssl = ssl
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(ctx)
    }

    /// Drives the handshake one step.
    func handshake() -> Step {
        ERR_clear_error()
        let rc = SSL_connect(ssl)
        if rc == 1 { return .done }
        return step(rc, handshaking: true)
    }

    /// Reads what there is into `buffer`: the count read (0 with a step
    /// other than `.done` when nothing could be).
    func read(_ buffer: UnsafeMutableRawBufferPointer) -> (Int, Step) {
        ERR_clear_error()
        let rc = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if rc > 0 { return (Int(rc), .done) }
        return (0, step(rc, handshaking: false))
    }

    /// Writes what it can of `bytes`: the count written.
    func write(_ bytes: UnsafeRawBufferPointer) -> (Int, Step) {
        guard bytes.count > 0 else { return (0, .done) }
        ERR_clear_error()
        let rc = SSL_write(ssl, bytes.baseAddress, Int32(min(bytes.count, Int(Int32.max))))
        if rc > 0 { return (Int(rc), .done) }
        return (0, step(rc, handshaking: false))
    }

    /// Whether decrypted bytes wait in the session (poll does not see them).
    var hasBufferedBytes: Bool { SSL_pending(ssl) > 0 }

    /// Says goodbye (close_notify), without waiting for the answer.
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
    }

    private func step(_ rc: Int32, handshaking: Bool) -> Step {
        let code = SSL_get_error(ssl, rc)
        switch code {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN: return .closed("the server closed the connection")
        case SSL_ERROR_SYSCALL:
            let e = errno
            ERR_clear_error()
            if e == 0 || e == ECONNRESET || e == EPIPE {
                return .closed(handshaking ? "the server closed the connection during the TLS handshake" : "the server closed the connection")
            }
            return .closed(String(cString: strerror(e)))
        default:
            let verify = SSL_get_verify_result(ssl)
            if handshaking, verify != Int(X509_V_OK) {
                ERR_clear_error()
                return .refused(TLSFailure.unverified(String(cString: X509_verify_cert_error_string(verify))))
            }
            let why = TLSSession.lastError()
            return .refused(handshaking ? "the TLS handshake with the server failed: \(why)" : "TLS failed: \(why)")
        }
    }

    /// OpenSSL's last error, in its words (the reason only), and the queue emptied.
    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "unknown error" }
        if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
        var buf = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buf, buf.count)
        return String(decoding: buf.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An IPv4 or IPv6 address written out (not a name).
    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}

/// Why TLS could not be used, for people.
struct TLSFailure: Error, Equatable {
    var text: String

    /// The sentence a player sees when the server's certificate does not verify.
    static func unverified(_ reason: String) -> String {
        "the server's certificate could not be verified: \(reason)"
    }
}
