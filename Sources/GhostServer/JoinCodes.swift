#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Join codes of private games, and how failed `JOIN`s slow an address down.
///
/// A code is 8 characters of a 32-character alphabet (40 bits) from the
/// system's random generator: Crockford's base 32, which leaves out I, L, O
/// and U; a code typed with O, I or L for 0, 1 and 1 still joins. With 2,000
/// open private games, a guess hits one in 2^40 / 2,000 ≈ 550 million, and each
/// address may miss only `Lobby.Settings.failedJoinsPerMinute` times a minute.
enum JoinCodes {
    static let alphabet: [Character] = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    static let length = 8

    /// A fresh code: 40 random bits, five to a character.
    static func random() -> String {
        var rng = SystemRandomNumberGenerator()
        var bits = rng.next() as UInt64
        var code = ""
        for _ in 0..<length {
            code.append(alphabet[Int(bits & 31)])
            bits >>= 5
        }
        return code
    }

    /// A code as typed, in the form codes are given out: capitals, and the
    /// look-alikes O, I and L read as 0, 1 and 1 (JOIN has upper-cased it).
    static func normalized(_ typed: String) -> String {
        String(typed.uppercased().map { c -> Character in
            switch c {
            case "O": "0"
            case "I", "L": "1"
            default: c
            }
        })
    }

    /// The key failed JOINs are counted under: an IPv4 address as it is, an
    /// IPv6 address by its /64 network (one subscriber usually holds a whole
    /// /64), an IPv4-mapped IPv6 address as its IPv4 address. Anything else
    /// (a test's "") as it is.
    static func network(of address: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return address }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        // ::ffff:a.b.c.d
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let hex = stride(from: 0, to: 8, by: 2).map { i in String(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]), radix: 16) }
        return hex.joined(separator: ":") + "::/64"
    }
}
