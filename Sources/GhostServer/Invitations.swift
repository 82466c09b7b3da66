import GameKit
import GhostProtocol

/// Invitations (a part of the lobby of its own): INVITE opens a private
/// game whose code only one name may JOIN and sends that name the code;
/// `DECLINE <code>` says no. The game is matchmaking's (`hostInvitation`);
/// this part decides who may be invited and keeps the invitations open,
/// counted per invitee and per network (`Settings.maxInvitesPerName`,
/// `maxInvitesPerNetwork`).
final class Invitations: LobbyPart {
    let context: LobbyContext
    let waiting: Waiting
    let matchmaking: Matchmaking
    var people: People { context.people }

    struct Invitation {
        let host: ConnectionID
        let hostName: String
        let invitee: String
        let network: String
        /// The invitee said no: it is not told the invitation went.
        var declined = false
    }

    /// Open invitations by code.
    private var open: [String: Invitation] = [:]
    private var perInvitee: [String: Int] = [:]
    private var perNetwork: [String: Int] = [:]

    init(context: LobbyContext, waiting: Waiting, matchmaking: Matchmaking) {
        self.context = context
        self.waiting = waiting
        self.matchmaking = matchmaking
        waiting.codeClosed = { [unowned self] code, joined in self.closed(code, joined: joined) }
    }

    var count: Int { open.count }

    /// INVITE <name> [options].
    func invite(_ target: String, _ options: GameOptions, _ id: ConnectionID, _ session: Session) {
        guard let me = session.name else { return }
        let key = target.lowercased(), myKey = me.lowercased()
        guard key != myKey else { return reply(id, .error(.badArguments, "you cannot invite yourself")) }
        // Offline, hidden from you, or blocking you: the same line, so that a block is never told.
        guard let conn = sessions.names[key], let them = people.byKey[key], !them.blocks.contains(myKey),
              them.presence || them.follows.contains(myKey) else {
            return reply(id, .error(.unavailable, "\(target) is not online"))
        }
        if case .playing? = sessions[conn]?.state {
            return reply(id, .error(.unavailable, "\(them.name) is in a game"))
        }
        switch them.invites {
        case .nobody: return reply(id, .error(.unavailable, "\(them.name) takes no invitations"))
        case .friends where !them.follows.contains(myKey):
            return reply(id, .error(.unavailable, "\(them.name) takes invitations from friends only"))
        default: break
        }
        let network = session.network
        guard perInvitee[key, default: 0] < settings.maxInvitesPerName else {
            return reply(id, .error(.tooManyInvites, "\(them.name) has \(settings.maxInvitesPerName) invitations open; try again later"))
        }
        guard perNetwork[network, default: 0] < settings.maxInvitesPerNetwork else {
            return reply(id, .error(.tooManyInvites, "your address has \(settings.maxInvitesPerNetwork) invitations open; LEAVE one first"))
        }
        guard let game = matchmaking.hostInvitation(options, id, session) else { return }
        open[game.code] = Invitation(host: id, hostName: me, invitee: key, network: network)
        waiting.invitees[game.code] = key
        perInvitee[key, default: 0] += 1
        perNetwork[network, default: 0] += 1
        var fields = [Field("game", game.kind.name), Field("lang", session.lang)] + game.fields
        if game.options.rounds != .one { fields.append(Field("rounds", game.options.rounds.rawValue)) }
        if let clock = game.options.clock { fields.append(Field("clock", String(clock))) }
        if let rated = game.options.rated { fields.append(Field("rated", rated ? "yes" : "no")) }
        if !game.options.watch { fields.append(Field("watch", "no")) }
        reply(id, .ok(verb: "INVITE", fields: [("code", game.code), ("name", them.name)] + fields.map { ($0.key, $0.value) }))
        reply(id, .info("Invited \(them.name): the game starts when they JOIN \(game.code); LEAVE to take the invitation back."))
        outbox.send(.social(.invite(from: me, code: game.code, fields: fields)), to: conn)
    }

    /// DECLINE <code>: the invitee says no; its host stops hosting and is told.
    func decline(_ typed: String, _ id: ConnectionID, _ session: Session) {
        let code = JoinCodes.normalized(typed)
        guard let me = session.name, var inv = open[code], inv.invitee == me.lowercased() else {
            return reply(id, .error(.noSuchGame, "no invitation to you has that code"))
        }
        inv.declined = true
        open[code] = inv
        reply(id, .ok("DECLINE", ("code", code)))
        if let host = sessions[inv.host] { waiting.stopWaiting(inv.host, host) }
        outbox.send(.social(.declined(name: me, code: code)), to: inv.host)
        outbox.send(.info("\(me) declined your invitation."), to: inv.host)
    }

    /// A code closed (Waiting.swift): its invitation is over. Unless the
    /// invitee joined or declined, it is told the invitation went.
    private func closed(_ code: String, joined: Bool) {
        guard let inv = open.removeValue(forKey: code) else { return }
        perInvitee[inv.invitee, default: 1] -= 1
        if perInvitee[inv.invitee] == 0 { perInvitee[inv.invitee] = nil }
        perNetwork[inv.network, default: 1] -= 1
        if perNetwork[inv.network] == 0 { perNetwork[inv.network] = nil }
        guard !joined, !inv.declined, let conn = sessions.names[inv.invitee] else { return }
        outbox.send(.social(.withdrawn(from: inv.hostName, code: code)), to: conn)
    }
}
