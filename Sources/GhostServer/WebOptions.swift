import OptionKit

/// The values of the web ports' options.
enum WebOptions {
    /// `--web-port`: a port, `off` or 0 (none), or `any` (a free one).
    static var port: Value<Int?> { Value<Int?>(allowed: "a port from 1 to 65535, off (or 0), or any", show: { $0.map { $0 == 0 ? "any" : String($0) } ?? "off" }) { text in
        switch text {
        case "": return .failure(.empty)
        case "off", "0": return .success(nil)
        case "any": return .success(0)
        default:
            guard text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .failure(.notAWholeNumber) }
            guard let n = Int(text), (1...65535).contains(n) else { return .failure(.outOfRange) }
            return .success(n)
        }
    } }

    /// `--web-origin`: `http://` or `https://`, a host, maybe a port, nothing after.
    static var origin: Value<String> { Value<String>(allowed: "an origin: http:// or https://, a host and maybe :PORT (no path)", show: { $0 }) { text in
        guard !text.isEmpty else { return .failure(.empty) }
        let rest: Substring
        if text.hasPrefix("https://") { rest = text.dropFirst(8) } else if text.hasPrefix("http://") { rest = text.dropFirst(7) } else {
            return .failure(.notAChoice)
        }
        guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) }) else {
            return .failure(.notAChoice)
        }
        return .success(text)
    } }

    /// The options that may be given more than once: each adds to its list.
    static var lists: [Option<ServerConfig>] { [
        .value("--web-origin", "ORIGIN", "another origin whose pages may open the WebSocket, as the browser writes it (https://play.example.org: a reverse proxy's public name); repeat for more; the page's own origin always may",
               origin, get: nil, defaultText: "none: only the page's own",
               set: { (c: inout ServerConfig, origin: String) in c.webOrigins.append(origin) }),
        .value("--trusted-proxy", "ADDR", "a reverse proxy or balancer (its IP address) whose X-Forwarded-For the web ports believe, and whose PROXY line (HAProxy's send-proxy, version 1) the plain port takes as a connection's first line, so that its clients count by their own network; repeat for more",
               address, get: nil, defaultText: "none",
               set: { (c: inout ServerConfig, address: String) in c.trustedProxies.append(address) }),
    ] }

    /// An IPv4 or IPv6 address.
    static var address: Value<String> { Value<String>(allowed: "an IPv4 or IPv6 address", show: { $0 }) { text in
        guard !text.isEmpty else { return .failure(.empty) }
        return NetworkKey.isAddress(text) ? .success(text) : .failure(.notAChoice)
    } }
}
