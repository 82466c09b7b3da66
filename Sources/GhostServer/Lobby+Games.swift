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
    func startGame(lang: String, people: [ConnectionID], options: GameOptions) -> Bool {
        guard let words = dictionaries[lang] else { return false }
        var seats: [ConnectionID?] = people
        var bots: [BotLevel?] = [nil, nil]
        if let level = options.bot {
            seats = options.botFirst ? [nil, people[0]] : [people[0], nil]
            bots = options.botFirst ? [level, nil] : [nil, level]
        }
        let names = (0..<2).map { i in bots[i].map { Lobby.botPrefix + $0.rawValue } ?? seats[i].flatMap { sessions[$0]?.name } ?? "?" }
        let secrets = [Lobby.newToken(), Lobby.newToken()]
        let mode = options.match ? "ghost" : "single"
        guard let id = persist({
            try store.createGame(lang: lang, players: names, tokens: secrets, bots: bots.map { $0?.rawValue },
                                 mode: mode, now: clock.wall)
        }) else { return false }
        tables[id] = Table(id: id, lang: lang, names: names, tokens: secrets, seats: seats, bots: bots,
                           match: options.match, ghost: [0, 0], starter: 0,
                           game: GhostGame(rules: GhostRules(words: words)), round: 1,
                           offer: nil, offerSpent: [false, false], awaySince: [nil, nil], turnSince: clock.monotonic)
        for (seat, conn) in seats.enumerated() {
            guard let conn else { continue }
            sessions[conn]?.state = .playing(game: id, seat: seat)
            sessions[conn]?.last = nil
            tokenIndex[secrets[seat]] = (id, seat)
        }
        log("game \(id) started: \(lang) \(names.joined(separator: " vs "))" + (options.match ? " (G-H-O-S-T match)" : ""))
        for seat in 0..<2 { sendState(id, to: seat) }
        scheduleComputer(id)
        return true
    }

    /// Loads the games in progress from the store; every seat starts empty.
    func restoreGames() throws {
        let now = clock.monotonic
        for g in try store.activeGames() {
            guard g.players.count == 2, g.tokens.count == 2, let words = dictionaries[g.lang] else {
                log("game \(g.id) not restored: no word list for \(g.lang)")
                continue
            }
            guard let game = GhostGame(rules: GhostRules(words: words), firstToMove: g.starter, replaying: g.fragment),
                  game.toMove == g.toMove else {
                log("game \(g.id) not restored: \"\(g.fragment)\" does not replay on the \(g.lang) list")
                continue
            }
            let bots = g.bots.map { $0.flatMap(BotLevel.init(rawValue:)) }
            timedGames.insert(g.id)
            tables[g.id] = Table(id: g.id, lang: g.lang, names: g.players, tokens: g.tokens, seats: [nil, nil],
                                 bots: bots, match: g.mode == "ghost", ghost: g.ghost, starter: g.starter,
                                 game: game, round: g.round, offer: g.offer, offerSpent: g.offerSpent,
                                 awaySince: [now, now], turnSince: now)
            for seat in 0..<2 where bots[seat] == nil { tokenIndex[g.tokens[seat]] = (g.id, seat) }
            scheduleComputer(g.id)
        }
        if !tables.isEmpty { log("restored \(tables.count) adjourned game(s)") }
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

    /// One line to every person seated at the game, rendered once.
    func broadcast(_ gameID: Int, _ line: ServerLine) {
        guard let table = tables[gameID] else { return }
        outbox.send(line, toEach: table.seats)
    }

    /// The full state of a game for one seat: GAME (with its token), the
    /// pending offer, whether the opponent is away, and TURN.
    func sendState(_ gameID: Int, to seat: Int) {
        guard let table = tables[gameID], let conn = table.seats[seat] else { return }
        outbox.send(.game(id: gameID, lang: table.lang, players: table.names, token: table.tokens[seat], round: table.round,
                          bot: table.bots.compactMap { $0?.rawValue }.first, ghost: table.ghostField), to: conn)
        if let offer = table.offer {
            outbox.send(.offer(id: gameID, player: table.names[offer.seat], kind: offer.kind, lang: offer.lang), to: conn)
        }
        if table.isAway(1 - seat) {
            outbox.send(.adjourned(id: gameID, player: table.names[1 - seat], grace: graceLeft(table)), to: conn)
        }
        outbox.send(turnLine(table), to: conn)
    }

    func turnLine(_ table: Table) -> ServerLine {
        .turn(id: table.id, player: table.names[table.game.toMove], fragment: table.game.fragment, ghost: table.ghostField)
    }

    // MARK: Moves

    func play(_ letter: Letter, from id: ConnectionID, _ session: Session) {
        guard case .playing(let gameID, let seat) = session.state, let table = tables[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game; SEEK, NEW or JOIN one"))
        }
        guard !table.game.isOver else { return reply(id, .error(.notInGame, "the game is over")) }
        guard table.game.toMove == seat else {
            return reply(id, .error(.notYourTurn, "it is \(table.names[table.game.toMove])'s turn"))
        }
        apply(letter, in: gameID, by: seat, mover: id)
    }

    /// Plays a letter that is legal in turn (from a person or the computer),
    /// stores it, and tells both sides; ends the round or schedules the computer.
    func apply(_ letter: Letter, in gameID: Int, by seat: Int, mover: ConnectionID?) {
        guard let table = tables[gameID] else { return }
        // The table changes only once the letter is stored.
        var game = table.game
        do { try game.play(letter, by: seat) } catch { return }
        let fragment = game.fragment
        let stored: Void? = persist {
            try store.recordMove(game: gameID, round: table.round, ply: fragment.utf8.count, seat: seat,
                                 letter: letter.description, fragment: fragment, now: clock.wall)
        }
        guard stored != nil else {
            if let mover { failed(mover) }
            return
        }
        table.game = game
        if table.offer != nil { table.offer = nil }
        if table.offerSpent.contains(true) { table.offerSpent = [false, false] }
        table.turnSince = clock.monotonic
        table.claimAnnounced = false
        table.botDue = nil
        if let mover { reply(mover, .ok("LETTER", ("letter", letter.description), ("fragment", fragment))) }
        broadcast(gameID, .move(id: gameID, player: table.names[seat], letter: letter.description, fragment: fragment))
        if let outcome = table.game.outcome {
            endRound(gameID, loser: outcome.loser, reason: outcome.reason)
        } else {
            broadcast(gameID, turnLine(table))
            scheduleComputer(gameID)
        }
    }

    /// A round ended by the rules: in a match the loser earns a letter and
    /// play goes on until someone spells GHOST; otherwise the game is over.
    func endRound(_ gameID: Int, loser: Int, reason: EndReason) {
        guard let table = tables[gameID] else { return }
        guard table.match, reason == .word || reason == .dead else {
            return finish(gameID, loser: loser, reason: reason)
        }
        table.ghost[loser] += 1
        guard table.ghost[loser] < 5 else { return finish(gameID, loser: loser, reason: reason) }
        let words = table.game.rules
        broadcast(gameID, .over(id: gameID, winner: table.names[1 - loser], loser: table.names[loser],
                                reason: reason.rawValue, fragment: table.game.fragment, ghost: table.ghost))
        broadcast(gameID, .info(table.game.explanation(loserName: table.names[loser]) + " \(table.names[loser]) earns the letter \(Array("GHOST")[table.ghost[loser] - 1])."))
        // The next round: the other seat starts.
        table.starter = 1 - table.starter
        table.round += 1
        table.game = GhostGame(rules: words, firstToMove: table.starter)
        table.turnSince = clock.monotonic
        table.claimAnnounced = false
        guard persist({ try store.nextRound(game: gameID, round: table.round, ghost: table.ghost, starter: table.starter) }) != nil else {
            for case let conn? in table.seats { failed(conn) }
            return
        }
        log("game \(gameID) round \(table.round): \(ServerLine.ghostLetters(table.ghost))")
        for seat in 0..<2 { sendState(gameID, to: seat) }
        scheduleComputer(gameID)
    }

    /// Records and announces the end of a game or match lost by `loser`,
    /// then returns its players to the lobby.
    func finish(_ gameID: Int, loser loserSeat: Int, reason: EndReason) {
        guard let table = tables[gameID] else { return }
        if !table.game.isOver {
            if reason == .abandoned { table.game.abandon(loserSeat) } else { table.game.resign(loserSeat) }
        }
        let winner = table.names[1 - loserSeat], loser = table.names[loserSeat]
        let fragment = table.game.fragment
        let people = (0..<2).filter { table.bots[$0] == nil }.map { table.names[$0] }
        let board = table.board
        let ranks = persist { () throws -> [ScoreRow] in
            try store.finishGame(game: gameID, winner: winner, loser: loser, reason: reason.rawValue, fragment: fragment,
                                 ghost: table.ghostField, board: board, people: people, now: clock.wall)
            return try [winner, loser].filter { people.contains($0) }.map { try store.rank(of: $0, board: board) }
        }
        guard let ranks else {
            for case let conn? in table.seats { failed(conn) }
            return
        }
        broadcast(gameID, .over(id: gameID, winner: winner, loser: loser, reason: reason.rawValue, fragment: fragment,
                                ghost: table.ghostField))
        broadcast(gameID, .info(reason == .abandoned
            ? "\(loser) stayed away past the grace period; \(winner) claimed the game."
            : table.game.explanation(loserName: loser)))
        if table.match {
            broadcast(gameID, .match(id: gameID, winner: winner, loser: loser, ghost: table.ghost))
            broadcast(gameID, .info(table.ghost[loserSeat] >= 5
                ? "\(loser) spelled GHOST: \(winner) wins the match."
                : "\(winner) wins the match."))
        }
        for r in ranks { broadcast(gameID, .rank(name: r.name, rank: r.rank, wins: r.wins)) }
        log("game \(gameID) over: \(winner) beat \(loser) (\(reason.rawValue), fragment \"\(fragment)\")")
        for (seat, conn) in table.seats.enumerated() {
            guard let conn else { continue }
            sessions[conn]?.state = .idle
            if let other = table.seats[1 - seat] {
                sessions[conn]?.last = LastGame(game: gameID, lang: table.lang, seat: seat, opponent: other, match: table.match)
            }
        }
        for t in table.tokens { tokenIndex[t] = nil }
        noteRemoved(table)
        tables[gameID] = nil
    }

    // MARK: The computer

    /// The solved game for a language, made once when first needed.
    func solver(for lang: String) -> Solver? {
        if let s = solvers[lang] { return s }
        guard let words = dictionaries[lang] else { return nil }
        let s = Solver(rules: GhostRules(words: words))
        solvers[lang] = s
        return s
    }

    /// If the computer is to move, plays now (no delay) or sets when it will.
    func scheduleComputer(_ gameID: Int) {
        guard let table = tables[gameID], !table.game.isOver, table.bots[table.game.toMove] != nil else { return }
        if settings.botDelay <= 0 { return playComputer(gameID) }
        table.botDue = clock.monotonic + settings.botDelay * Double.random(in: 0.6...1.4)
        timedGames.insert(gameID)
    }

    func playComputer(_ gameID: Int) {
        guard let table = tables[gameID], !table.game.isOver, let level = table.bots[table.game.toMove],
              let solver = solver(for: table.lang) else { return }
        let letter = Bot(level: level, solver: solver).choose(in: table.game)
        apply(letter, in: gameID, by: table.game.toMove, mover: nil)
    }

    func hint(_ id: ConnectionID, _ session: Session) {
        guard case .playing(let gameID, let seat) = session.state, let table = tables[gameID],
              table.bots.contains(.easy) else {
            return reply(id, .error(.noHints, "hints are only for games against the Easy computer"))
        }
        guard table.game.toMove == seat else {
            return reply(id, .error(.notYourTurn, "hints are for your turn"))
        }
        guard let solver = solver(for: table.lang) else { return failed(id) }
        let hint = Bot(level: .hard, solver: solver).hint(for: table.game)
        reply(id, .ok("HINT", ("winning", hint.winning ? "yes" : "no"), ("letter", hint.letter.description)))
        reply(id, .info(hint.winning
            ? "You can force a win from here: try \(hint.letter.description)."
            : "With perfect play you lose from here; \(hint.letter.description) gives your opponent the most chances to go wrong."))
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
        guard table.isAway(mover), table.seats[1 - mover] != nil, let away = table.awaySince[mover] else { return nil }
        return max(away, table.turnSince) + settings.graceSeconds
    }

    func adjourn(_ gameID: Int, seat: Int) {
        timedGames.insert(gameID)
        guard let table = tables[gameID] else { return }
        table.seats[seat] = nil
        table.awaySince[seat] = clock.monotonic
        table.claimAnnounced = false
        log("game \(gameID) adjourned: \(table.names[seat]) is away")
        broadcast(gameID, .adjourned(id: gameID, player: table.names[seat], grace: graceLeft(table)))
        broadcast(gameID, .info("\(table.names[seat]) is away. The game waits; if they are still away \(Int(settings.graceSeconds)) s into their turn, you may CLAIM it."))
    }

    func resume(_ token: String, _ id: ConnectionID, _ session: Session) {
        guard let (gameID, seat) = tokenIndex[token], let table = tables[gameID] else {
            return reply(id, .error(.badToken, "no game in progress has that token"))
        }
        if case .playing(let g, let s) = session.state, g == gameID, s == seat {
            reply(id, .ok("RESUME", ("id", String(gameID))))
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
        if let mine = session.name, mine.lowercased() != name.lowercased(), namesInUse[mine.lowercased()] == id {
            namesInUse[mine.lowercased()] = nil
        }
        namesInUse[name.lowercased()] = id
        sessions[id]?.name = name
        sessions[id]?.state = .playing(game: gameID, seat: seat)
        sessions[id]?.last = nil
        let wasAway = table.seats[seat] == nil
        table.seats[seat] = id
        table.awaySince[seat] = nil
        table.claimAnnounced = false
        reply(id, .ok("RESUME", ("id", String(gameID))))
        sendState(gameID, to: seat)
        scheduleComputer(gameID)
        if wasAway, let other = table.seats[1 - seat] {
            outbox.send(.returned(id: gameID, player: name), to: other)
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
        guard table.isAway(1 - seat) else {
            return reply(id, .error(.notClaimable, table.bots[1 - seat] != nil ? "the computer never leaves" : "your opponent is here"))
        }
        guard table.game.toMove != seat, let deadline = claimDeadline(table) else {
            return reply(id, .error(.notClaimable, "it is your turn: the grace period runs only while the absent player is to move"))
        }
        guard clock.monotonic >= deadline else {
            return reply(id, .error(.notClaimable, "the grace period ends in \(graceLeft(table)) s"))
        }
        reply(id, .ok("CLAIM"))
        finish(gameID, loser: 1 - seat, reason: .abandoned)
    }

    /// The next moment a grace period ends, if any (monotonic seconds).
    /// Only games with a timer (the computer to play, a player away) are
    /// looked at, so a busy server does not walk every game on every turn.
    public var nextDeadline: Double? {
        var next: Double?
        for id in timedGames {
            guard let table = tables[id] else { continue }
            for d in [table.botDue, table.claimAnnounced ? nil : claimDeadline(table)] {
                if let d, next.map({ d < $0 }) ?? true { next = d }
            }
        }
        return next
    }

    /// Announces the grace periods that have ended.
    public func tick() {
        guard !timedGames.isEmpty else { return }
        let now = clock.monotonic
        for gameID in timedGames {
            guard let table = tables[gameID] else { continue }
            if let due = table.botDue, due <= now { runCommand(game: gameID, savepoint: false) { playComputer(gameID) } }
        }
        // Forget the games that no longer need a timer.
        timedGames = timedGames.filter { id in
            guard let t = tables[id] else { return false }
            return t.botDue != nil || (0..<2).contains { t.isAway($0) }
        }
        for gameID in timedGames {
            guard let table = tables[gameID], !table.claimAnnounced else { continue }
            guard let deadline = claimDeadline(table), deadline <= now else { continue }
            tables[gameID]?.claimAnnounced = true
            let absent = table.names[table.game.toMove]
            broadcast(gameID, .claimable(id: gameID, player: absent))
            broadcast(gameID, .info("\(absent) has been away past the grace period: send CLAIM to take the win, or keep waiting."))
        }
    }

    // MARK: Offers

    /// RESTART or LANG during a game: at once before the first letter of the
    /// round, otherwise as an offer the opponent must accept.
    func offerOrApply(kind: String, lang: String?, _ id: ConnectionID, _ session: Session) {
        let verb = kind == "lang" ? "LANG" : "RESTART"
        guard case .playing(let gameID, let seat) = session.state, let table = tables[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game"))
        }
        var fields: [(String, String)] = lang.map { [("lang", $0)] } ?? []
        if table.game.fragment.isEmpty || table.bots[1 - seat] != nil {
            // Before the first letter, or against the computer (which always agrees).
            guard restart(gameID, lang: lang ?? table.lang) else { return failed(id) }
            reply(id, .ok(verb: verb, fields: fields + [("status", "done")]))
            for s in 0..<2 { sendState(gameID, to: s) }
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
        table.offer = StoredGame.Offer(seat: seat, kind: kind, lang: lang)
        table.offerSpent[seat] = true
        guard persist({ try store.setOffer(game: gameID, offer: table.offer, spent: table.offerSpent) }) != nil else {
            return failed(id)
        }
        fields.append(("status", "offered"))
        reply(id, .ok(verb: verb, fields: fields))
        let what = kind == "lang" ? "switch to \(lang ?? "?") and restart" : "restart the round"
        broadcast(gameID, .offer(id: gameID, player: table.names[seat], kind: kind, lang: lang))
        if let other = table.seats[1 - seat] {
            outbox.send(.info("\(table.names[seat]) offers to \(what): ACCEPT or DECLINE."), to: other)
        }
    }

    func answerOffer(accept: Bool, _ id: ConnectionID, _ session: Session) {
        let verb = accept ? "ACCEPT" : "DECLINE"
        guard case .playing(let gameID, let seat) = session.state, let table = tables[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game"))
        }
        guard let offer = table.offer, offer.seat != seat else {
            return reply(id, .error(.noOffer, "there is no offer from your opponent to answer"))
        }
        let name = table.names[seat]
        if accept {
            guard restart(gameID, lang: offer.lang ?? table.lang) else { return failed(id) }
            reply(id, .ok(verb))
            broadcast(gameID, .accepted(id: gameID, player: name, kind: offer.kind))
            for s in 0..<2 { sendState(gameID, to: s) }
            scheduleComputer(gameID)
        } else {
            table.offer = nil
            guard persist({ try store.setOffer(game: gameID, offer: nil, spent: table.offerSpent) }) != nil else {
                return failed(id)
            }
            reply(id, .ok(verb))
            broadcast(gameID, .declined(id: gameID, player: name, kind: offer.kind))
        }
    }

    /// A new round of the game, perhaps in another language. Seat 0 starts it.
    private func restart(_ gameID: Int, lang: String) -> Bool {
        guard let table = tables[gameID], let words = dictionaries[lang] else { return false }
        // Moves are keyed by round; a round without letters can be reused.
        let round = table.game.fragment.isEmpty ? table.round : table.round + 1
        guard persist({ try store.restartGame(game: gameID, round: round, lang: lang, starter: table.starter) }) != nil else { return false }
        table.lang = lang
        table.round = round
        table.game = GhostGame(rules: GhostRules(words: words), firstToMove: table.starter)
        table.botDue = nil
        table.offer = nil
        table.offerSpent = [false, false]
        table.turnSince = clock.monotonic
        table.claimAnnounced = false
        log("game \(gameID) restarted: round \(round), \(lang)")
        return true
    }
}
