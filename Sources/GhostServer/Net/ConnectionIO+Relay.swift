import CGhostSys
import Glibc
import GhostProtocol

/// A connection's first lines that name its client (docs/cluster.md,
/// docs/operating.md): a trusted balancer's PROXY line on the plain port,
/// and a standby's RELAY line on the relay port, after which the
/// connection is served as its client's, on the port the client reached.
extension ConnectionIO {
    /// A trusted proxy's PROXY line: the connection counts by its client's
    /// network from now on, or is closed (`BYE full`) if that network may not
    /// open one more. Charged as a blank line; nothing is answered.
    func proxyLine(_ proxy: ProxyLine, from conn: Connection) {
        budgets.charge(Double(CommandTable.blankCost), own: &conn.penalty, network: conn.network, now: now)
        guard case .client(let address) = proxy else { return }
        if let refusal = admission.readdress(conn, to: address, clients: table.count - 1, at: now) {
            table.close(conn.id, .full, refusal)
            return
        }
        // The lobby greeted it under the proxy's network: the client's from now on.
        table.serving = conn.id
        table.servingRevealsNothing = true
        lobby.readdressed(conn.id, address: conn.network)
        table.serving = -1
        log("connection \(conn.id) carries \(address) (PROXY line from \(conn.peer))")
    }

    /// A relay's first line: with the cluster's secret, the connection is
    /// its client's from now on (as `proxyLine`) and begins as one that
    /// reached the port the line names (`openRelayed`: greeted, or its TLS
    /// handshake or HTTP request awaited); anything else closes it. A
    /// plain client's bytes follow the line at once. Any other's come only
    /// after this node's answer, `OK RELAY` (`RelayLine.answer`), written
    /// here before anything else is queued: a relay that sent more before
    /// it is closed, so no byte of a handshake or a request is ever framed
    /// as a line. A port this node does not serve is refused with a BYE.
    func relayLine(_ frame: LineFramer.Frame, from conn: Connection) {
        budgets.charge(Double(CommandTable.blankCost), own: &conn.penalty, network: conn.network, now: now)
        guard case .line(let bytes) = frame, let secret = relaySecret, let relayed = RelayLine.parse(bytes, secret: secret) else {
            log("connection \(conn.id) from \(conn.peer) to the relay port did not begin with the cluster's RELAY line: closed")
            conn.clearPending()
            table.close(conn.id, .shutdown, "not a relay of this server")
            return
        }
        if relayed.port == .operator { return operatorRelay(relayed, from: conn) }
        let name = relayed.port.rawValue
        guard let port = Acceptor.Port(relayed: relayed.port), port.isServed(by: config) else {
            log("connection \(conn.id) from \(conn.peer) relays a \(name) client, which this node does not serve: closed")
            conn.clearPending()
            table.close(conn.id, .shutdown, "this node does not serve \(name) clients")
            return
        }
        if port != .plain, conn.hasPending || conn.framer.pendingBytes > 0 {
            log("connection \(conn.id) from \(conn.peer) relays a \(name) client but sent its bytes before OK RELAY: closed")
            conn.clearPending()
            table.close(conn.id, .shutdown, "a relay's \(name) client speaks after OK RELAY")
            return
        }
        let node = relayed.node.isEmpty ? "" : ", node \(relayed.node)"
        if port == .plain || port.isWeb, config.trustedProxies.contains(relayed.client) {
            // The standby's client is a trusted balancer: the player is named
            // next (a plain client's PROXY line, a web request's
            // X-Forwarded-For), as on this node's own ports; until then it
            // counts under the balancer's network without its cap, as there.
            _ = admission.readdress(conn, to: relayed.client, clients: table.count - 1, at: now, capped: false)
            conn.mayNameItsClient = port == .plain
            log("connection \(conn.id) relays a client of the trusted proxy \(relayed.client) (from \(conn.peer)\(node))"
                + (port == .plain ? "" : " to this node's \(name) port"))
        } else {
            if NetworkKey.of(relayed.client) == conn.network {
                // A client in the standby's own network: `readdress` would keep
                // it as it was counted at accept, where relays are measured by
                // the server's caps alone. It is measured now as a direct one is.
                admission.closed(conn.network, identified: false)
                let refusal = admission.refusal(network: conn.network, clients: table.count - 1, at: now, makeRoom: { false })
                admission.opened(conn.network)
                if let refusal { return table.close(conn.id, .full, refusal) }
            }
            if let refusal = admission.readdress(conn, to: relayed.client, clients: table.count - 1, at: now) {
                table.close(conn.id, .full, refusal)
                return
            }
            log("connection \(conn.id) relays \(relayed.client) (from \(conn.peer)\(node))"
                + (port == .plain ? "" : " to this node's \(name) port"))
        }
        stats.entered(conn, through: relayed.node)
        if port == .plain {
            stats.connectionsTotal += 1
        } else {
            // Nothing is queued yet (the connection was not greeted): the answer goes alone, now.
            let sent = RelayLine.answer.withUnsafeBytes { ghost_send(conn.fd, $0.baseAddress, UInt($0.count)) }
            guard sent == RelayLine.answer.count else {
                conn.dropReason = "relay: cannot write OK RELAY: \(errnoText())"
                table.markDirty(conn)
                return
            }
        }
        openRelayed?(conn, port)
        setInterest(conn)
    }
}
