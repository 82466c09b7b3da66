/// The TLS port a ghostd logged (`TLS port: HOST:PORT`, before `listening
/// on`), from its log lines; nil when it logged none.
public func tlsPort(inLog lines: [String]) -> Int? {
    let prefix = "TLS port: "
    guard let line = lines.first(where: { $0.contains(prefix) }), let range = line.range(of: prefix) else { return nil }
    let address = line[range.upperBound...].prefix(while: { $0 != " " })
    guard let colon = address.lastIndex(of: ":") else { return nil }
    return Int(address[address.index(after: colon)...])
}

/// The web port a ghostd logged (`web port: HOST:PORT`), or its web TLS port (`web TLS port: HOST:PORT`).
public func webPort(inLog lines: [String], tls: Bool = false) -> Int? {
    let prefix = tls ? "web TLS port: " : "web port: "
    guard let line = lines.first(where: { $0.contains(prefix) }), let range = line.range(of: prefix) else { return nil }
    let address = line[range.upperBound...].prefix(while: { $0 != " " })
    guard let colon = address.lastIndex(of: ":") else { return nil }
    return Int(address[address.index(after: colon)...])
}
