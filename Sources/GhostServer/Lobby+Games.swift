import GhostCore
import GhostProtocol
import GhostStore

/// Games in progress: moves, the end of a game, adjournment and resumption,
/// offers to restart or change the language.
extension Lobby {
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
        let seed = UInt64.random(in: 0...UInt64.max)
        guard let setup = prepared ?? (try? kind.setup(options: options.settings, saved: [:], language: lang, seed: seed).get())
        else { return false }
        var seats: [ConnectionID?] = people
        var bots: [BotLevel?] = [nil, nil]
        var botNames: [String?] = [nil, nil]
        if let level = options.bot {
            seats = options.botFirst ? [nil, person] : [person, nil]
            bots = options.botFirst ? [level, nil] : [nil, level]
        } else if let seat = setup.computerSeat, (0...1).contains(seat) {
            // The kind seats the computer itself (Hangman's setter).
            seats = seat == 0 ? [nil, person] : [person, nil]
            bots[seat] = .hard
            botNames[seat] = setup.computerName
        }
        let names = (0..<2).map { i in
            botNames[i] ?? bots[i].map { Lobby.botPrefix + $0.rawValue } ?? seats[i].flatMap { sessions[$0]?.name } ?? "?"
        }
        let secrets = [Lobby.newToken(), Lobby.newToken()]
        let match = Match(target: options.match ? (kind.matchRounds ?? 1) : 1)
        let record = NewGame(kind: kind.name, variant: setup.variant, settings: setup.settings, seed: seed, lang: lang,
                             players: names, tokens: secrets, bots: bots.map { $0?.rawValue }, rounds: match.target,
                             starter: match.starter, clock: options.clock ?? 0, watch: options.watch)
        guard let game = kind.newGame(language: lang, variant: record.variant, settings: record.settings, seed: seed,
                                      starter: match.starter),
              let id = persist({ () throws -> Int in
                  let id = try store.createGame(record, now: clock.wall)
                  // Its start as its last activity, and the people's networks (Lobby+Lifecycle.swift).
                  try store.noteStarted(game: id, networks: seats.map { $0.map(network(of:)) ?? "" }, now: clock.wall)
                  return id
              }) else { return false }
        addTable(Table(id: id, kind: kind, lang: lang, record: record, seats: seats, occupants: bots.map { $0.map(Seat.computer) ?? .person }, match: match,
                           game: game, offer: nil, offerSpent: [false, false], awaySince: [nil, nil],
                           turnSince: clock.monotonic, deadlines: deadlines))
        for (seat, conn) in seats.enumerated() {
            guard let conn else { continue }
            stopWatching(conn)
            sessions[conn]?.state = .playing(game: id, seat: seat)
            sessions[conn]?.last = nil
            tokenIndex[secrets[seat]] = (id, seat)
        }
        log("game \(id) started: \(lang) \(names.joined(separator: " vs "))"
            + (kind.name == catalog.defaultKind.name ? "" : " (\(kind.name) \(setup.variant))")
            + (match.isMatch ? " (a match of \(match.target) rounds)" : ""))
        ack?(game)
        for seat in 0..<2 { sendState(id, to: seat) }
        scheduleComputer(id)
        return true
    }

    /// Loads the games in progress that must tick on their own (those on a
    /// clock) from the store, each replayed move by move through its game
    /// value; every seat starts empty. The others load on RESUME (Lobby+Lifecycle.swift).
    func restoreGames() throws {
        let now = clock.monotonic
        for g in try store.clockedGames() {
            guard let table = makeTable(g, now: now) else {
                log("game \(g.id) not restored: no game kind \(g.kind), no word list for \(g.lang), or its moves do not replay")
                continue
            }
            addTable(table)
            for seat in 0..<2 where table.bot(seat) == nil { tokenIndex[g.tokens[seat]] = (g.id, seat) }
            scheduleComputer(g.id)
        }
        log("restored \(tables.count) adjourned game(s) on a clock; the others load on RESUME")
    }

    /// Plays stored moves on a new game; false if one does not parse, is out
    /// of turn or illegal, or if they end the game (a stored round is in play).
    static func replay(_ moves: [StoredMove], on game: inout any Game) -> Bool {
        for m in moves {
            guard let move = Move(encoded: m.move) else { return false }
            do { _ = try game.play(move, by: m.seat) } catch { return false }
        }
        return !game.isOver
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

    /// 128 random bits from the system's generator, as 32 hex digits.
    static func newToken() -> String {
        var rng = SystemRandomNumberGenerator()
        let hex: StaticString = "0123456789abcdef"
        var out = [UInt8](repeating: 0, count: 32)
        hex.withUTF8Buffer { digits in
            for half in 0..<2 {
                var x = rng.next() as UInt64
                for i in 0..<16 {
                    out[half * 16 + i] = digits[Int(x & 15)]
                    x >>= 4
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Telling players

    /// One line to every person seated at the game, rendered once, and to
    /// its watchers. Nothing sent here may be secret or meant for one seat.
    func broadcast(_ gameID: Int, _ line: ServerLine) {
        guard let table = tables[gameID] else { return }
        outbox.send(line, toEach: table.seats)
        toWatchers(gameID, line)
    }

    /// The full state of a game for one seat: GAME (with its token and what
    /// only that seat may see), the pending offer, whether the opponent is
    /// away, and TURN (with the kind's state fields: Ghost's `last=`).
    func sendState(_ gameID: Int, to seat: Int) {
        guard let table = tables[gameID], let conn = table.seats[seat] else { return }
        let record = rivalry(table).flatMap { r in
            r[0] + r[1] > 0 ? HeadToHead(mine: r[seat], theirs: r[1 - seat]) : nil
        }
        outbox.send(.game(id: gameID, kind: GameKind(rawValue: table.kind.name), lang: table.lang, players: table.names,
                          token: table.tokens[seat], round: table.match.round, bot: table.namedLevel,
                          fields: table.game.setupFields + table.kind.gameFields(table.match) + table.game.privateFields(for: seat),
                          record: record, clock: table.clock,
                          audience: Audience.of(open: table.open, watchers: watcherCount(gameID), watching: false)), to: conn)
        if let offer = table.offer {
            outbox.send(.offer(id: gameID, player: table.names[offer.seat], kind: offer.kind, lang: offer.lang), to: conn)
        }
        if table.isAway(1 - seat) {
            outbox.send(.adjourned(id: gameID, player: table.names[1 - seat], grace: graceLeft(table)), to: conn)
        }
        outbox.send(stateTurnLine(table), to: conn)
    }

    /// TURN as the full state gives it: with the kind's state fields (Ghost's `last=`).
    func stateTurnLine(_ table: Table) -> ServerLine {
        let state = table.game.stateFields(names: table.names)
        return state.isEmpty ? turnLine(table)
            : .turn(id: table.id, player: table.names[table.game.toMove],
                    fields: table.game.publicFields + table.kind.matchFields(table.match) + state,
                    clock: clockLeft(table))
    }

    /// The full state again to both seats and to the watchers (a new round).
    func sendStateToAll(_ gameID: Int) {
        for seat in 0..<2 { sendState(gameID, to: seat) }
        guard let table = tables[gameID], watcherCount(gameID) > 0 else { return }
        for line in watcherState(table) { toWatchers(gameID, line) }
    }

    /// Between two people, each seat's wins against the other in the
    /// finished games of this kind before this one; read once per table.
    /// A read that fails leaves it out (it is not worth failing a command for).
    func rivalry(_ table: Table) -> [Int]? {
        if !table.rivalryRead {
            table.rivalryRead = true
            if table.bot(0) == nil, table.bot(1) == nil,
               let (a, b) = try? store.headToHead(kind: table.kind.name, table.names[0], table.names[1]) {
                table.rivalry = [a, b]
            }
        }
        return table.rivalry
    }

    func turnLine(_ table: Table) -> ServerLine {
        .turn(id: table.id, player: table.names[table.game.toMove], fields: Lobby.joined(table.game.publicFields, table.kind.matchFields(table.match)),
              clock: clockLeft(table))
    }

    // MARK: Moves

    /// A move from a person: the game judges it.
    func play(_ move: Move, from id: ConnectionID, _ session: Session, verb: Verb = .letter) {
        guard case .playing(let gameID, let seat) = session.state, let table = tables[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game; SEEK, NEW or JOIN one"))
        }
        // SOLVE and WORD are one move to the game; a kind that tells them apart says so.
        if case .word = move, verb == .solve || verb == .word,
           let refused = table.game.refusesWord(asAnswer: verb == .solve, by: seat) {
            return reply(id, refusal(refused, table))
        }
        apply(move, in: gameID, by: seat, mover: id, verb: verb)
    }

    /// Plays a move (from a person or the computer): the game value judges
    /// it, the store records it and what it ends, then the table changes and
    /// both sides are told. Apply → persist → change the table → broadcast.
    func apply(_ move: Move, in gameID: Int, by seat: Int, mover: ConnectionID?, verb: Verb = .letter) {
        guard let table = tables[gameID] else { return }
        var game = table.game
        let outcome: Outcome?
        do {
            outcome = try game.play(move, by: seat)
        } catch {
            if let mover { reply(mover, refusal(error, table)) }
            return
        }
        // What the move ends: the round, and perhaps the match.
        var match = table.match
        let step = outcome.map { match.roundLost(by: $0.loser, reason: $0.reason) }
        var next: (any Game)?
        if step == .nextRound {
            next = table.kind.newGame(language: table.lang, variant: table.record.variant, settings: table.record.settings,
                                      seed: Lobby.roundSeed(table.record.seed, round: match.round), starter: match.starter)
            guard next != nil else {
                if let mover { failed(mover) }
                return
            }
        }
        let cancelled = table.offer
        let clearsOffer = cancelled != nil || table.offerSpent.contains(true)
        let stored: Finish? = persist {
            try store.recordMove(game: gameID, round: table.match.round, ply: game.moveCount, seat: seat,
                                 move: move.encoded, now: clock.wall)
            if clearsOffer { try store.setOffer(game: gameID, offer: nil, spent: [false, false]) }
            switch step {
            case .nextRound?:
                try store.nextRound(game: gameID, round: match.round, losses: match.losses, starter: match.starter)
            case .over?:
                if let outcome { return try recordFinish(table, outcome: outcome, match: match, final: game) }
            case nil: break
            }
            return Finish()
        }
        guard let finished = stored else {
            if let mover { failed(mover) }
            return
        }
        figures.moves += 1
        table.game = game
        if clearsOffer {
            table.offer = nil
            table.offerSpent = [false, false]
        }
        table.turnSince = clock.monotonic
        table.claimAnnounced = false
        table.botDue = nil
        if table.bot(seat) == nil, !table.moved[seat] { table.moved[seat] = true }
        let moveFields = game.fields(after: move)
        if let mover { reply(mover, .ok(Lobby.reply(to: move, verb: verb, moveFields))) }
        broadcast(gameID, .move(id: gameID, player: table.names[seat], fields: moveFields))
        if let cancelled {
            broadcast(gameID, .cancelled(id: gameID, player: table.names[cancelled.seat], kind: Withdrawn(cancelled.kind)))
        }
        switch (outcome, step, next) {
        case let (outcome?, .over?, _):
            announceFinish(gameID, outcome: outcome, match: match, final: game, finished: finished)
        case let (outcome?, .nextRound?, next?):
            nextRound(gameID, after: outcome, match: match, finished: game, next: next)
        default:
            broadcast(gameID, turnLine(table))
            scheduleComputer(gameID)
        }
    }

    /// Two lists of fields as one, without a copy when the second is empty
    /// (a single game has no match fields): this runs for every move.
    static func joined(_ a: [Field], _ b: [Field]) -> [Field] { b.isEmpty ? a : a + b }

    /// The `OK` reply to the command that made a move (`OK LETTER`, `OK SOLVE`,
    /// `OK WORD`, `OK CHALLENGE`, `OK CONCEDE`): the MOVE's fields, less the
    /// one the verb already says (`challenge=yes`).
    static func reply(to move: Move, verb: Verb, _ fields: [Field]) -> Reply {
        switch move {
        case .letter, .front: return .letter(fields: fields)
        case .word: return .other(verb: verb.rawValue, fields: fields)
        case .challenge, .concede:
            let said = verb.rawValue.lowercased()
            return .other(verb: verb.rawValue, fields: fields.filter { $0.key != said })
        }
    }

    /// The protocol's answer to a move the game refused.
    func refusal(_ error: MoveError, _ table: Table) -> ServerLine {
        switch error {
        case .gameOver: return .error(.notInGame, "the game is over")
        case .notYourTurn: return .error(.notYourTurn, "it is \(table.names[table.game.toMove])'s turn")
        case .notAMove(let text): return .error(.notALetter, text)
        case .refused(let code, let text): return .error(ErrorCode(rawValue: code), text)
        }
    }

    /// A round of a match ended and the match goes on (already stored): the
    /// next round starts, with the other seat to move first.
    private func nextRound(_ gameID: Int, after outcome: Outcome, match: Match, finished: any Game, next: any Game) {
        guard let table = tables[gameID] else { return }
        table.match = match
        table.game = next
        table.turnSince = clock.monotonic
        table.claimAnnounced = false
        let loser = table.names[outcome.loser], winner = table.names[outcome.winner]
        broadcast(gameID, .over(id: gameID, winner: winner, loser: loser, reason: outcome.reason,
                                fields: finished.finalFields + table.kind.matchFields(match) + finished.endFields))
        broadcast(gameID, .info(finished.explanation(loser: loser, winner: winner) + " "
                                + table.kind.roundSummary(loser: outcome.loser, name: loser, match: match)))
        log("game \(gameID) round \(match.round): \(table.kind.matchFields(match).map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
        sendStateToAll(gameID)
        scheduleComputer(gameID)
    }

    /// Ends a game or match that seat `loser` lost outside the rules (left,
    /// abandoned): stores it, sends `ack` to the connection that asked, then
    /// tells both sides. False (and nothing changed) if it could not be stored.
    @discardableResult
    func finish(_ gameID: Int, loser: Int, reason: EndReason, ack: (ConnectionID, ServerLine)? = nil, info: String? = nil) -> Bool {
        guard let table = tables[gameID] else { return false }
        let outcome = Outcome(loser: loser, reason: reason)
        var game = table.game
        game.end(outcome)
        var match = table.match
        _ = match.roundLost(by: loser, reason: reason)
        guard let finished = persist({ try recordFinish(table, outcome: outcome, match: match, final: game) }) else { return false }
        if let (id, line) = ack { reply(id, line) }
        announceFinish(gameID, outcome: outcome, match: match, final: game, finished: finished, info: info)
        return true
    }

    /// What the end of a game left on the high-score boards.
    struct Finish {
        /// The people's places on the game's board by wins.
        var ranks: [ScoreRow] = []
        /// The game's entry on a best-games list, when it made the top places.
        var best: (seat: Int, board: String, rank: Int, fields: [Field])?
    }

    /// A best-games entry is announced (`RANK board=…`) when it is among this many.
    static let announcedBestPlaces = 10

    /// The store's side of the end of a game or match: its record, the
    /// people's scores, and the game's entry on a best-games list if its kind
    /// gives one for a person. Returns the places they have now.
    private func recordFinish(_ table: Table, outcome: Outcome, match: Match, final game: any Game) throws -> Finish {
        let winner = table.names[outcome.winner], loser = table.names[outcome.loser]
        // People on a board of wins; a kind that ranks games otherwise keeps none here.
        let people = table.kind.ranksByWins ? (0..<2).filter { table.bot($0) == nil }.map { table.names[$0] } : []
        let board = table.board.name
        let now = clock.wall
        try store.finishGame(game: table.id, winner: winner, loser: loser, reason: outcome.reason.rawValue,
                             finalState: Lobby.stored(game.finalFields + game.endFields),
                             losses: match.isMatch ? match.losses : nil, board: board, people: people, now: now)
        // Two people's record against each other, whatever the kind's boards.
        if table.bot(0) == nil, table.bot(1) == nil {
            try store.recordHeadToHead(kind: table.kind.name, winner: winner, loser: loser)
        }
        var finish = Finish()
        finish.ranks = try [winner, loser].filter { people.contains($0) }.map { try store.rank(of: $0, board: board) }
        if !Lobby.wasRestarted(table.match),
           let entry = table.kind.bestGame(game, outcome: outcome, variant: table.record.variant, language: table.lang),
           (0...1).contains(entry.seat), table.bot(entry.seat) == nil {
            try store.recordBestGame(board: entry.board, game: table.id, name: table.names[entry.seat],
                                     key1: entry.keys.first ?? 0, key2: entry.keys.dropFirst().first ?? 0,
                                     fields: Lobby.stored(entry.fields), now: now)
            if let rank = try store.bestGameRank(board: entry.board, game: table.id, within: Lobby.announcedBestPlaces) {
                finish.best = (entry.seat, entry.board, rank, entry.fields)
            }
        }
        return finish
    }

    /// Announces the end of a game or match (already stored), then returns
    /// its players to the lobby.
    private func announceFinish(_ gameID: Int, outcome: Outcome, match: Match, final game: any Game, finished: Finish,
                                info: String? = nil) {
        guard let table = tables[gameID] else { return }
        // Every end passes here (a move, LEAVE, CLAIM, time): counted once (STATS).
        figures.gamesFinished += 1
        table.game = game
        table.match = match
        let winner = table.names[outcome.winner], loser = table.names[outcome.loser]
        let matchFields = table.kind.matchFields(match)
        broadcast(gameID, .over(id: gameID, winner: winner, loser: loser, reason: outcome.reason,
                                fields: game.finalFields + matchFields + game.endFields))
        broadcast(gameID, .info(info ?? (outcome.reason == .abandoned
            ? "\(loser) stayed away past the grace period; \(winner) claimed the game."
            : game.explanation(loser: loser, winner: winner))))
        if match.isMatch {
            broadcast(gameID, .match(id: gameID, winner: winner, loser: loser, fields: matchFields))
            broadcast(gameID, .info(table.kind.matchSummary(loser: loser, winner: winner, match: match, reason: outcome.reason)))
        }
        for r in finished.ranks { broadcast(gameID, .rank(name: r.name, rank: r.rank, wins: r.wins)) }
        if let best = finished.best, let conn = table.seats[best.seat] {
            outbox.send(.bestRank(board: best.board, rank: best.rank, fields: best.fields), to: conn)
        }
        log("game \(gameID) over: \(winner) beat \(loser) (\(([outcome.reason.rawValue] + (game.finalFields + game.endFields).map { "\($0.key) \"\($0.value)\"" }).joined(separator: ", ")))")
        for (seat, conn) in table.seats.enumerated() {
            guard let conn else { continue }
            sessions[conn]?.state = .idle
            if let other = table.seats[1 - seat] {
                sessions[conn]?.last = LastGame(game: gameID, lang: table.lang, seat: seat, opponent: other, match: match.isMatch,
                                                kind: table.kind.name,
                                                setup: GameSetup(variant: table.record.variant, settings: table.record.settings),
                                                clock: table.clock, watch: table.open)
            }
        }
        endWatching(gameID)
        for t in table.tokens { tokenIndex[t] = nil }
        noteRemoved(table)
        removeTable(gameID)
        deadlines.touch(table)   // its deadline goes with it
    }

    // MARK: The computer

    /// If the computer is to move, plays now (no delay) or sets when it will.
    func scheduleComputer(_ gameID: Int) {
        guard let table = tables[gameID], !table.game.isOver, table.bot(table.game.toMove) != nil else { return }
        if settings.botDelay <= 0 { return playComputer(gameID) }
        table.botDue = clock.monotonic + settings.botDelay * Double.random(in: 0.6...1.4)
    }

    /// Plays the computer's move, or, when the kind is not ready (a
    /// position still being solved), asks again when it says.
    func playComputer(_ gameID: Int) {
        guard let table = tables[gameID], !table.game.isOver, let level = table.bot(table.game.toMove) else { return }
        switch table.kind.computerPlay(in: table.game, level: level) {
        case .move(let move): apply(move, in: gameID, by: table.game.toMove, mover: nil)
        case .later(let seconds): table.botDue = clock.monotonic + max(seconds, 0.01)
        case .none: break
        }
    }

    func hint(_ id: ConnectionID, _ session: Session) {
        guard case .playing(let gameID, let seat) = session.state, let table = tables[gameID],
              table.bot(1 - seat) != nil, table.kind.allowsHints(against: table.bot(1 - seat)) else {
            return reply(id, .error(.noHints, "hints are only for games against the Easy computer"))
        }
        guard table.game.toMove == seat else {
            return reply(id, .error(.notYourTurn, "hints are for your turn"))
        }
        guard let hint = table.kind.hint(in: table.game, against: table.bot(1 - seat)) else { return failed(id) }
        reply(id, .ok(.hint(fields: hint.fields)))
        reply(id, .info(hint.text))
    }

    // MARK: Away and back

    /// Seconds the absent player to move has left, or the full grace period
    /// if the clock is not running.
    func graceLeft(_ table: Table) -> Int {
        guard let deadline = claimDeadline(table) else { return Int(settings.graceSeconds.rounded(.up)) }
        return max(0, Int((deadline - clock.monotonic).rounded(.up)))
    }

    /// When the opponent of the absent player to move may claim: the grace
    /// clock runs only while the absent player is the one to move.
    func claimDeadline(_ table: Table) -> Double? {
        let mover = table.game.toMove
        // A person who is here but does not move (Lobby+Lifecycle.swift).
        guard table.isAway(mover), table.seats[1 - mover] != nil, let away = table.awaySince[mover] else { return stallDeadline(table) }
        return max(away, table.turnSince) + settings.graceSeconds
    }

    /// When the person to move loses on time, in a game on a clock: each
    /// move has the game's seconds from the moment it became that seat's turn
    /// (`turnSince`), whether the player is here or away. Nil without a
    /// clock, and while the computer is to move (its moves are not timed).
    func clockDeadline(_ table: Table) -> Double? {
        guard let clock = table.clock, !table.game.isOver, table.bot(table.game.toMove) == nil else { return nil }
        let due = table.turnSince + Double(clock)
        guard let retry = table.timeRetry else { return due }
        return max(due, retry)
    }

    /// The seconds the person to move has left (TURN's `clock=`), rounded
    /// up; nil when `clockDeadline` is.
    func clockLeft(_ table: Table) -> Int? {
        guard let deadline = clockDeadline(table) else { return nil }
        return max(0, Int((deadline - clock.monotonic).rounded(.up)))
    }

    func adjourn(_ gameID: Int, seat: Int) {
        guard let table = tables[gameID] else { return }
        table.seats[seat] = nil
        table.awaySince[seat] = clock.monotonic
        table.claimAnnounced = false
        log("game \(gameID) adjourned: \(table.names[seat]) is away")
        broadcast(gameID, .adjourned(id: gameID, player: table.names[seat], grace: graceLeft(table)))
        broadcast(gameID, .info("\(table.names[seat]) is away. The game waits; if they are still away \(Int(settings.graceSeconds)) s into their turn, you may CLAIM it."))
    }

    func resume(_ token: String, _ id: ConnectionID, _ session: Session) {
        // A game not in memory is loaded from the store (Lobby+Lifecycle.swift).
        var found = tokenIndex[token]
        if found == nil {
            guard let loaded = persist({ try loadGame(token: token) }) else { return failed(id) }
            found = loaded
        }
        guard let (gameID, seat) = found, let table = tables[gameID] else {
            // A finished game's token: how it ended, so a player who was away learns the result.
            guard let done = persist({ try store.finishedGame(token: token) }) else { return failed(id) }
            guard let done else { return reply(id, .error(.badToken, "no game in progress has that token")) }
            reply(id, .ok(.resume(id: done.id, over: true)))
            if done.reason == Store.abortedReason {
                // No winner: ABORTED says why and when (Lobby+Lifecycle.swift).
                let why = Lobby.fields(stored: done.finalState).first { $0.key == "abort" }?.value ?? ""
                return reply(id, .aborted(id: done.id, reason: AbortReason(rawValue: why), ended: done.endedAt))
            }
            return reply(id, .over(id: done.id, winner: done.winner, loser: done.loser, reason: OverReason(rawValue: done.reason),
                                   fields: Lobby.fields(stored: done.finalState) + [Field("ended", "\(done.endedAt)")]))
        }
        if case .playing(let g, let s) = session.state, g == gameID, s == seat {
            reply(id, .ok(.resume(id: gameID)))
            return sendState(gameID, to: seat)
        }
        guard !isPlaying(session) else {
            return reply(id, .error(.busy, "you are in another game"))
        }
        let name = table.names[seat]
        // Whoever else holds this name gives it up, unless it is playing with it.
        if let holder = namesInUse[name.lowercased()], holder != id, holder != table.seats[seat] {
            if let other = sessions[holder], isPlaying(other) {
                return reply(id, .error(.nameTaken, "\(name) is playing another game on another connection"))
            }
            if let other = sessions[holder] { stopWaiting(holder, other) }
            // Its rematch request goes with the name (as at NAME).
            forgetLastGame(holder)
            sessions[holder]?.name = nil
            outbox.send(.info("The player \(name) came back with their resume token; send NAME to pick a name."), to: holder)
        }
        // A stale connection still in the seat is replaced.
        if let old = table.seats[seat], old != id {
            sessions[old]?.state = .idle
            sessions[old]?.name = nil
            outbox.close(old, .replaced, "your seat in game \(gameID) was resumed from another connection")
        }
        stopWaiting(id, session)
        stopWatching(id)
        if let mine = session.name, mine.lowercased() != name.lowercased(), namesInUse[mine.lowercased()] == id {
            namesInUse[mine.lowercased()] = nil
        }
        namesInUse[name.lowercased()] = id
        sessions[id]?.name = name
        sessions[id]?.state = .playing(game: gameID, seat: seat)
        forgetLastGame(id)
        let wasAway = table.seats[seat] == nil
        table.seats[seat] = id
        table.awaySince[seat] = nil
        table.claimAnnounced = false
        reply(id, .ok(.resume(id: gameID)))
        sendState(gameID, to: seat)
        scheduleComputer(gameID)
        if wasAway {
            if let other = table.seats[1 - seat] { outbox.send(.returned(id: gameID, player: name), to: other) }
            toWatchers(gameID, .returned(id: gameID, player: name))
        }
        log("game \(gameID) resumed: \(name) is back")
    }

    private func isPlaying(_ s: Session) -> Bool {
        if case .playing = s.state { return true }
        return false
    }

    func claim(_ id: ConnectionID, _ session: Session) {
        guard case .playing(let gameID, let seat) = session.state, let table = tables[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game"))
        }
        let stalling = !table.isAway(1 - seat) && table.game.toMove != seat && stallDeadline(table) != nil
        guard table.isAway(1 - seat) || stalling else {
            return reply(id, .error(.notClaimable, table.bot(1 - seat) != nil ? "the computer never leaves" : "your opponent is here"))
        }
        guard table.game.toMove != seat, let deadline = claimDeadline(table) else {
            return reply(id, .error(.notClaimable, "it is your turn: the grace period runs only while the absent player is to move"))
        }
        guard clock.monotonic >= deadline else {
            return reply(id, .error(.notClaimable, stalling
                ? "\(table.names[1 - seat]) has \(graceLeft(table)) s left to move before you may claim"
                : "the grace period ends in \(graceLeft(table)) s"))
        }
        let info = stalling ? "\(table.names[1 - seat]) did not move for \(Int(settings.moveTimeout)) s; \(table.names[seat]) claimed the game." : nil
        guard finish(gameID, loser: 1 - seat, reason: .abandoned, ack: (id, .ok(.claim)), info: info) else { return failed(id) }
    }

    /// The next moment the clock matters to a game (the computer plays, a
    /// grace period ends), if any (monotonic seconds). Costs the games changed
    /// since the last call plus O(log n): see `Deadlines`.
    public var nextDeadline: Double? {
        refreshDeadlines()
        // Asked at every loop turn: no array, and the watchers' only when some wait.
        var next = deadlines.next
        if let d = seekersDue, next.map({ d < $0 }) ?? true { next = d }
        if !watchDue.isEmpty, let d = watchersDue, next.map({ d < $0 }) ?? true { next = d }
        return next
    }

    /// Plays the computer's moves that are due, ends the games whose player
    /// to move ran out of time, announces the grace periods that have ended,
    /// and tells waiting seekers how the other seek queues changed.
    public func tick() {
        refreshDeadlines()
        let now = clock.monotonic
        if let due = seekersDue, due <= now { tellSeekers() }
        if !watchDue.isEmpty { tellWatchers(now) }
        if now >= nextUntouchedSweep { sweepUntouched(now: now) }
        for gameID in deadlines.takeDue(now) {
            if lifecycleTick(gameID, now: now) { continue }
            if let table = tables[gameID] {
                deadlines.touch(table)   // whatever happens next, its deadline is worked out again
                if let due = table.botDue, due <= now { runCommand(game: gameID, savepoint: false) { playComputer(gameID) } }
            }
            if let table = tables[gameID], let due = clockDeadline(table), due <= now {
                let loser = table.game.toMove
                log("game \(gameID): \(table.names[loser]) ran out of time")
                runCommand(game: gameID) { finish(gameID, loser: loser, reason: .time) }
                // Not stored (the disk is full): try again a little later, not every loop turn.
                if let again = tables[gameID], let due = clockDeadline(again), due <= now {
                    again.timeRetry = now + Lobby.storeRetrySeconds
                }
                continue
            }
            guard let table = tables[gameID], !table.claimAnnounced,
                  let deadline = claimDeadline(table), deadline <= now else { continue }
            table.claimAnnounced = true
            let absent = table.names[table.game.toMove]
            broadcast(gameID, .claimable(id: gameID, player: absent))
            broadcast(gameID, .info(table.isAway(table.game.toMove)
                ? "\(absent) has been away past the grace period: send CLAIM to take the win, or keep waiting."
                : "\(absent) has not moved for \(Int(settings.moveTimeout)) s: send CLAIM to take the win, or keep waiting."))
        }
        refreshDeadlines()
    }

    /// Works out again the deadline of each table changed since the last time.
    private func refreshDeadlines() {
        deadlines.drainTouched { table in
            // A table replaced or removed since it was touched no longer decides.
            guard let current = tables[table.id] else { return deadlines.set(table.id, nil) }
            guard current === table else { return }
            deadlines.set(table.id, deadline(of: table))
        }
    }

    /// The next moment the clock matters to this game, if any.
    func deadline(of table: Table) -> Double? {
        let claim = table.claimAnnounced ? nil : claimDeadline(table)
        var next = table.botDue
        for d in [claim, clockDeadline(table), lifecycleDeadline(table)] {
            if let d, next.map({ d < $0 }) ?? true { next = d }
        }
        return next
    }

    // MARK: Offers

    /// RESTART or LANG during a game: at once before the first move of the
    /// round, otherwise as an offer the opponent must accept.
    func offerOrApply(kind: OfferKind, lang: String?, _ id: ConnectionID, _ session: Session) {
        /// The reply: `OK LANG lang=… status=…` or `OK RESTART status=…`.
        func ok(_ status: OfferStatus) -> ServerLine {
            .ok(kind == .lang ? .lang(lang: lang ?? "", status: status) : .restart(status: status))
        }
        guard case .playing(let gameID, let seat) = session.state, let table = tables[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game"))
        }
        // The kind decides whether its game, as set up, exists in that
        // language (a Hangman length the other list has no word of).
        if let lang, lang != table.lang,
           table.kind.newGame(language: lang, variant: table.record.variant, settings: table.record.settings,
                              seed: table.record.seed, starter: table.match.starter) == nil {
            let setup = table.record.settings.isEmpty ? "" : " (\(table.record.settings))"
            return reply(id, .error(.badValue, "this game cannot be played in \(lang) as it is set up\(setup); LEAVE it and start one in \(lang)"))
        }
        if table.game.restartsAtOnce(by: seat) || table.bot(1 - seat) != nil {
            // Before the first move (as the kind says), or against the computer (which always agrees).
            guard restart(gameID, lang: lang ?? table.lang) else { return failed(id) }
            reply(id, ok(.done))
            sendStateToAll(gameID)
            scheduleComputer(gameID)
            return
        }
        if let offer = table.offer {
            return reply(id, .error(.offerPending, offer.seat == seat
                ? "your offer is waiting for an answer" : "answer your opponent's offer first: ACCEPT or DECLINE"))
        }
        guard !table.offerSpent[seat] else {
            return reply(id, .error(.offerSpent, "you can offer again once a letter has been played"))
        }
        let offer = Offer(seat: seat, kind: kind, lang: lang)
        var spent = table.offerSpent
        spent[seat] = true
        guard persist({ try store.setOffer(game: gameID, offer: offer.stored, spent: spent) }) != nil else {
            return failed(id)
        }
        table.offer = offer
        table.offerSpent = spent
        reply(id, ok(.offered))
        let what = kind == .lang ? "switch to \(lang ?? "?") and restart" : "restart the round"
        broadcast(gameID, .offer(id: gameID, player: table.names[seat], kind: kind, lang: lang))
        if let other = table.seats[1 - seat] {
            outbox.send(.info("\(table.names[seat]) offers to \(what): ACCEPT or DECLINE."), to: other)
        }
    }

    func answerOffer(accept: Bool, _ id: ConnectionID, _ session: Session) {
        let ok = ServerLine.ok(accept ? .accept : .decline)
        guard case .playing(let gameID, let seat) = session.state, let table = tables[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game"))
        }
        guard let offer = table.offer, offer.seat != seat else {
            return reply(id, .error(.noOffer, "there is no offer from your opponent to answer"))
        }
        let name = table.names[seat]
        if accept {
            guard restart(gameID, lang: offer.lang ?? table.lang) else { return failed(id) }
            reply(id, ok)
            broadcast(gameID, .accepted(id: gameID, player: name, kind: offer.kind))
            sendStateToAll(gameID)
            scheduleComputer(gameID)
        } else {
            guard persist({ try store.setOffer(game: gameID, offer: nil, spent: table.offerSpent) }) != nil else {
                return failed(id)
            }
            table.offer = nil
            reply(id, ok)
            broadcast(gameID, .declined(id: gameID, player: name, kind: offer.kind))
        }
    }

    /// A new round of the game, perhaps in another language, started by the
    /// seat that started the round in play. Stored first; false if it could not be.
    private func restart(_ gameID: Int, lang: String) -> Bool {
        guard let table = tables[gameID] else { return false }
        var match = table.match
        // Moves are keyed by round; a round without moves can be reused.
        match.restartRound(hadMoves: table.game.moveCount > 0)
        // A new round is a new draw (a fair or phrase Hangman's word): its
        // own seed, from the game's and the round's number, so that replay
        // after a crash makes the same one.
        guard let game = table.kind.newGame(language: lang, variant: table.record.variant, settings: table.record.settings,
                                            seed: Lobby.roundSeed(table.record.seed, round: match.round), starter: match.starter),
              persist({ try store.restartGame(game: gameID, round: match.round, lang: lang, starter: match.starter) }) != nil
        else { return false }
        table.lang = lang
        table.match = match
        table.game = game
        table.botDue = nil
        table.offer = nil
        table.offerSpent = [false, false]
        table.turnSince = clock.monotonic
        table.claimAnnounced = false
        log("game \(gameID) restarted: round \(match.round), \(lang)")
        return true
    }
}
