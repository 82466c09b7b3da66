import COpenSSL

/// The WebSocket handshake's accept key (RFC 6455 §4.2.2): the base64 of
/// the SHA-1 of the client's key and the RFC's GUID. Both from the system's
/// OpenSSL (libcrypto): no hash or encoding is written here.
public enum WebSocketAccept {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The `Sec-WebSocket-Accept` value for a client's `Sec-WebSocket-Key`; nil if libcrypto fails.
    public static func value(forKey key: String) -> String? {
        let input = Array((key + guid).utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var digestLength: UInt32 = 0
        let hashed = input.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &digestLength, EVP_sha1(), nil)
        }
        guard hashed == 1, digestLength == 20 else { return nil }
        return base64(Array(digest.prefix(20)))
    }

    /// The SHA-1 of `bytes` (libcrypto), in lowercase hex; nil if libcrypto fails.
    public static func sha1Hex(_ bytes: [UInt8]) -> String? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var digestLength: UInt32 = 0
        let hashed = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &digest, &digestLength, EVP_sha1(), nil) }
        guard hashed == 1 else { return nil }
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.prefix(Int(digestLength)).flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// Base64 (RFC 4648, padded) through OpenSSL's EVP_EncodeBlock.
    public static func base64(_ bytes: [UInt8]) -> String? {
        var out = [UInt8](repeating: 0, count: 4 * ((bytes.count + 2) / 3) + 1)
        let n = bytes.withUnsafeBufferPointer { EVP_EncodeBlock(&out, $0.baseAddress, Int32($0.count)) }
        guard n >= 0 else { return nil }
        return String(decoding: out.prefix(Int(n)), as: UTF8.self)
    }

    /// Whether a client's key is what RFC 6455 asks: the base64 of 16 bytes (24 characters, `==` at the end).
    public static func isValidKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        return bytes[..<22].allSatisfy(alphabet.contains)
    }
}
