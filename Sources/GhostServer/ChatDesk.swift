import GhostProtocol
import GhostStore

/// Chat and reports (a part of the lobby of its own): SAY to the
/// opponent, or among a game's watchers, and REPORT for the operator. Chat
/// is never stored: each name online keeps the last lines it received in
/// memory (`heardLimit`), and only a REPORT stores some of them, with it.
final class ChatDesk: LobbyPart {
    let context: LobbyContext
    let rooms: Rooms
    let watching: WatchDesk
    var people: People { context.people }

    /// Lines each name online keeps of what it received, for a REPORT.
    static let heardLimit = 20
    /// Of those, a report stores the reported name's last ones, at most this many.
    static let reportedLines = 10
    /// A SAY the same as one of the sender's last `repeatMemory` costs
    /// `repeatSurcharge` units more (10× a SAY): a repeater is slowed.
    static let repeatMemory = 3
    static let repeatSurcharge = 36

    /// What a name online said last (lowercased), and what it heard.
    private var said: [String: [String]] = [:]
    private var heard: [String: [(from: String, game: Int, text: String)]] = [:]

    init(context: LobbyContext, rooms: Rooms, watching: WatchDesk) {
        self.context = context
        self.rooms = rooms
        self.watching = watching
    }

    /// A name went offline: what it said and heard goes.
    func forget(_ key: String) {
        said[key] = nil
        heard[key] = nil
    }

    /// SAY <text>.
    func say(_ text: String, _ id: ConnectionID, _ session: Session) {
        guard let me = session.name else { return }
        let myKey = me.lowercased()
        guard let muted = persist({ try store.socialStore.sanction(.mute, on: me, now: clock.wall) }) else { return failed(id) }
        if let muted {
            return reply(id, .error(.muted, "the server's operator muted you" + (muted.until.map { " until \(Moderation.shown($0))" } ?? "")))
        }
        // A repeat is slowed: it costs more (the loop's budget reads the surcharge).
        let folded = text.lowercased()
        if said[myKey]?.contains(folded) == true { context.surcharge += Self.repeatSurcharge }
        said[myKey, default: []].append(folded)
        if let n = said[myKey]?.count, n > Self.repeatMemory { said[myKey]?.removeFirst(n - Self.repeatMemory) }
        if case .playing(let game, let seat) = session.state, let room = rooms[game] {
            for (s, conn) in room.seats.enumerated() where s != seat {
                guard let conn, room.names.indices.contains(s) else { continue }
                deliver(.said(id: game, player: me, watcher: false, text: text), to: conn, key: room.names[s].lowercased(), from: myKey, game: game)
            }
        } else if let game = session.watching {
            for conn in watching.members(of: game) where conn != id {
                guard let name = sessions[conn]?.name else { continue }
                deliver(.said(id: game, player: me, watcher: true, text: text), to: conn, key: name.lowercased(), from: myKey, game: game)
            }
        } else {
            return reply(id, .error(.notInGame, "SAY is for your game, or the game you watch"))
        }
        reply(id, .ok("SAY"))
    }

    /// To one person, unless they block the sender or turned chat off.
    private func deliver(_ line: SocialLine, to conn: ConnectionID, key: String, from: String, game: Int) {
        guard let p = people.byKey[key], p.chat, !p.blocks.contains(from) else { return }
        if case .said(_, _, _, let text) = line {
            heard[key, default: []].append((from, game, text))
            if let n = heard[key]?.count, n > Self.heardLimit { heard[key]?.removeFirst(n - Self.heardLimit) }
        }
        outbox.send(.social(line), to: conn)
    }

    /// REPORT <name> <reason>: stored with what that name last said to the reporter.
    func report(_ target: String, _ reason: String, _ id: ConnectionID, _ session: Session) {
        guard let me = session.name else { return }
        let now = clock.wall
        guard let known = persist({ try store.storedName(target) }) else { return failed(id) }
        guard let reported = known else { return reply(id, .error(.noSuchName, "nobody has used the name \(target) here")) }
        guard reported.lowercased() != me.lowercased() else { return reply(id, .error(.badArguments, "you cannot report yourself")) }
        let limit = settings.maxReportsPerDay
        guard let made = persist({ try store.socialStore.reportCount(by: me, since: now - 86_400, limit: limit) }) else { return failed(id) }
        guard made < limit else {
            return reply(id, .error(.tooManyReports, "you have made \(limit) reports in a day, the most there may be; the operator reads them"))
        }
        let lines = (heard[me.lowercased()] ?? []).filter { $0.from == reported.lowercased() }.suffix(Self.reportedLines)
        guard persist({
            try store.socialStore.addReport(reporter: me, reported: reported, at: now, game: lines.last?.game,
                                            reason: reason, chat: lines.map(\.text))
        }) != nil else { return failed(id) }
        log("report of \(reported) by \(me)")
        reply(id, .ok("REPORT", ("name", reported)))
    }
}
