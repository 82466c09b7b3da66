import GameKit
import GhostCore
import GhostProtocol
import GhostStore

/// Games in progress (`lobby.play`): starting and restoring them, moves,
/// the end of a game outside the rules, the computer's moves, hints, and
/// telling players. The end of a game is stored and announced by
/// `Finishing`, offers to restart are `Offers`, adjournment, resumption and
/// the clock are `Away`.
final class GamePlay: Broadcasting {
    let context: LobbyContext
    /// The games in play (the lobby's registry, Rooms.swift), and when each next needs the clock.
    let rooms: Rooms
    let deadlines: Deadlines<Room>
    /// The parts it uses, below it (GamePart).
    let watching: WatchDesk
    let recovery: RecoveryDesk
    let ratings: RatingDesk
    let finishing: Finishing

    init(context: LobbyContext, rooms: Rooms, deadlines: Deadlines<Room>, watching: WatchDesk, recovery: RecoveryDesk,
         ratings: RatingDesk, finishing: Finishing) {
        self.context = context
        self.rooms = rooms
        self.deadlines = deadlines
        self.watching = watching
        self.recovery = recovery
        self.ratings = ratings
        self.finishing = finishing
    }

    // MARK: Starting and restoring

    /// Names of the computer's seats are `bot-<level>`; people cannot take them.
    static let botPrefix = "bot-"

    /// Starts a game between connected people (one, with a computer seat, or
    /// two). Returns false, having changed nothing, if it cannot be stored.
    @discardableResult
    func startGame(lang: String, people: [ConnectionID], options: GameOptions,
                   kind given: (any GameDefinition)? = nil, setup prepared: GameSetup? = nil,
                   ack: ((any Game) -> Void)? = nil) -> Bool {
        guard let kind = given ?? options.game.flatMap({ kind(named: $0.rawValue) }) ?? (options.game == nil ? catalog.defaultKind : nil),
              let person = people.first else { return false }
        let seed = PooledRandom.seed()
        guard let setup = prepared ?? (try? kind.setup(options: options.settings, saved: [:], language: lang, seed: seed).get())
        else { return false }
        var seats: [ConnectionID?] = people.map { $0 }   // not a cast of the array, which converts it element by element through the runtime on every new game
        // Per seat, in place (not two arrays made and freed every game).
        var bots = SeatPair<BotLevel?>(nil, nil)
        var botNames = SeatPair<String?>(nil, nil)
        if let level = options.bot {
            seats = options.botFirst ? [nil, person] : [person, nil]
            bots = options.botFirst ? SeatPair(level, nil) : SeatPair(nil, level)
        } else if let seat = setup.computerSeat, (0...1).contains(seat) {
            // The kind seats the computer itself (Hangman's setter).
            seats = seat == 0 ? [nil, person] : [person, nil]
            bots[seat] = .hard
            botNames[seat] = setup.computerName
        }
        // Each person's name and network, read in place (`Sessions.peek`).
        var names = ["?", "?"], networks = ["", ""]
        for i in 0..<2 {
            if let name = botNames[i] ?? bots[i].map({ GamePlay.botPrefix + $0.rawValue }) {
                names[i] = name
            } else if let conn = seats[i], let (name, network) = sessions.peek(conn, { ($0.name, $0.network) }) {
                names[i] = name ?? "?"
                networks[i] = network
            }
        }
        let match = Match(target: options.match ? (kind.matchRounds ?? 1) : 1)
        var record = NewGame(kind: kind.name, variant: setup.variant, settings: setup.settings, seed: seed, lang: lang,
                             players: names, tokens: [], bots: bots.map { $0?.rawValue }, rounds: match.target,
                             starter: match.starter, clock: options.clock ?? 0, watch: options.watch)
        var tokensFor = 0   // the game id the tokens name
        guard let game = kind.newGame(language: lang, variant: record.variant, settings: record.settings, seed: seed,
                                      starter: match.starter),
              let (id, rating) = persist({ () throws -> (Int, RoomRating?) in
                  // Tokens that name the game's id (the store's next) and seat.
                  let next = try store.nextGameID()
                  tokensFor = next
                  record.tokens = [GamePlay.newToken(game: next, seat: 0), GamePlay.newToken(game: next, seat: 1)]
                  // With its start as its last activity, and the people's networks (Lifecycle.swift).
                  let id = try store.createGame(record, networks: networks, now: clock.wall)
                  // Rated or not, decided once (RatingDesk.swift).
                  let rating = try ratings.ratingAtStart(kind: kind.name, variant: setup.variant, options: options, seats: seats,
                                                 bots: bots, kindComputer: botNames.contains { $0 != nil })
                  if let rating { try store.markRated(game: id, ratings: rating.ratings.map { RatingsPolicy.points($0) }) }
                  return (id, rating)
              }) else { return false }
        // The record moves into the room (not a copy and a destroy of the local, every game).
        let room = Room(id: id, kind: kind, lang: lang, record: consume record, seats: seats,
                         occupants: SeatPair(bots[0].map(Seat.computer) ?? .person, bots[1].map(Seat.computer) ?? .person), match: match, game: game, offer: nil, offerSpent: [false, false], awaySince: [nil, nil],
                         turnSince: clock.monotonic, deadlines: deadlines)
        room.rating = rating
        room.ratingRead = true
        rooms.add(room)
        for (seat, conn) in seats.enumerated() {
            guard let conn else { continue }
            watching.stopWatching(conn)
            sessions.update(conn) { s in
                s.state = .playing(game: id, seat: seat)
                s.last = nil
            }
            // A token that names this game and seat (all made above, up to
            // `ResumeTokens.maxGame`) is not kept (`Rooms.tokens`): no parse
            // of it to find that out, for each seat of every game.
            if id != tokensFor || ResumeTokens.named(game: id, seat: seat) == nil { rooms.tokens[room.tokens[seat]] = (id, seat) }
        }
        if settings.gameLog == .all {
            log(LineText.started(id, lang: lang, names: names, kind: kind.name == catalog.defaultKind.name ? nil : (kind.name, setup.variant),
                                rounds: match.isMatch ? match.target : nil))
        }
        ack?(game)
        let turn = stateTurnLine(room, game)
        for seat in 0..<2 { sendState(room, to: seat, game: game, turn: turn) }
        scheduleComputer(room)
        return true
    }

    /// Loads the games in progress that must tick on their own (those on a
    /// clock) from the store, each replayed move by move through its game
    /// value; every seat starts empty. The others load on RESUME (Lifecycle.swift).
    func restoreGames() throws {
        let now = clock.monotonic
        for g in try store.clockedGames() {
            guard let room = recovery.makeRoom(g, now: now) else {
                log("game \(g.id) not restored: no game kind \(g.kind), no word list for \(g.lang), or its moves do not replay")
                continue
            }
            rooms.add(room)
            for seat in 0..<2 where room.bot(seat) == nil { rooms.tokens[g.tokens[seat]] = (g.id, seat) }
            scheduleComputer(g.id)
        }
        log("restored \(rooms.count) adjourned game(s) on a clock; the others load on RESUME")
    }

    /// The seed a round is made from: the game's stored seed for round 1
    /// (so games stored before rounds had seeds of their own replay as
    /// they were), then a SplitMix64 step from it and the round's number.
    /// A restarted round (`Match.restartRound`) is a new round: a new word.
    static func roundSeed(_ seed: UInt64, round: Int) -> UInt64 {
        guard round > 1 else { return seed }
        var z = seed &+ UInt64(truncatingIfNeeded: round) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Whether the round in play was started again by RESTART or an
    /// accepted offer (after moves): the rounds so far are more than the
    /// ones lost and the one in play. Such a game is never ranked on a
    /// best-games list (its player may have seen its word before).
    static func wasRestarted(_ match: Match) -> Bool {
        match.round > 1 + match.losses.reduce(0, +)
    }

    /// A resume token for `game`'s `seat` (`ResumeTokens.new`: the game's
    /// id and seat, then 80 random bits).
    static func newToken(game: Int, seat: Int) -> String {
        ResumeTokens.new(game: game, seat: seat)
    }

    // MARK: Telling players

    /// The full state of a game for one seat: GAME (with its token and what
    /// only that seat may see), the pending offer, whether the opponent is
    /// away, and TURN (with the kind's state fields: Ghost's `last=`).
    func sendState(_ gameID: Int, to seat: Int) {
        guard let room = rooms[gameID] else { return }
        sendState(room, to: seat)
    }

    /// The same, for a room in hand (the room in `rooms` under its id).
    func sendState(_ room: Room, to seat: Int) {
        guard room.seats[seat] != nil else { return }
        // One copy of the game value out of the room for every question here
        // (each question to `room.game`, an existential in a class, copies it).
        let game = room.game
        sendState(room, to: seat, game: game, turn: stateTurnLine(room, game))
    }

    /// The same, with the room's game value and its TURN line in hand: a new
    /// game's two seats share both (TURN made and destroyed once a game,
    /// not twice).
    func sendState(_ room: Room, to seat: Int, game: any Game, turn: ServerLine) {
        guard let conn = room.seats[seat] else { return }
        let gameID = room.id
        let record = rivalry(room).flatMap { r in
            r[0] + r[1] > 0 ? HeadToHead(mine: r[seat], theirs: r[1 - seat]) : nil
        }
        outbox.send(.game(id: gameID, kind: GameKind(rawValue: room.kind.name), lang: room.lang, players: room.names,
                          token: room.tokens[seat], round: room.match.round, bot: room.namedLevel,
                          fields: GamePlay.joined(GamePlay.joined(game.setupFields, room.kind.gameFields(room.match)), game.privateFields(for: seat)),
                          record: record, clock: room.clock,
                          audience: Audience.of(open: room.open, watchers: watching.watcherCount(gameID), watching: false),
                          ratings: ratings.tableRating(room)?.shown), to: conn)
        if let offer = room.offer {
            outbox.send(.offer(id: gameID, player: room.names[offer.seat], kind: offer.kind, lang: offer.lang), to: conn)
        }
        if room.isAway(1 - seat) {
            outbox.send(.adjourned(id: gameID, player: room.names[1 - seat], grace: graceLeft(room)), to: conn)
        }
        outbox.send(turn, to: conn)
    }

    /// The full state again to both seats and to the watchers (a new round).
    func sendStateToAll(_ gameID: Int) {
        for seat in 0..<2 { sendState(gameID, to: seat) }
        guard let room = rooms[gameID], watching.watcherCount(gameID) > 0 else { return }
        for line in watching.watcherState(room) { watching.toWatchers(gameID, line) }
    }

    /// Between two people, each seat's wins against the other in the
    /// finished games of this kind before this one (against the computer,
    /// the person's record against it: ComputerRecord.swift); read once per room.
    /// A read that fails leaves it out (it is not worth failing a command for).
    func rivalry(_ room: Room) -> SeatPair<Int>? {
        if !room.rivalryRead {
            room.rivalryRead = true
            if room.bot(0) == nil, room.bot(1) == nil,
               let (a, b) = try? store.scoreStore.headToHead(kind: PeopleRecord.kind(room.kind, variant: room.record.variant),
                                                  room.names[0], room.names[1]) {
                room.rivalry = SeatPair(a, b)
            } else {
                // Against the computer (ComputerRecord.swift).
                room.rivalry = computerRecord(room).flatMap { r in r.count == 2 ? SeatPair(r[0], r[1]) : nil }
            }
        }
        return room.rivalry
    }

    // MARK: Moves

    /// Plays a move (from a person or the computer): the room's game value
    /// judges it (in place), the store records it and what it ends, then the
    /// rest of the room changes and both sides are told. Apply → persist →
    /// change the room → broadcast; a failed write puts the room's game back
    /// as stored (RecoveryDesk.resynchronise).
    /// `room`: the game's room, as its caller just found it in `rooms`;
    /// `verb`: the kind's verb a person made it with (`OK <verb>`).
    func apply(_ move: Move, in room: Room, by seat: Int, mover: ConnectionID?, verb: String = "") {
        let gameID = room.id
        let outcome: Outcome?
        do {
            // On the room's game in place (`Room.play`): a failed write below
            // puts the room back as stored (RecoveryDesk).
            outcome = try room.play(move, by: seat)
        } catch {
            if let mover { reply(mover, room.refusal(error)) }
            return
        }
        let game = room.game
        // What the move ends: the round, and perhaps the match.
        var match = room.match
        let step = outcome.map { match.roundEnded($0) }
        // The next round's game on a new round, else the game itself: not an
        // optional existential, which every move destroyed through its
        // type's metadata (`Finishing.Finish` is a
        // class for the same reason).
        var next: any Game = game
        if step == .nextRound {
            guard let made = room.kind.newGame(language: room.lang, variant: room.record.variant, settings: room.record.settings,
                                                seed: GamePlay.roundSeed(room.record.seed, round: match.round), starter: match.starter) else {
                // Nothing stored: the room's game goes back as the store has it.
                try? recovery.resynchronise(game: gameID)
                if let mover { failed(mover) }
                return
            }
            next = made
        }
        let cancelled = room.offer
        let clearsOffer = cancelled != nil || room.offerSpent.contains(true)
        var finished: Finishing.Finish?
        let stored: Bool? = persist {
            try store.recordMove(game: gameID, round: room.match.round, ply: game.moveCount, seat: seat,
                                 move: move.encoded, now: clock.wall)
            if clearsOffer { try store.setOffer(game: gameID, offer: nil, spent: [false, false]) }
            switch step {
            case .nextRound?:
                try store.nextRound(game: gameID, round: match.round, losses: match.losses, starter: match.starter)
            case .over?:
                if let outcome { finished = try finishing.recordFinish(room, outcome: outcome, match: match, final: game) }
            case nil: break
            }
            return true
        }
        guard stored != nil else {
            if let mover { failed(mover) }
            return
        }
        context.figures.moves += 1
        room.played(by: seat, clearsOffer: clearsOffer, now: clock.monotonic)
        let moveFields = game.fields(after: move)
        if let mover { reply(mover, .ok(GamePlay.reply(verb: verb, moveFields))) }
        broadcast(room, .move(id: gameID, player: room.names[seat], fields: moveFields))
        if let cancelled {
            broadcast(room, .cancelled(id: gameID, player: room.names[cancelled.seat], kind: Withdrawn(cancelled.kind)))
        }
        // Not a switch over the tuple (outcome, step, next): a tuple holding
        // an optional existential is destroyed through its metadata, on
        // every move.
        if let outcome, case .over? = step {
            finishing.announceFinish(gameID, outcome: outcome, match: match, final: game, finished: finished ?? Finishing.Finish())
        } else if let outcome, case .nextRound? = step {
            nextRound(gameID, after: outcome, match: match, finished: game, next: next)
        } else {
            broadcast(room, turnLine(room, game))
            scheduleComputer(room)
        }
    }

    /// Two lists of fields as one, without a copy when either is empty
    /// (a single game has no match fields, Ghost no setup or private ones):
    /// this runs for every move and every GAME.
    static func joined(_ a: [Field], _ b: [Field]) -> [Field] { b.isEmpty ? a : a.isEmpty ? b : a + b }

    /// The `OK` reply to the verb that made a move (`OK LETTER`, `OK SOLVE`,
    /// `OK CHALLENGE`): the MOVE's fields, less one that only says the verb
    /// again (`challenge=yes`).
    static func reply(verb: String, _ fields: [Field]) -> Reply {
        guard let said = fields.firstIndex(where: { $0.value == "yes" && $0.key.uppercased() == verb }) else {
            return .other(verb: verb, fields: fields)
        }
        var rest = fields
        rest.remove(at: said)
        return .other(verb: verb, fields: rest)
    }

    /// A round of a match ended and the match goes on (already stored): the
    /// next round starts, with the other seat to move first.
    private func nextRound(_ gameID: Int, after outcome: Outcome, match: Match, finished: any Game, next: any Game) {
        guard let room = rooms[gameID] else { return }
        room.nextRound(next, match: match, now: clock.monotonic)
        let fields = finished.finalFields + room.kind.matchFields(match) + finished.endFields
        if let lost = outcome.loser {
            let loser = room.names[lost], winner = room.names[1 - lost]
            broadcast(gameID, .over(id: gameID, winner: winner, loser: loser, reason: outcome.reason, fields: fields))
            broadcast(gameID, .info(finished.explanation(loser: loser, winner: winner) + " "
                                    + room.kind.roundSummary(loser: lost, name: loser, match: match)))
        } else {
            broadcast(gameID, .drawn(id: gameID, players: room.names, reason: outcome.reason, fields: fields))
            broadcast(gameID, .info(finished.drawExplanation(names: room.names)))
        }
        if settings.gameLog == .all {
            log("game \(gameID) round \(match.round): \(room.kind.matchFields(match).map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
        }
        sendStateToAll(gameID)
        scheduleComputer(gameID)
    }

    /// Ends a game or match that seat `loser` lost outside the rules (left,
    /// abandoned): stores it, sends `ack` to the connection that asked, then
    /// tells both sides. False (and nothing changed) if it could not be stored.
    @discardableResult
    func finish(_ gameID: Int, loser: Int, reason: EndReason, ack: (ConnectionID, ServerLine)? = nil, info: String? = nil) -> Bool {
        guard let room = rooms[gameID] else { return false }
        let outcome = Outcome(loser: loser, reason: reason)
        var game = room.game
        game.end(outcome)
        var match = room.match
        _ = match.roundLost(by: loser, reason: reason)
        guard let finished = persist({ try finishing.recordFinish(room, outcome: outcome, match: match, final: game) }) else { return false }
        if let (id, line) = ack { reply(id, line) }
        finishing.announceFinish(gameID, outcome: outcome, match: match, final: game, finished: finished, info: info)
        return true
    }

    // MARK: The computer

    /// If the computer is to move, plays now (no delay) or sets when it will.
    func scheduleComputer(_ gameID: Int) {
        guard let room = rooms[gameID] else { return }
        scheduleComputer(room)
    }

    /// The same, for a room in hand (the room in `rooms` under its id).
    func scheduleComputer(_ room: Room) {
        guard room.computerToMove != nil else { return }
        if settings.botDelay <= 0 { return playComputer(room.id) }
        room.botDue = clock.monotonic + settings.botDelay * Double.random(in: 0.6...1.4)
    }

    /// Plays the computer's move, or, when the kind is not ready (a
    /// position still being solved), asks again when it says.
    func playComputer(_ gameID: Int) {
        guard let room = rooms[gameID], let seat = room.computerToMove, let level = room.bot(seat) else { return }
        switch room.kind.computerPlay(in: room.game, seat: seat, level: level) {
        case .move(let move): apply(move, in: room, by: seat, mover: nil)
        case .later(let seconds): room.botDue = clock.monotonic + max(seconds, 0.01)
        case .none: break
        }
    }

    func hint(_ id: ConnectionID, _ session: Session) {
        guard case .playing(let gameID, let seat) = session.state, let room = rooms[gameID],
              room.bot(1 - seat) != nil, room.kind.allowsHints(against: room.bot(1 - seat)) else {
            return reply(id, .error(.noHints, "hints are only for games against the Easy computer"))
        }
        guard room.game.toMove == seat else {
            return reply(id, .error(.notYourTurn, "hints are for your turn"))
        }
        guard let hint = room.kind.hint(in: room.game, against: room.bot(1 - seat)) else { return failed(id) }
        reply(id, .ok(.hint(fields: hint.fields)))
        reply(id, .info(hint.text))
    }
}
