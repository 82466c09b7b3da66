import CXcrypt
import COpenSSL

/// Password hashes, the way /etc/shadow keeps them on Debian: libxcrypt's
/// yescrypt (`$y$…`), salted by libxcrypt from the system's random source.
/// Both calls are slow on purpose (tens of milliseconds): call them off the
/// event loop. Nothing here keeps, logs or returns a password.
public enum PasswordHash {
    /// The prefix of the hashes `make` writes (yescrypt).
    public static let method = "$y$"

    /// A new salted hash of `password`, or nil when libxcrypt fails (no
    /// random bytes, no memory) or the password holds a NUL byte (a C string
    /// would cut it short).
    public static func make(_ password: String, cost: Int = 0) -> String? {
        guard !password.utf8.contains(0) else { return nil }
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        let made = setting.withUnsafeMutableBufferPointer { out in
            crypt_gensalt_rn(method, UInt(cost), nil, 0, out.baseAddress, Int32(out.count))
        }
        guard made != nil else { return nil }
        let bytes = setting.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return hash(password, setting: String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `password` is the one `stored` was made from. The hashes are
    /// compared in constant time (OpenSSL's CRYPTO_memcmp); a stored value
    /// that is not a hash libxcrypt can check never matches.
    public static func verify(_ password: String, against stored: String) -> Bool {
        guard !password.utf8.contains(0), stored.hasPrefix("$"),
              let computed = hash(password, setting: stored) else { return false }
        let a = Array(computed.utf8), b = Array(stored.utf8)
        guard a.count == b.count, !a.isEmpty else { return false }
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in CRYPTO_memcmp(pa.baseAddress, pb.baseAddress, pa.count) == 0 }
        }
    }

    /// crypt_rn of `password` with `setting` (a salt, or a whole hash), or
    /// nil on failure (libxcrypt answers an invalid setting with a string
    /// starting with `*`).
    private static func hash(_ password: String, setting: String) -> String? {
        var data = crypt_data()
        let out = withUnsafeMutableBytes(of: &data) { raw -> String? in
            guard let p = crypt_rn(password, setting, raw.baseAddress, Int32(raw.count)) else { return nil }
            return String(cString: p)
        }
        // crypt_data holds the password's intermediate state: wipe it.
        withUnsafeMutableBytes(of: &data) { raw in
            if let base = raw.baseAddress { OPENSSL_cleanse(base, raw.count) }
        }
        guard let out, !out.hasPrefix("*") else { return nil }
        return out
    }
}
