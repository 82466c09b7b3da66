import GhostProtocol

/// The leader's side of an operator's request through the relay port
/// (`ghostd accounts mute|ban|unban --store …` on any machine,
/// OperatorRelay.swift): a connection whose RELAY line names the port
/// `operator` sends one request line, in the form of the request files
/// (`OperatorRequest.line`), which the lobby applies in this turn as it
/// applies a request file (`Lobby.applyOperatorRequest`). The answer,
/// `ok: …` or `error: …`, and the close after it go out as every reply does:
/// after the turn's commit (a lost turn answers `ERR store-failed` instead).
/// One request per connection; its input after that line is not read.
extension ConnectionIO {
    /// Operator relays that never sent their request are forgotten past this many.
    static let operatorRelaysKept = 64

    /// A RELAY line with the cluster's secret for the port `operator`: the
    /// connection's next line is its request.
    func operatorRelay(_ relayed: RelayLine.Relayed, from conn: Connection) {
        if operatorRelays.count >= ConnectionIO.operatorRelaysKept {
            operatorRelays = operatorRelays.filter { table[$0] != nil }
        }
        operatorRelays.insert(conn.id)
        // Not a player: never greeted, so never in the lobby (a ban of the
        // operator's own network does not close it).
        log("connection \(conn.id) from \(conn.peer) carries an operator's request (\(relayed.client), node \(relayed.node))")
    }

    /// The request line of an operator relay: applied, answered, closed.
    func operatorRequest(_ frame: LineFramer.Frame, from conn: Connection) {
        operatorRelays.remove(conn.id)
        budgets.charge(Double(CommandTable.blankCost), own: &conn.penalty, network: conn.network, now: now)
        conn.lastInput = now
        // Counted as a command: a lost turn answers it `ERR store-failed` in place of its answer.
        table.countCommand(conn)
        let answer: String
        switch ConnectionIO.operatorAction(frame) {
        case .failure(let why):
            answer = "error: request refused: \(why)"
        case .success(let action):
            switch lobby.applyOperatorRequest(action) {
            case .success(let text): answer = "ok: " + text
            case .failure(let why): answer = "error: \(why)"
            }
        }
        conn.output.append(contentsOf: Array((answer + "\r\n").utf8))
        table.close(conn.id, .quit, "operator request answered")
        log("operator request from connection \(conn.id) (\(conn.peer)): \(answer)")
    }

    /// What an operator relay's request line asks, or why it is refused.
    static func operatorAction(_ frame: LineFramer.Frame) -> Result<OperatorAction, OperatorRefusal> {
        switch frame {
        case .tooLong:
            return .failure("the request is longer than \(LineFramer.defaultMaxLineBytes) bytes")
        case .line(let bytes):
            guard bytes.count <= OperatorRequest.maxBytes else {
                return .failure("the request is longer than \(OperatorRequest.maxBytes) bytes")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else { return .failure("the request is not UTF-8 text") }
            return OperatorRequest.parse(text)
        }
    }
}
