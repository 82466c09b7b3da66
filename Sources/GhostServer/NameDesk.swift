import GhostProtocol
import GhostStore

/// Names and languages (a part of the lobby of its own): NAME
/// (a guest's, and a registered name's once its password is right:
/// AccountDesk.swift), LANG and `SET lang`, and the last game a connection
/// may rematch. It owns the allowance of new names per address.
final class NameDesk: LobbyPart {
    let context: LobbyContext
    /// The games in play (a guest's name may be a seat's that waits for its player).
    let rooms: Rooms
    /// The part it uses, below it: LANG in a game is an offer (Offers.swift).
    let offers: Offers
    /// New names per address (`Settings.newNamesPerMinute`).
    var newNames: TokenBuckets
    /// Why a name may not be used now (the operator banned it: Moderation.swift), nil if it may.
    var refusal: (String) -> ServerLine? = { _ in nil }

    init(context: LobbyContext, rooms: Rooms, offers: Offers) {
        self.context = context
        self.rooms = rooms
        self.offers = offers
        let settings = context.settings
        newNames = TokenBuckets(perSecond: settings.newNamesPerMinute / 60, burst: settings.newNameBurst)
    }

    /// NAME: `loggedIn`, after the right password (AccountDesk.swift),
    /// which has taken the name from any other connection already.
    func setName(_ name: String, _ id: ConnectionID, _ session: Session, loggedIn: Bool = false) {
        let key = name.lowercased()
        // A bad name is refused before the state is looked at (Protocol.md §6).
        if key.hasPrefix(GamePlay.botPrefix) {
            return reply(id, .error(.badName, "names starting with \(GamePlay.botPrefix) are kept for the computer"))
        }
        guard session.state == .idle else {
            return reply(id, .error(.busy, "you cannot change your name during a game, a seek or a private game"))
        }
        if let banned = refusal(name) { return reply(id, banned) }
        if !loggedIn, let holder = sessions.names[key], holder != id {
            // A registered name asks for its password even while in use: the
            // owner's right password takes it over (AccountDesk.swift), so
            // the owner's client must hear that it may offer one.
            guard let registered = persist({ try store.isRegistered(name) }) else { return failed(id) }
            if registered, session.loggedIn?.lowercased() != key {
                return reply(id, .error(.passwordRequired, "\(name) is registered: NAME \(name) <password>"))
            }
            return reply(id, .error(.nameTaken, "another player is using that name"))
        }
        // A guest never takes a registered name, nor one whose game waits for its player.
        var registered = loggedIn
        if !loggedIn {
            guard let guest = guestCheck(name, id, session) else { return failed(id) }
            if let refusal = guest.refusal { return reply(id, refusal) }
            registered = guest.registered
        }
        let now = clock.wall
        guard let known = persist({ try store.isKnownName(name) }) else { return failed(id) }
        // Peeked here, taken once the name is stored: a NAME answered
        // store-failed costs nothing of the allowance.
        if !known, let wait = newNames.wait(session.address, at: clock.monotonic) {
            return reply(id, .error(.tooManyNames, "too many new names from your address; try again in \(Int(wait.rounded(.up))) s, or use a name you have used before"))
        }
        guard let stored = persist({ () throws -> (String, String) in
            let stored = try store.registerName(name, now: now)
            if session.langChosen {
                try store.setPreference(.language, session.lang, for: stored, now: now)
                return (stored, session.lang)
            }
            return (stored, try store.preference(.language, for: stored))
        }) else { return failed(id) }
        if !known { _ = newNames.take(session.address, at: clock.monotonic) }
        if let old = session.name { sessions.release(old, by: id) }
        sessions.names[key] = id
        forgetLastGame(id)
        sessions.update(id) { $0.name = name }
        if dictionaries[stored.1] != nil { sessions.update(id) { $0.lang = stored.1 } }
        let lang = sessions[id]?.lang ?? defaultLanguage
        if registered { sessions.update(id) { $0.loggedIn = name } }
        reply(id, .ok(registered ? .loggedIn(name: name, lang: lang) : .name(name: name, lang: lang)))
    }

    /// LANG, and `SET lang` (`asSetting`): in a game, LANG offers to switch
    /// the game's language, while `SET lang` only saves it for the next games.
    func setLanguage(_ code: String, _ id: ConnectionID, _ session: Session, asSetting: Bool = false) {
        guard dictionaries[code] != nil else {
            return reply(id, .error(.unknownLanguage, "languages here: \(dictionaries.languages.joined(separator: ","))"))
        }
        switch session.state {
        case .playing where !asSetting:
            return offers.offerOrApply(kind: .lang, lang: code, id, session)
        case .seeking, .hosting:
            return reply(id, .error(.busy, "LEAVE the seek or private game first; the language applies to new games"))
        case .idle, .playing:
            break
        }
        if let name = session.name {
            guard persist({ try store.setPreference(.language, code, for: name, now: clock.wall) }) != nil else {
                return failed(id)
            }
        }
        sessions.update(id) { $0.lang = code }
        sessions.update(id) { $0.langChosen = true }
        reply(id, .ok(asSetting ? .set(key: Preference.language.rawValue, value: code) : .lang(lang: code, status: nil)))
    }

    // MARK: Guests

    /// Whether a connection may take `name` as a guest (plain NAME): nil
    /// when the store cannot be read; else the refusal, if any, and whether
    /// the name is registered and this connection logged in to it before.
    func guestCheck(_ name: String, _ id: ConnectionID, _ session: Session) -> (refusal: ServerLine?, registered: Bool)? {
        if session.loggedIn?.lowercased() == name.lowercased() { return (nil, true) }
        guard let registered = persist({ try store.isRegistered(name) }) else { return nil }
        if registered {
            return (.error(.passwordRequired, "\(name) is registered: NAME \(name) <password>"), true)
        }
        guard sessions.names[name.lowercased()] != id else { return (nil, false) }
        guard let waiting = seatWaiting(name) else { return nil }
        if waiting {
            return (.error(.nameTaken, "\(name) has a game waiting for its player, who comes back with RESUME"), false)
        }
        return (nil, false)
    }

    /// Whether `name` has a seat in a game in progress whose player is
    /// away (a game not in memory has nobody at it); nil when the store
    /// cannot be read. Bounded: `seatScanLimit` games per seat.
    private func seatWaiting(_ name: String) -> Bool? {
        guard let seats = persist({ try store.activeSeats(player: name, limit: AccountDesk.seatScanLimit) }) else { return nil }
        for (game, seat) in seats {
            guard let room = rooms[game] else { return true }
            if room.seats.indices.contains(seat), room.isAway(seat) { return true }
        }
        return false
    }
}

/// Any part may end a connection's claim on a rematch (it left, started
/// something else, or its name went): the sessions and the outbox are all
/// it needs, so it is the context's, not a call on NameDesk.
extension LobbyPart {
    /// The connection can no longer rematch its last game (it left, started
    /// something else or changed its name). A pending rematch request between
    /// the two lapses: the opponent, if it is still waiting on it, is told.
    func forgetLastGame(_ id: ConnectionID) {
        // Each session looked up once and read in place: this runs before
        // every game a person starts (no copies of the sessions and their
        // last games, no second look-ups).
        var taken: Lobby.LastGame?
        sessions.update(id) { swap(&taken, &$0.last) }   // moved out, nil left
        guard let last = taken else { return }
        var lapses = false
        sessions.update(last.opponent) { s in
            lapses = s.last?.game == last.game && (last.asked || s.last?.asked == true)
        }
        guard lapses else { return }
        let asker = last.asked ? sessions[id]?.name : sessions[last.opponent]?.name
        outbox.send(.cancelled(id: last.game, player: asker ?? "?", kind: .rematch), to: last.opponent)
        sessions.update(last.opponent) { $0.last = nil }
    }
}
