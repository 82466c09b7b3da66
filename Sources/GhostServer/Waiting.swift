import GameKit
import GhostProtocol
import GhostStore

/// Who waits for an opponent (the registry below the lobby's parts, as
/// `Rooms` is for the games): the seek queues and when WAITING was last
/// sent (`SeekQueues`), the open private games' join codes (`JoinCodes`),
/// and what waiting does on its own: a seek or a hosted game stopped
/// (`stopWaiting`: at LEAVE, a disconnection, a RESUME or a login that
/// takes the name, a seat given back after a failed write), and the
/// seekers told how the other queues changed (`seekersDue`, `tellSeekers`,
/// from the tick). SEEK, NEW and JOIN, which fill it, are Matchmaking's.
/// It uses no other part.
final class Waiting: LobbyPart {
    let context: LobbyContext
    /// Who waits for an opponent, queue by queue (SeekQueues.swift).
    var seekers = SeekQueues()
    /// The private games open now: join code → host (JoinCodes.swift).
    var hosted = JoinCodes()

    init(context: LobbyContext) {
        self.context = context
    }

    /// Seekers wait in one queue per kind, language, number of rounds and
    /// clock: only seekers on the same clock are paired; and variant
    /// (Superghost never meets Ghost).
    func seekKey(_ lang: String, _ options: GameOptions) -> SeekKey {
        SeekKey(game: options.game?.rawValue ?? catalog.defaultKind.name, lang: lang, rounds: options.rounds,
                clock: options.clock, variant: options.variant)
    }

    /// When the waiting seekers are next told how the other queues changed,
    /// if they changed and someone waits: `waitingInterval` after they were
    /// last told (a time past means at once).
    var seekersDue: Double? {
        guard seekers.changed else { return nil }
        guard seekers.anyoneWaits else {
            seekers.changed = false   // nobody waits: nobody to tell
            return nil
        }
        return seekers.toldAt + settings.waitingInterval
    }

    /// Tells each seeker who waits what changed in the other queues since it
    /// was last told: a WAITING line per queue whose count changed, with
    /// `count=0` for a queue that emptied. Runs from `tick`, at most once per
    /// `waitingInterval`, so a burst of seeks costs each seeker a few lines.
    func tellSeekers() {
        seekers.changed = false
        seekers.toldAt = clock.monotonic
        let queues = seekers.waitingQueues()
        for (key, queue) in seekers.queues {
            var others = queues
            others[key] = nil
            for id in queue.members {
                guard let told = sessions[id]?.waitingTold, others != told else { continue }
                for k in Set(others.keys).union(told.keys).sorted() where others[k]?.count != told[k]?.count {
                    guard var w = others[k] ?? told[k] else { continue }
                    if others[k] == nil { w.count = 0 }
                    reply(id, .waiting(game: w.game, lang: w.lang, rounds: w.rounds, count: w.count, clock: w.clock, variant: w.variant))
                }
                sessions.update(id) { $0.waitingTold = others }
            }
        }
    }

    /// Stops a seek or closes a hosted private game.
    func stopWaiting(_ id: ConnectionID, _ session: Session) {
        switch session.state {
        case .seeking(let options):
            seekers.remove(id, from: seekKey(session.lang, options))
        case .hosting(let code, _, _): close(code, joined: false)
        case .idle, .playing: return
        }
        sessions.update(id) { $0.state = .idle }
    }

    // MARK: Invitations (Invitations.swift)

    /// The codes of private games opened by INVITE → the invitee (lowercased):
    /// nobody else may JOIN them.
    var invitees: [String: String] = [:]
    /// A private game's code closed: `joined` when its game started. The
    /// invitations hear of it (an invitee is told its invitation went).
    var codeClosed: (_ code: String, _ joined: Bool) -> Void = { _, _ in }

    /// Closes a private game's code (its game started, or its host stopped hosting).
    func close(_ code: String, joined: Bool) {
        hosted[code] = nil
        if invitees[code] != nil { codeClosed(code, joined) }
        invitees[code] = nil
    }
}
