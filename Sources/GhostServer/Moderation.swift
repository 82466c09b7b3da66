#if canImport(Glibc)
import Glibc
#endif
import GhostProtocol
import GhostStore

/// What the server's operator does to a name or a network
/// (`ghostd accounts mute|ban|unban`), applied by a running daemon at once
/// (`Lobby.apply`) or by the command itself when no daemon runs.
public enum OperatorAction: Sendable, Equatable {
    /// The name may not chat until then (nil: until lifted).
    case mute(name: String, until: Int?)
    /// The name may not be used: its connections are closed (`BYE banned`).
    case ban(name: String, until: Int?)
    /// Lifts the name's mute and ban.
    case unban(name: String)
    /// Nobody may connect from the address's network (an IPv4 address, an IPv6 /64).
    case banNetwork(address: String, until: Int?)
    case unbanNetwork(address: String)

    /// What the store keeps for it: the kind, the target (a name, or a
    /// network's key) and until when; nil for a lift.
    var sanction: (kind: SocialStore.SanctionKind, target: String, until: Int?)? {
        switch self {
        case let .mute(name, until): (.mute, name, until)
        case let .ban(name, until): (.ban, name, until)
        case let .banNetwork(address, until): (.banNetwork, NetworkKey.of(address), until)
        case .unban, .unbanNetwork: nil
        }
    }
}

/// Sanctions (a part of the lobby of its own): the banned networks, kept in
/// memory (a connection is checked as it comes), and the operator's actions
/// on a running server. Bans and mutes of names are read from the store
/// where they matter (NAME, RESUME, SAY: one primary-key look-up each).
final class Moderation: LobbyPart {
    let context: LobbyContext
    /// Banned networks' keys → until when (nil: until lifted).
    private var bannedNetworks: [String: Int?] = [:]

    init(context: LobbyContext) {
        self.context = context
        reload()
    }

    /// The banned networks as the store has them: read whole at the start
    /// (the operator's list, not the players'), and again after a lost turn
    /// (a ban it held was never stored).
    func reload() {
        let now = context.wall
        var after: String?
        var read: [String: Int?] = [:]
        while true {
            // A store that cannot be read keeps what is known.
            guard let page = context.persist({ try context.store.socialStore.sanctions(.banNetwork, now: now, after: after, limit: 1000) })
            else { return }
            for s in page { read[s.target] = s.until }
            guard page.count == 1000, let last = page.last else { break }
            after = last.target
        }
        bannedNetworks = read
    }

    /// Whether a network is banned now.
    func isBanned(network key: String) -> Bool {
        guard let entry = bannedNetworks[key] else { return false }
        guard let until = entry else { return true }
        if until > clock.wall { return true }
        bannedNetworks[key] = nil
        return false
    }

    /// The ban on a name in force, if any (nil when the store cannot say: the name is let in).
    func ban(of name: String) -> SocialStore.Sanction? {
        persist({ try store.socialStore.sanction(.ban, on: name, now: clock.wall) }) ?? nil
    }

    /// `ERR banned`'s line for a name banned now; nil if it is not.
    func refusal(_ name: String) -> ServerLine? {
        guard let ban = ban(of: name) else { return nil }
        return .error(.banned, "the server's operator banned \(name)" + (ban.until.map { " until \(Moderation.shown($0))" } ?? ""))
    }

    /// Applies an operator's action: stores it (the loop commits it with the
    /// turn) and acts on who is connected. Returns what was done, for the operator.
    func apply(_ action: OperatorAction) throws -> String {
        let now = clock.wall
        if let (kind, target, until) = action.sanction {
            try store.socialStore.setSanction(SocialStore.Sanction(kind: kind, target: target, until: until, at: now))
            let time = until.map { "until \(Moderation.shown($0))" } ?? "until lifted"
            switch action {
            case .ban(let name, _):
                if let conn = sessions.names[name.lowercased()] {
                    outbox.close(conn, .banned, "the server's operator banned \(name)")
                }
                return "\(name): banned \(time)"
            case .banNetwork(let address, _):
                bannedNetworks[target] = until
                var closed = 0
                for conn in sessions.keys.sorted() where sessions[conn]?.network == target {
                    outbox.close(conn, .banned, "the server's operator banned your network")
                    closed += 1
                }
                return "network \(target) (from \(address)): banned \(time); \(closed) connection(s) closed"
            default:
                return "\(target): muted \(time)"
            }
        }
        switch action {
        case .unban(let name):
            let n = try store.socialStore.liftSanctions([.mute, .ban], on: name)
            return n == 0 ? "\(name): no mute or ban to lift" : "\(name): mute and ban lifted"
        case .unbanNetwork(let address):
            let key = NetworkKey.of(address)
            let n = try store.socialStore.liftSanctions([.banNetwork], on: key)
            bannedNetworks[key] = nil   // only once the store has it: a failed write leaves the ban in force
            return n == 0 ? "network \(key): no ban to lift" : "network \(key): ban lifted"
        default:
            return ""
        }
    }

    /// A moment for people: `2027-01-05 14:00 UTC`.
    static func shown(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&t, &parts) != nil else { return String(seconds) }
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : String(v) }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
    }
}
