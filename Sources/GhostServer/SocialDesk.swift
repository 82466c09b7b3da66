import GameKit
import GhostProtocol
import GhostStore

/// Friends and blocks (a part of the lobby of its own): FOLLOW, UNFOLLOW,
/// FOLLOWING, BLOCK, UNBLOCK, BLOCKS, the presence of names (ONLINE and
/// OFFLINE to their followers), and the settings `presence`, `chat` and
/// `invites`. What it knows of the names online is `People` (People.swift),
/// filled when a name is taken and emptied when it is given up (`settle`).
final class SocialDesk: LobbyPart {
    let context: LobbyContext
    /// The games in play (FOLLOWING's `playing=`).
    let rooms: Rooms
    var people: People { context.people }

    /// The last presence each name's followers were told, and when (monotonic
    /// seconds): a name is announced at most once per `presenceInterval`.
    private var told: [String: (online: Bool, at: Double)] = [:]
    /// Names whose presence changed within their interval: told at its end
    /// (`tick`) if it then differs from what was told.
    private var deferred: Set<String> = []
    private var pruneAt = 64
    /// A name went offline (ChatDesk forgets its lines).
    var wentOffline: (String) -> Void = { _ in }

    init(context: LobbyContext, rooms: Rooms) {
        self.context = context
        self.rooms = rooms
    }

    // MARK: Settings

    static let presenceKey = "presence", chatKey = "chat", invitesKey = "invites"

    /// FOLLOWING and BLOCKS cost a unit more per this many rows listed (on
    /// top of their fixed 4): a list of 400 weighs what it costs
    /// (about 0.5 ms, 4 M instructions: BENCHMARKS.md, issue #47).
    static let rowsPerUnit = 10

    /// The settings between people, after the kinds' in SETTINGS.
    static let settingSpecs: [SettingSpec] = [
        onOff(presenceKey),
        onOff(chatKey),
        SettingSpec(key: invitesKey, option: invitesKey, defaultValue: People.InvitePolicy.anyone.rawValue) { value, _ in
            People.InvitePolicy(rawValue: value) != nil ? .success(value)
                : .failure(SetupError(code: .badValue, message: "invites is anyone, friends (the names you follow) or nobody"))
        },
    ]

    private static func onOff(_ key: String) -> SettingSpec {
        SettingSpec(key: key, option: key, defaultValue: "on") { value, _ in
            value == "on" || value == "off" ? .success(value) : .failure(SetupError(code: .badValue, message: "\(key) is on or off"))
        }
    }

    /// A setting was saved for `name` (SettingsDesk.swift): a name online takes it at once.
    func settingChanged(_ name: String, _ key: String, _ value: String) {
        let k = name.lowercased()
        guard var p = people.byKey[k] else { return }
        let wasShown = p.presence
        apply(key, value, to: &p)
        people.byKey[k] = p
        if wasShown != p.presence { presenceChanged(k) }
    }

    private func apply(_ key: String, _ value: String, to p: inout People.Person) {
        switch key {
        case Self.presenceKey: p.presence = value != "off"
        case Self.chatKey: p.chat = value != "off"
        case Self.invitesKey: p.invites = People.InvitePolicy(rawValue: value) ?? .anyone
        default: break
        }
    }

    // MARK: Names taken and given up

    /// Takes the names taken or given up since the last call (`Sessions.names`)
    /// into `People`, and tells followers. The lobby calls it after each
    /// command, disconnection, login and recovery: however a name changed hands.
    func settle() {
        let touched = sessions.names.takeTouched()
        guard !touched.isEmpty else { return }
        for key in touched.sorted() {
            let holder = sessions.names[key]
            let known = people.byKey[key] != nil
            if let holder, !known, let name = sessions[holder]?.name {
                load(key, name, registered: sessions[holder]?.loggedIn?.lowercased() == key)
                presenceChanged(key)
            } else if holder == nil, known {
                people.remove(key)
                wentOffline(key)
                presenceChanged(key)
            } else if let holder, known, sessions[holder]?.loggedIn?.lowercased() == key, people.byKey[key]?.registered == false {
                // A guest's connection logged in to the name it held: its stored lists come in.
                people.remove(key)
                load(key, sessions[holder]?.name ?? key, registered: true)
            }
        }
    }

    /// A connection with a name went: the name was last seen now (FOLLOWING's
    /// `seen=`). Written as the connection goes, in its turn.
    func left(_ name: String) {
        _ = persist { try store.socialStore.touch(name, now: clock.wall) }
    }

    /// A name taken: its lists and settings, from the store (bounded by the caps).
    private func load(_ key: String, _ name: String, registered: Bool) {
        var p = People.Person(name: name, registered: registered)
        if registered {
            let lists = persist { () throws -> ([String], [String]) in
                (try store.socialStore.follows(of: name, limit: settings.maxFollows).map { $0.name.lowercased() },
                 try store.socialStore.blocks(of: name, limit: settings.maxBlocks).map { $0.lowercased() })
            }
            p.follows = Set(lists?.0 ?? [])
            p.blocks = Set(lists?.1 ?? [])
        }
        if let prefs = persist({ try store.preferences(for: name) }) {
            for spec in Self.settingSpecs { if let v = prefs[spec.key] { apply(spec.key, v, to: &p) } }
        }
        people.add(key, p)
    }

    // MARK: Presence

    /// What followers see of `key` now: online, unless hidden.
    private func shown(_ key: String) -> Bool { people.byKey[key]?.presence ?? false }

    /// `key` came, went, or hid: its followers are told now, or at the end
    /// of its interval. With no follower online nothing is sent or waited
    /// for: who comes later asks FOLLOWING. A name not told online is
    /// offline to its followers.
    func presenceChanged(_ key: String) {
        let online = shown(key)
        guard people.followersOnline[key]?.isEmpty == false else {
            if online { told[key] = (true, told[key]?.at ?? -.infinity) } else { told[key] = nil }
            deferred.remove(key)
            return
        }
        guard (told[key]?.online ?? false) != online else {
            deferred.remove(key)
            return
        }
        let now = clock.monotonic
        if let at = told[key]?.at, now - at < settings.presenceInterval {
            deferred.insert(key)
            return
        }
        announce(key, online: online, now: now)
    }

    private func announce(_ key: String, online: Bool, now: Double) {
        prune(now: now)
        told[key] = (online, now)
        guard let followers = people.followersOnline[key], !followers.isEmpty else { return }
        let name = people.byKey[key]?.name ?? key
        let line = ServerLine.social(online ? .online(name: name) : .offline(name: name))
        let blocks = people.byKey[key]?.blocks ?? []
        for f in followers.sorted() where !blocks.contains(f) {
            if let conn = sessions.names[f] { outbox.send(line, to: conn) }
        }
    }

    /// The names whose interval ended are told, if their presence changed.
    /// Nothing to do (nearly every turn): no clock is read.
    func tick() {
        guard !deferred.isEmpty else { return }
        let now = clock.monotonic
        for key in deferred.sorted() where now - (told[key]?.at ?? -.infinity) >= settings.presenceInterval {
            deferred.remove(key)
            let online = shown(key)
            if (told[key]?.online ?? false) != online { announce(key, online: online, now: now) }
        }
    }

    /// Old records go once there are twice as many as after the last pruning
    /// (amortized O(1) a change): kept are the names told online (as many
    /// as are online) and the recent ones.
    private func prune(now: Double) {
        guard told.count >= pruneAt else { return }
        told = told.filter { $0.value.online || now - $0.value.at < settings.presenceInterval || deferred.contains($0.key) }
        pruneAt = max(64, told.count * 2)
    }

    /// When `tick` next has work: the earliest end of a deferred name's interval.
    var due: Double? {
        guard !deferred.isEmpty else { return nil }
        return deferred.compactMap { told[$0].map { $0.at + settings.presenceInterval } }.min()
    }

    // MARK: FOLLOW, UNFOLLOW, FOLLOWING

    /// The asker's registered name, or nil after an ERR (follows are stored).
    private func registeredName(_ id: ConnectionID, _ session: Session, _ verb: String) -> String? {
        guard let name = session.name, session.loggedIn?.lowercased() == name.lowercased() else {
            reply(id, .error(.notRegistered, "\(verb) is for registered names: REGISTER <password> first"))
            return nil
        }
        noteRegistered(name, session)
        return name
    }

    /// A name registered since it was taken (REGISTER) keeps its lists from now on.
    private func noteRegistered(_ name: String, _ session: Session) {
        let key = name.lowercased()
        if session.loggedIn?.lowercased() == key, people.byKey[key]?.registered == false { people.byKey[key]?.registered = true }
    }

    func follow(_ target: String, _ id: ConnectionID, _ session: Session) {
        guard let me = registeredName(id, session, "FOLLOW") else { return }
        let key = target.lowercased(), myKey = me.lowercased()
        guard key != myKey else { return reply(id, .error(.badArguments, "you cannot follow yourself")) }
        guard let account = persist({ try store.account(target) }) else { return failed(id) }
        guard let account else { return reply(id, .error(.notRegistered, "\(target) is not a registered name: only those can be followed")) }
        let mine = people.byKey[myKey]?.follows ?? []
        if !mine.contains(key) {
            guard mine.count < settings.maxFollows else {
                return reply(id, .error(.tooManyFollows, "you follow \(settings.maxFollows) names, the most there may be; UNFOLLOW one first"))
            }
            guard persist({ try store.socialStore.follow(me, account.name, now: clock.wall) }) != nil else { return failed(id) }
            people.link(follower: myKey, followee: key)
        }
        reply(id, .ok("FOLLOW", ("name", account.name), ("online", people.showsOnline(key, to: myKey) ? "yes" : "no")))
    }

    func unfollow(_ target: String, _ id: ConnectionID, _ session: Session) {
        guard let me = registeredName(id, session, "UNFOLLOW") else { return }
        let key = target.lowercased(), myKey = me.lowercased()
        guard persist({ try store.socialStore.unfollow(me, target) }) != nil else { return failed(id) }
        people.unlink(follower: myKey, followee: key)
        reply(id, .ok("UNFOLLOW", ("name", target)))
    }

    /// FOLLOWING: online names first, then the rest, each by name. O(the
    /// names followed): at most `maxFollows`.
    func following(_ id: ConnectionID, _ session: Session) {
        guard let me = registeredName(id, session, "FOLLOWING") else { return }
        let myKey = me.lowercased()
        guard let rows = persist({ try store.socialStore.follows(of: me, limit: settings.maxFollows) }) else { return failed(id) }
        // Sorted by keys made once (online first, then by name), not
        // lowercased at every comparison.
        let lines = rows.map { row -> (online: Bool, key: String, line: SocialLine) in
            let key = row.name.lowercased()
            guard people.showsOnline(key, to: myKey) else {
                let hidden = people.byKey[key] != nil   // online, hidden or blocking: no last seen either
                return (false, key, .friend(name: row.name, online: false, playing: nil, seen: hidden ? nil : row.lastSeen))
            }
            var playing: Int?
            if let conn = sessions.names[key], case .playing(let game, _)? = sessions[conn]?.state, rooms[game]?.open == true {
                playing = game
            }
            return (true, key, .friend(name: people.byKey[key]?.name ?? row.name, online: true, playing: playing, seen: nil))
        }.sorted { $0.online != $1.online ? $0.online : $0.key < $1.key }
        for l in lines { reply(id, .social(l.line)) }
        // Weighed by the rows listed: 400 names cost 40 units more.
        context.surcharge += lines.count / Self.rowsPerUnit
        reply(id, .ok("FOLLOWING", ("count", String(lines.count))))
    }

    // MARK: BLOCK, UNBLOCK, BLOCKS

    func block(_ target: String, _ id: ConnectionID, _ session: Session) {
        guard let me = session.name else { return }
        let key = target.lowercased(), myKey = me.lowercased()
        guard key != myKey else { return reply(id, .error(.badArguments, "you cannot block yourself")) }
        noteRegistered(me, session)
        guard var p = people.byKey[myKey] else { return failed(id) }
        if !p.blocks.contains(key) {
            guard p.blocks.count < settings.maxBlocks else {
                return reply(id, .error(.tooManyBlocks, "you block \(settings.maxBlocks) names, the most there may be; UNBLOCK one first"))
            }
            if p.registered {
                let now = clock.wall
                guard persist({ () throws -> Bool in
                    try store.socialStore.block(me, target, now: now)
                    try store.socialStore.unfollow(me, target)
                    try store.socialStore.unfollow(target, me)
                    return true
                }) != nil else { return failed(id) }
            }
            p.blocks.insert(key)
            people.byKey[myKey] = p
            // A block ends a follow either way.
            people.unlink(follower: myKey, followee: key)
            people.unlink(follower: key, followee: myKey)
        }
        reply(id, .ok("BLOCK", ("name", target)))
    }

    func unblock(_ target: String, _ id: ConnectionID, _ session: Session) {
        guard let me = session.name else { return }
        let key = target.lowercased(), myKey = me.lowercased()
        noteRegistered(me, session)
        if people.byKey[myKey]?.registered == true {
            guard persist({ try store.socialStore.unblock(me, target) }) != nil else { return failed(id) }
        }
        people.byKey[myKey]?.blocks.remove(key)
        reply(id, .ok("UNBLOCK", ("name", target)))
    }

    /// BLOCKS: by name. A registered name's as stored (their spelling as
    /// blocked); a guest's for this connection.
    func listBlocks(_ id: ConnectionID, _ session: Session) {
        guard let me = session.name else { return }
        noteRegistered(me, session)
        let names: [String]
        if people.byKey[me.lowercased()]?.registered == true {
            guard let stored = persist({ try store.socialStore.blocks(of: me, limit: settings.maxBlocks) }) else { return failed(id) }
            names = stored
        } else {
            names = (people.byKey[me.lowercased()]?.blocks ?? []).sorted()
        }
        for n in names { reply(id, .social(.blocked(name: n))) }
        context.surcharge += names.count / Self.rowsPerUnit
        reply(id, .ok("BLOCKS", ("count", String(names.count))))
    }
}

