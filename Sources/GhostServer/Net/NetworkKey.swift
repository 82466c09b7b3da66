#if canImport(Glibc)
import Glibc
#endif

/// The network a peer address belongs to, for every per-address limit
/// (connections, connect rate, unnamed connections, the command budget):
/// an IPv4 address is its own network; an IPv6 address counts as its /64,
/// the smallest network a home or a cloud host is given, so that one
/// customer cannot take 2^64 addresses' worth of slots; an IPv4-mapped IPv6
/// address (`::ffff:1.2.3.4`, from a dual-stack listener) is its IPv4 address.
enum NetworkKey {
    /// `1.2.3.4` → `1.2.3.4`; `2001:db8:1:2:a:b:c:d` → `2001:db8:1:2::/64`;
    /// `::ffff:1.2.3.4` → `1.2.3.4`. Text that is not an address (a Unix
    /// peer, `unknown`) is its own key.
    static func of(_ address: String) -> String {
        var v4 = in_addr()
        // inet_pton takes only the canonical dotted quad (no leading zeros,
        // each part 0-255), which is its own key: no formatting.
        if inet_pton(AF_INET, address, &v4) == 1 { return address }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        // ::ffff:a.b.c.d
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return "\(bytes[12]).\(bytes[13]).\(bytes[14]).\(bytes[15])"
        }
        var prefix = in6_addr()
        withUnsafeMutableBytes(of: &prefix) { p in
            for i in 0..<8 { p[i] = bytes[i] }
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &prefix, &text, socklen_t(text.count)) != nil else { return address }
        return String(decoding: text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/64"
    }

    /// Whether `text` is an IPv4 or IPv6 address, as inet_pton reads them (a
    /// `--trusted-proxy`, the client an `X-Forwarded-For` names).
    static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
