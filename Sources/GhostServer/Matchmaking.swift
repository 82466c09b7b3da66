import GameKit
import GhostProtocol
import GhostStore

/// Finding an opponent (a part of the lobby of its own): SEEK and
/// its queues (WAITING), NEW (against the computer, or a private game with a
/// join code), JOIN, REMATCH and LEAVE, and what NEW and SEEK read from a
/// game kind's declarations (its option keys and computer levels, HELP's line
/// per kind). It fills the seek queues and the join codes (`Waiting`, below
/// it, which also empties them) and owns the wrong-JOIN allowance; the games
/// themselves are the game side's (`GamePlay.startGame`).
final class Matchmaking: LobbyPart {
    let context: LobbyContext
    /// The games in play (LEAVE's).
    let rooms: Rooms
    /// Who waits for an opponent: the seek queues and the open private
    /// games' join codes (Waiting.swift, below this part, as the others).
    let waiting: Waiting
    /// The parts it uses, below it: a game starts (GamePlay), is aborted
    /// or capped (Lifecycle), ends watching (WatchDesk), is rated
    /// (RatingDesk), takes a name's saved settings (SettingsDesk).
    let play: GamePlay
    let lifecycle: Lifecycle
    let watching: WatchDesk
    let ratings: RatingDesk
    let preferences: SettingsDesk
    /// Failed JOINs per network (`Settings.failedJoinsPerMinute`).
    var failedJoins: TokenBuckets

    init(context: LobbyContext, rooms: Rooms, waiting: Waiting, play: GamePlay, lifecycle: Lifecycle, watching: WatchDesk,
         ratings: RatingDesk, preferences: SettingsDesk) {
        self.context = context
        self.rooms = rooms
        self.waiting = waiting
        self.play = play
        self.lifecycle = lifecycle
        self.watching = watching
        self.ratings = ratings
        self.preferences = preferences
        let settings = context.settings
        failedJoins = TokenBuckets(perSecond: settings.failedJoinsPerMinute / 60, burst: settings.failedJoinBurst)
    }

    func seek(_ options: GameOptions, _ id: ConnectionID, _ session: Session) {
        guard clockAllowed(options, id, seeking: true), ready(id, session) else { return }
        // Another kind's options are checked now, not when a partner comes,
        // and must make a game between two people.
        var options = options
        if options.game != nil || options.variant != nil {
            guard let (kind, setup) = setUp(options, lang: session.lang, id, people: 2) else { return }
            guard setup.computerSeat == nil else {
                return reply(id, .error(.badArguments, "that is a game against the computer: use NEW"))
            }
            options.settings.merge(kind.twoPlayerOptions) { given, _ in given }
        }
        let key = waiting.seekKey(session.lang, options)
        let ok = ServerLine.ok(.seek(lang: session.lang, rounds: options.rounds, clock: options.clock))
        // The first seeker whose rating and range fit (RatingDesk.swift).
        if let queue = waiting.seekers[key], let other = ratings.fittingSeeker(queue, options, session) {
            reply(id, ok)
            // The game the first seeker asked for, as JOIN takes the host's:
            // the queue is per kind, language and rounds, the rest is theirs.
            var agreed = options
            if case .seeking(let first)? = sessions[other]?.state { agreed = RatingDesk.agreed(first, options) }
            guard play.startGame(lang: session.lang, people: [other, id], options: agreed) else { return failed(id) }
            waiting.seekers.take(other, from: key)
        } else {
            waiting.seekers.append(id, to: key, SeekQueue(game: options.game?.rawValue ?? catalog.defaultKind.name, lang: session.lang,
                                                  rounds: options.rounds, clock: options.clock, variant: options.variant))
            sessions.update(id) { $0.state = .seeking(options) }
            reply(id, ok)
            reply(id, .info("Waiting for another player who seeks \(options.match ? "a match" : "a game") in \(session.lang)."))
            // Who else waits, in queues this seek will not meet (another language, kind or game type).
            var others = waiting.seekers.waitingQueues()
            others[key] = nil
            for k in others.keys.sorted() {
                if let w = others[k] { reply(id, .waiting(game: w.game, lang: w.lang, rounds: w.rounds, count: w.count, clock: w.clock, variant: w.variant)) }
            }
            sessions.update(id) { $0.waitingTold = others }
        }
    }

    /// NEW, for every kind the same way: with `bot=`, or for a kind that
    /// seats the computer by itself (Hangman against the computer), a game
    /// at once; otherwise a private game, waiting for its code.
    func new(_ options: GameOptions, _ id: ConnectionID, _ session: Session) {
        guard clockAllowed(options, id), ready(id, session),
              let (kind, setup) = setUp(options, lang: session.lang, id, savedBy: session.name) else { return }
        guard setup.computerSeat != nil || options.bot != nil else { return host(options, id, session, kind: kind, setup: setup) }
        guard play.startGame(lang: session.lang, people: [id], options: options, kind: kind, setup: setup, ack: { game in
            self.reply(id, .ok(self.newReply(kind, code: nil, options, game.setupFields, lang: session.lang)))
        }) else { return failed(id) }
    }

    /// `OK NEW`: the default kind's as protocol 1 wrote it (`OK NEW [code=]
    /// [bot=] lang= [rounds=] [clock=]`: its options are the protocol's
    /// own, as on SEEK and JOIN), another kind's naming it, with its setup
    /// (`OK NEW [code=] game=<kind> <first setup field> lang= <the rest> [bot=] [clock=]`).
    /// (`setupFields` is read only for a kind that is not the default one.)
    private func newReply(_ kind: any GameDefinition, code: String?, _ options: GameOptions,
                          _ setupFields: @autoclosure () -> [Field], lang: String) -> Reply {
        guard kind !== catalog.defaultKind else {
            return .new(code: code, bot: options.bot, lang: lang, rounds: options.rounds, clock: options.clock)
        }
        let setupFields = setupFields()
        return .other(verb: "NEW", fields: (code.map { [Field("code", $0)] } ?? []) + [Field("game", kind.name)] + setupFields.prefix(1)
                          + [Field("lang", lang)] + setupFields.dropFirst()
                          + (options.bot.map { [Field("bot", $0.rawValue)] } ?? []) + Self.clockField(options))
    }

    /// `clock=<seconds>`, last on another kind's OK NEW, for a game on a clock.
    static func clockField(_ options: GameOptions) -> [Field] {
        options.clock.map { [Field("clock", String($0))] } ?? []
    }

    /// The kind a command names and its checked setup, with the options it
    /// leaves out filled from the saved settings of `name` (NEW); nil after an ERR.
    /// `people`: a game between two people takes the kind's two-player options
    /// (a Hangman duel) unless the command says otherwise.
    func setUp(_ options: GameOptions, lang: String, _ id: ConnectionID, savedBy name: String? = nil,
               people: Int = 1) -> (any GameDefinition, GameSetup)? {
        guard let kind = options.game.map({ kind(named: $0.rawValue) }) ?? catalog.defaultKind else {
            reply(id, .error(.badArguments, "no game \(options.game?.rawValue ?? ""); games here: \(kindNames.joined(separator: ","))"))
            return nil
        }
        guard !options.match || kind.matchRounds != nil else {
            reply(id, .error(.badArguments, "rounds=ghost plays a match; \(kind.name) plays single games"))
            return nil
        }
        var saved: [String: String] = [:]
        if let name {
            guard let prefs = persist({ try preferences.savedOptions(of: name, for: kind) }) else {
                failed(id)
                return nil
            }
            saved = prefs
        }
        let settings = people == 2 ? options.settings.merging(kind.twoPlayerOptions) { given, _ in given } : options.settings
        switch kind.setup(options: settings, saved: saved, language: lang, seed: PooledRandom.seed()) {
        case .success(let setup): return (kind, setup)
        case .failure(let e):
            reply(id, .error(ErrorCode(e.code), e.message))
            return nil
        }
    }

    private func host(_ options: GameOptions, _ id: ConnectionID, _ session: Session, kind: any GameDefinition, setup: GameSetup) {
        let code = waiting.hosted.newCode()
        waiting.hosted[code] = id
        sessions.update(id) { $0.state = .hosting(code: code, options: options, setup: setup) }
        // The kind's setup fields, from its game as it will start (none if it cannot make one).
        reply(id, .ok(newReply(kind, code: code, options, kind.newGame(language: session.lang, variant: setup.variant, settings: setup.settings,
                                                                         seed: 0, starter: 0)?.setupFields ?? [], lang: session.lang)))
        reply(id, .info(LineText.giveTheCode(code)))
    }

    func join(_ typed: String, _ id: ConnectionID, _ session: Session) {
        let code = JoinCodes.normalized(typed)
        // Looked up once (a string's hash and compare each time).
        let hostOfCode = waiting.hosted[code]
        if hostOfCode == id {
            return reply(id, .error(.ownGame, "that is your own game; give the code to your opponent"))
        }
        guard ready(id, session) else { return }
        // Past its allowance of wrong codes, a network is refused whatever
        // the code: guessing costs time (JoinCodes).
        let network = session.network, now = clock.monotonic
        if let wait = failedJoins.wait(network, at: now) {
            return reply(id, .error(.tooManyJoins, "too many JOINs with a wrong code from your address; try again in \(Int(wait.rounded(.up))) s"))
        }
        // The host's language and game, read in place (`Sessions.peek`).
        // An invitation's code is its invitee's only: to anyone else, no such game.
        let invitee = waiting.invitees[code]
        guard let host = hostOfCode, invitee == nil || invitee == session.name?.lowercased(), let (hostLang, hosting) = sessions.peek(host, { s -> (String, (GameOptions, GameSetup?)?) in
            if case .hosting(_, let o, let setup) = s.state { return (s.lang, (o, setup)) }
            return (s.lang, nil)
        }) else {
            _ = failedJoins.take(network, at: now)
            return reply(id, .error(.noSuchGame, "no open private game has that code"))
        }
        guard host != id else {
            return reply(id, .error(.ownGame, "that is your own game; give the code to your opponent"))
        }
        var options = GameOptions.single
        var setup: GameSetup?
        if let (o, s) = hosting {
            options = o
            setup = s
        }
        guard ratings.mayJoinRated(options, id, session, host: host) else { return }
        reply(id, .ok(.join(code: code, lang: hostLang, rounds: options.rounds, clock: options.clock)))
        guard play.startGame(lang: hostLang, people: [host, id], options: options, setup: setup) else { return failed(id) }
        waiting.close(code, joined: true)
    }

    /// INVITE's game: a private game for two people, checked as NEW checks
    /// one, hosted without a reply (the invitation answers, Invitations.swift).
    /// Nil after an `ERR`.
    func hostInvitation(_ given: GameOptions, _ id: ConnectionID, _ session: Session)
        -> (code: String, kind: any GameDefinition, options: GameOptions, fields: [Field])? {
        guard let options = kindOptions(given, id), ratings.ratedOptionsHold(options, seeking: false, id, session),
              clockAllowed(options, id), ready(id, session),
              let (kind, setup) = setUp(options, lang: session.lang, id, savedBy: session.name, people: 2) else { return nil }
        guard setup.computerSeat == nil, options.bot == nil, options.settings["bot"] == nil else {
            reply(id, .error(.badArguments, "INVITE plays a person: to play the computer, NEW bot=<level>"))
            return nil
        }
        let code = waiting.hosted.newCode()
        waiting.hosted[code] = id
        sessions.update(id) { $0.state = .hosting(code: code, options: options, setup: setup) }
        let fields = kind.newGame(language: session.lang, variant: setup.variant, settings: setup.settings, seed: 0, starter: 0)?.setupFields ?? []
        return (code, kind, options, fields)
    }

    func rematch(_ id: ConnectionID, _ session: Session) {
        guard session.state == .idle, let last = session.last,
              let other = sessions[last.opponent], other.last?.game == last.game, other.state == .idle else {
            return reply(id, .error(.noRematch, "no finished game against an opponent who is still here and free"))
        }
        guard lifecycle.underGameCaps(id, session) else { return }
        guard other.last?.asked == true else {
            // Asking again changes nothing and does not tell the opponent twice.
            if last.asked { return reply(id, .ok(.rematch(status: .asked))) }
            sessions.update(id) { $0.last?.asked = true }
            reply(id, .ok(.rematch(status: .asked)))
            outbox.send(.rematch(id: last.game, player: session.name ?? "?"), to: last.opponent)
            outbox.send(.info("\(session.name ?? "?") wants a rematch: send REMATCH to play again."), to: last.opponent)
            return
        }
        reply(id, .ok(.rematch(status: .started)))
        // The other player starts this time.
        let seats = last.seat == 0 ? [last.opponent, id] : [id, last.opponent]
        let kind = kind(named: last.kind) ?? catalog.defaultKind
        var options = GameOptions(match: last.match, game: kind.name == catalog.defaultKind.name ? nil : GameKind(rawValue: kind.name),
                                  clock: last.clock)
        options.watch = last.watch
        guard play.startGame(lang: last.lang, people: seats, options: options, kind: kind, setup: last.setup) else { return failed(id) }
    }

    /// Whether a command's `clock=` (if any) is in `Settings.clockRange`,
    /// and for SEEK one of `Settings.seekClocks`; otherwise replies `ERR bad-value`.
    func clockAllowed(_ options: GameOptions, _ id: ConnectionID, seeking: Bool = false) -> Bool {
        guard let clock = options.clock else { return true }
        let range = settings.clockRange
        guard range.contains(clock) else {
            reply(id, .error(.badValue, "clock= is the seconds per move, \(range.lowerBound) to \(range.upperBound)"))
            return false
        }
        guard !seeking || settings.seekClocks.contains(clock) else {
            let clocks = settings.seekClocks.map(String.init).joined(separator: ",")
            reply(id, .error(.badValue, "SEEK takes clock=\(clocks); NEW takes any clock from \(range.lowerBound) to \(range.upperBound)"))
            return false
        }
        return true
    }

    /// Whether the session may start or join a game; otherwise replies with an error.
    /// (SEEK, NEW and JOIN need a name: their rows' `needsName`.)
    private func ready(_ id: ConnectionID, _ session: Session) -> Bool {
        switch session.state {
        case .idle:
            // The caps on games in progress (Lifecycle.swift).
            guard lifecycle.underGameCaps(id, session) else { return false }
            // Starting something else lets a pending rematch request lapse,
            // and ends watching.
            forgetLastGame(id)
            watching.stopWatching(id)
            return true
        case .seeking: reply(id, .error(.busy, "you are already seeking a game; LEAVE to stop"))
        case .hosting(let code, _, _): reply(id, .error(.busy, "you are hosting the private game \(code); LEAVE to close it"))
        case .playing: reply(id, .error(.busy, "you are in a game"))
        }
        return false
    }

    func leave(_ id: ConnectionID, _ session: Session) {
        switch session.state {
        case .idle:
            reply(id, .error(.notInGame, "you are not in a game, a seek or a private game"))
        case .seeking, .hosting:
            waiting.stopWaiting(id, session)
            reply(id, .ok(.leave))
        case .playing(let gameID, let seat):
            guard let room = rooms[gameID] else { return }
            // Before any move it is no game yet: aborted, not lost (Lifecycle.swift).
            if !room.moved.contains(true) {
                guard lifecycle.abort(gameID, reason: .left, ack: (id, .ok(.leave))) else { return failed(id) }
                return
            }
            guard play.finish(gameID, loser: seat, reason: .left, ack: (id, .ok(.leave))) else { return failed(id) }
        }
    }

    // MARK: What a kind declares

    /// A NEW's or SEEK's options as the kind they name takes them, or nil
    /// after an `ERR`: each key must be one the kind declares (`optionKeys`),
    /// and `bot=<level>` one of its `computerLevels`; a kind without levels
    /// reads `bot=` as its own option (Hangman's `bot=guesser`). Options
    /// without `game=` are the default kind's, checked as before.
    func kindOptions(_ given: GameOptions, _ id: ConnectionID) -> GameOptions? {
        guard let name = given.game?.rawValue, let kind = kind(named: name) else { return given }
        var options = given
        if let level = options.bot, !kind.computerLevels.contains(level) {
            guard kind.optionKeys.contains("bot") else {
                let levels = kind.computerLevels.map(\.rawValue).joined(separator: "|")
                reply(id, .error(.badArguments, levels.isEmpty ? "game=\(kind.name) has no computer player"
                                                                : "game=\(kind.name) plays the computer at bot=\(levels)"))
                return nil
            }
            options.bot = nil
            options.settings["bot"] = level.rawValue
            if options.botFirst {
                reply(id, .error(.badArguments, "first= needs bot="))
                return nil
            }
        }
        for key in options.settings.keys.sorted() where !kind.optionKeys.contains(key) {
            let others = kindNames.filter { self.kind(named: $0)?.optionKeys.contains(key) == true }
            reply(id, .error(.badArguments, others.isEmpty
                ? "game=\(kind.name) takes no \(key)=: usage: NEW \(kind.usage)"
                : "\(key)= is for game=\(others.joined(separator: "|"))"))
            return nil
        }
        return options
    }

    /// The HELP lines of the kinds: `HELP <usage of NEW> - <summary>`, one per kind.
    var kindHelp: [ServerLine] {
        kindNames.compactMap { kind(named: $0) }.map { .helpEntry(usage: "NEW \($0.usage)", text: $0.summary) }
    }
}
