import GameKit
import GhostProtocol
import GhostStore
import Ratings

/// A rated game's board and each seat's rating as GAME shows it (both
/// seats are people: a game with a computer seat is never rated).
struct RoomRating {
    var board: String
    /// Per seat, on the board, as last read.
    var ratings: [Rating]

    var shown: SeatRatings { SeatRatings(ratings.map(RatingDesk.shown)) }
}

/// Glicko-2 ratings (a part of the lobby of its own):
/// which games are rated (RatingsPolicy.swift), the ratings GAME shows, the
/// update at a rated game's end (in the same store transaction as its
/// finish), `rated=` and `range=` at NEW, SEEK and JOIN, and TOP, PROFILE
/// and HISTORY: reads only, each bounded (a LIMITed walk of an index, or a
/// few primary-key look-ups; QueryPlanTests). It keeps no state of its own:
/// ratings are the store's, a game's is its room's.
final class RatingDesk: LobbyPart {
    let context: LobbyContext

    /// It uses no other part (the bottom of the lobby's graph).
    init(context: LobbyContext) {
        self.context = context
    }

    /// The network a connection counts in for the caps (`NetworkKey`: an
    /// IPv4 address, an IPv6 /64), "" for none (tests, the computer).
    func network(of conn: ConnectionID) -> String {
        sessions[conn]?.network ?? ""
    }

    static func shown(_ r: Rating) -> ShownRating { ShownRating(RatingsPolicy.points(r), provisional: r.isProvisional) }

    /// Whether the session is logged in to the name it uses (a registered name).
    func isRegistered(_ session: Session?) -> Bool {
        guard let session, let mine = session.loggedIn, let name = session.name else { return false }
        return mine.lowercased() == name.lowercased()
    }

    /// The rating of `name` on `board` now (the unrated player's without a row).
    func currentRating(_ name: String, board: String) throws -> (Rating, StoredRating?) {
        guard let row = try store.ratingStore.rating(of: name, board: board) else { return (.initial, nil) }
        return (Rating(rating: row.rating, deviation: row.deviation, volatility: row.volatility), row)
    }

    /// A seat's rating: the person's stored one.
    func seatRating(_ seat: Int, names: [String], board: String) throws -> Rating {
        try currentRating(names.indices.contains(seat) ? names[seat] : "?", board: board).0
    }

    /// Whether a new game is rated, and then its ratings: its kind and variant
    /// have a board, nobody asked `rated=no`, both seats are people (a game
    /// with a computer seat, at a level or a kind's own such as Hangman's
    /// setter, is never rated: RatingsPolicy.swift) and each is logged in to
    /// their registered name.
    func ratingAtStart(kind: String, variant: String, options: GameOptions, seats: [ConnectionID?],
                       bots: SeatPair<BotLevel?>, kindComputer: Bool) throws -> RoomRating? {
        guard options.rated != false, !kindComputer, RatingsPolicy.mayBeRated(bots: bots) else { return nil }
        var names: [String] = []
        for seat in 0..<2 {
            // Read in place (`sessions[conn]` copied the whole session, twice).
            guard seats.indices.contains(seat), let conn = seats[seat],
                  case let name?? = sessions.peek(conn, { s -> String? in
                      guard let mine = s.loggedIn, let name = s.name, mine.lowercased() == name.lowercased() else { return nil }
                      return name
                  }) else { return nil }
            names.append(name)
        }
        // The board after the people: a guest's game (most) is unrated
        // without the kind's look-up by name and its boards' (string hashes, every game).
        guard let board = RatingsPolicy.board(self.kind(named: kind), variant: variant) else { return nil }
        // `--scores-for registered` (ScoringPolicy.swift): two people rate
        // each other only from two known, different networks, so that one
        // person's two connections cannot farm a rating.
        if settings.scoresFor == .registered {
            let nets = seats.map { $0.map(network(of:)) ?? "" }
            guard nets.count == 2, !nets[0].isEmpty, !nets[1].isEmpty, nets[0] != nets[1] else { return nil }
        }
        return RoomRating(board: board, ratings: try (0..<2).map { try seatRating($0, names: names, board: board) })
    }

    /// The game's ratings for GAME: set at its start; read from the store
    /// once for a game loaded again (RESUME, a restart). Nil when unrated
    /// (or if the read fails: it is not worth failing a command for). A game
    /// against the computer is unrated even if the store marked it rated (a
    /// an older ghostd rated them): it ends without a rating change.
    func tableRating(_ room: Room) -> RoomRating? {
        if !room.ratingRead {
            room.ratingRead = true
            if RatingsPolicy.mayBeRated(bots: SeatPair(room.bot(0), room.bot(1))),
               (try? store.isRated(game: room.id)) == true,
               let board = RatingsPolicy.board(room.kind, variant: room.record.variant) {
                if let ratings = try? (0..<2).map({ try seatRating($0, names: room.names, board: board) }) {
                    room.rating = RoomRating(board: board, ratings: ratings)
                }
            }
        }
        return room.rating
    }

    /// The store's side of a rated game's end (within `recordFinish`, so in
    /// the same transaction as the finish): each person's new rating and
    /// record, and each seat's change on the game. Returns what OVER shows;
    /// nil for an unrated game (every game with a computer seat).
    /// `winner` nil: a draw, half a point each (a drawn game counts in
    /// `games` but in neither `wins` nor `losses`).
    func rateFinish(_ room: Room, winner: Int?, now: Int) throws -> SeatRatings? {
        guard let rated = tableRating(room), RatingsPolicy.mayBeRated(bots: SeatPair(room.bot(0), room.bot(1))) else { return nil }
        let board = rated.board
        // Both seats as they are now (a name may have finished another rated game since this one began).
        var before: [Rating] = [], rows: [StoredRating?] = []
        for seat in 0..<2 {
            let (r, row) = try currentRating(room.names[seat], board: board)
            before.append(r)
            rows.append(row)
        }
        var after = before, changes = [0, 0]
        for seat in 0..<2 {
            let won = seat == winner
            let score: Ratings.Outcome = winner == nil ? .draw : won ? .win : .loss
            let elapsed = Double(max(0, now - (rows[seat]?.lastPlayed ?? now)))
            let new = RatingsPolicy.system.rate(before[seat], after: Ratings.Game(before[1 - seat], score), elapsed: elapsed)
            after[seat] = new
            changes[seat] = RatingsPolicy.points(new) - RatingsPolicy.points(before[seat])
            var row = rows[seat] ?? StoredRating(name: room.names[seat], board: board, rating: 0, deviation: 0, volatility: 0)
            row.rating = new.rating
            row.deviation = new.deviation
            row.volatility = new.volatility
            row.games += 1
            if won { row.wins += 1 } else if winner != nil { row.losses += 1 }
            row.lastPlayed = now
            let opponent = RatingsPolicy.points(before[1 - seat])
            if won, opponent > row.best?.rating ?? -1 {
                row.best = BestWin(game: room.id, opponent: room.names[1 - seat], rating: opponent)
            }
            try store.ratingStore.saveRating(row, listed: row.games >= settings.topMinGames && row.deviation <= settings.topMaxDeviation)
        }
        try store.setRatingChanges(game: room.id, changes: changes.map { Optional($0) })
        return SeatRatings(after.map(RatingDesk.shown), changes: changes)
    }

    // MARK: rated= and range=

    /// Whether NEW's or SEEK's `rated=yes` and `range=` can hold for this
    /// session: the game asked for is not against the computer, it is logged
    /// in to a registered name, and the game is one that is rated. Otherwise
    /// `ERR cannot-rate` (`rated=no` is always taken: it changes nothing
    /// where the game is unrated anyway).
    func ratedOptionsHold(_ options: GameOptions, seeking: Bool, _ id: ConnectionID, _ session: Session) -> Bool {
        guard options.rated == true || options.range != nil else { return true }
        if options.rated == false {
            reply(id, .error(.badArguments, "range= is for a rated seek; leave out rated=no"))
            return false
        }
        // Said first: no name can make it rated.
        guard !Self.playsTheComputer(options) else {
            reply(id, .error(.cannotRate, "a game against the computer is never rated: ratings are for games between registered names; leave out rated=yes"))
            return false
        }
        guard isRegistered(session) else {
            reply(id, .error(.cannotRate, "only registered names play rated games: REGISTER your name, or log in with NAME <name> <password>"))
            return false
        }
        guard ratedBoard(options, seeking: seeking) != nil else {
            reply(id, .error(.cannotRate, "that game is never rated: Ghost, Superghost, challenge and Hangman duels are"))
            return false
        }
        return true
    }

    /// Whether the options seat the computer: `bot=<level>`, or a kind's own
    /// computer (`bot=` among its options, as Hangman's guesser, which
    /// `Matchmaking.kindOptions` moved there). A kind that seats the
    /// computer by itself (Hangman's setter) has no rating board for that mode.
    static func playsTheComputer(_ options: GameOptions) -> Bool {
        options.bot != nil || options.settings["bot"] != nil
    }

    /// The board the options ask for, if it is rated (Hangman: a duel, which
    /// SEEK always is); never for a game against the computer.
    func ratedBoard(_ options: GameOptions, seeking: Bool) -> String? {
        guard !Self.playsTheComputer(options) else { return nil }
        let kind = options.game.map { self.kind(named: $0.rawValue) } ?? catalog.defaultKind
        // A SEEK plays the kind's two-player game (Hangman: a duel); NEW the mode asked for.
        let variant = options.variant ?? (seeking ? kind?.twoPlayerOptions["mode"] : options.settings["mode"]) ?? ""
        return RatingsPolicy.board(kind, variant: variant)
    }

    /// JOIN of a game its host made `rated=yes`: only from a registered name,
    /// and with `--scores-for registered` only from another network than the
    /// host's (a game between one network's two names would be played
    /// unrated).
    func mayJoinRated(_ hostOptions: GameOptions, _ id: ConnectionID, _ session: Session, host: ConnectionID) -> Bool {
        guard hostOptions.rated == true else { return true }
        guard isRegistered(session) else {
            reply(id, .error(.cannotRate, "that game is rated (rated=yes): log in to a registered name to join it"))
            return false
        }
        if settings.scoresFor == .registered {
            let mine = network(of: id), theirs = network(of: host)
            if mine.isEmpty || theirs.isEmpty || mine == theirs {
                reply(id, .error(.cannotRate, "that game is rated (rated=yes), and this server rates only people on two different networks: join from another network, or ask for a game with rated=no"))
                return false
            }
        }
        return true
    }

    /// How many seekers in a queue SEEK looks at for one whose rating and
    /// range fit (from the front): a bound on the work of one SEEK.
    static let seekScanLimit = 64

    /// Whether two seekers may be paired: a rated seek (`rated=yes` or
    /// `range=`) meets only a registered name that did not ask `rated=no`;
    /// each one's rating on the board must lie in the other's range.
    func seekersFit(_ a: (options: GameOptions, session: Session), _ b: (options: GameOptions, session: Session)) -> Bool {
        let wantsA = a.options.rated == true || a.options.range != nil
        let wantsB = b.options.rated == true || b.options.range != nil
        if wantsA && (!isRegistered(b.session) || b.options.rated == false) { return false }
        if wantsB && (!isRegistered(a.session) || a.options.rated == false) { return false }
        // `--scores-for registered`: one network's two names are never rated, so never paired for a rating.
        if wantsA || wantsB, settings.scoresFor == .registered {
            let na = a.session.network, nb = b.session.network
            if na.isEmpty || nb.isEmpty || na == nb { return false }
        }
        guard a.options.range != nil || b.options.range != nil else { return true }
        guard let board = ratedBoard(a.options, seeking: true),
              let ra = try? currentRating(a.session.name ?? "?", board: board).0,
              let rb = try? currentRating(b.session.name ?? "?", board: board).0 else { return false }
        if let range = a.options.range, !range.contains(RatingsPolicy.points(rb)) { return false }
        if let range = b.options.range, !range.contains(RatingsPolicy.points(ra)) { return false }
        return true
    }

    /// The first seeker in a queue (among the first `seekScanLimit`) who fits `id`'s seek.
    func fittingSeeker(_ queue: SeekQueue, _ options: GameOptions, _ session: Session) -> ConnectionID? {
        for other in queue.members.prefix(RatingDesk.seekScanLimit) {
            guard let theirs = sessions[other], case .seeking(let o) = theirs.state else { continue }
            // A name that blocks the other is never paired with it, either way round.
            if context.people.eitherBlocks(session.name, theirs.name) { continue }
            if seekersFit((options, session), (o, theirs)) { return other }
        }
        return nil
    }

    /// The options two seekers' game starts with: the first seeker's, rated
    /// unless either asked `rated=no`.
    static func agreed(_ first: GameOptions, _ second: GameOptions) -> GameOptions {
        var o = first
        if first.rated == false || second.rated == false { o.rated = false } else { o.rated = first.rated ?? second.rated }
        o.range = nil
        return o
    }

    // MARK: TOP, PROFILE and HISTORY

    /// `TOP [game=<kind>] [variant=<v>] [n]`: a rated board's leaders, the
    /// names `listed` there (registered, at least `topMinGames` rated games,
    /// RD at most `topMaxDeviation` as of their last game), best first.
    func top(_ n: Int, game: GameKind?, variant: String?, _ id: ConnectionID) {
        let kind: (any GameDefinition)? = if let game { self.kind(named: game.rawValue) } else { catalog.defaultKind }
        let variant = variant ?? kind?.twoPlayerOptions["mode"] ?? ""
        guard let board = RatingsPolicy.board(kind, variant: variant) else {
            return reply(id, .error(.badArguments, "no rating list for that game: TOP, TOP variant=super, TOP variant=challenge or TOP game=hangman"))
        }
        guard let rows = persist({ try store.ratingStore.topRatings(board: board, limit: min(n, CommandParser.maxTop)) }) else { return failed(id) }
        for (i, r) in rows.enumerated() {
            let shown = ShownRating(RatingDesk.points(r.rating), provisional: r.deviation > 110)
            reply(id, .ratingData(.leader(rank: i + 1, name: r.name, rating: shown, deviation: RatingDesk.points(r.deviation),
                                          games: r.games, wins: r.wins, losses: r.losses)))
        }
        // The rule, so that a client can say who the list is waiting for:
        // how many rated games, and the RD limit when
        // there is one (350 is any RD).
        var fields = [("count", String(rows.count)), ("board", board), ("min_games", String(settings.topMinGames))]
        if settings.topMaxDeviation < Rating.Limits.deviation.upperBound {
            fields.append(("max_rd", String(RatingDesk.points(settings.topMaxDeviation))))
        }
        reply(id, .ok(verb: "TOP", fields: fields))
    }

    /// `PROFILE <name>`: each of its ratings, then the asker's record
    /// against it per game kind (between two people, as GAME's `record=`).
    func profile(_ asked: String, _ id: ConnectionID, _ session: Session) {
        guard let stored = persist({ try store.storedName(asked) }) else { return failed(id) }
        guard let name = stored else { return reply(id, .error(.noSuchName, "nobody called \(asked) has played here")) }
        guard let rows = persist({ try store.ratingStore.ratings(of: name, limit: RatingsPolicy.maxBoards) }),
              let registered = persist({ try store.isRegistered(name) }) else { return failed(id) }
        for r in rows {
            reply(id, .ratingData(.rating(board: r.board, rating: ShownRating(RatingDesk.points(r.rating), provisional: r.deviation > 110),
                                          deviation: RatingDesk.points(r.deviation), games: r.games, wins: r.wins, losses: r.losses,
                                          best: r.best.map { RatedWin(game: $0.game, opponent: $0.opponent, rating: $0.rating) })))
        }
        if let me = session.name, me.lowercased() != name.lowercased() {
            // Per variant, as GAME's record= keeps it: one
            // look-up per kind and variant people play each other in (Ghost: three).
            for kindName in kindNames {
                guard let definition = kind(named: kindName) else { continue }
                let variants = definition.ratingBoards.count > 1 ? definition.ratingBoards.keys.sorted() : [""]
                for variant in variants {
                    let key = PeopleRecord.kind(definition, variant: variant)
                    guard let (mine, theirs) = persist({ try store.scoreStore.headToHead(kind: key, me, name) }) else { return failed(id) }
                    guard mine + theirs > 0 else { continue }
                    reply(id, .ratingData(.versus(game: kindName, record: HeadToHead(mine: mine, theirs: theirs),
                                                  variant: key == kindName ? nil : variant)))
                }
            }
        }
        reply(id, .ok("PROFILE", ("name", name), ("registered", registered ? "yes" : "no"),
                      ("ratings", String(rows.count))))
    }

    /// `HISTORY [name] [n]`: the name's finished games (the asker's own
    /// without a name), newest first; a private game (`watch=no`) only in
    /// its own players' history as they ask for it.
    func history(_ name: String?, limit: Int, _ id: ConnectionID, _ session: Session) {
        guard let asked = name ?? session.name else {
            return reply(id, .error(.noName, "send NAME <name> first, or ask HISTORY <name>"))
        }
        let own = session.name?.lowercased() == asked.lowercased()
        guard let stored = persist({ try store.storedName(asked) }) else { return failed(id) }
        guard let who = stored else { return reply(id, .error(.noSuchName, "nobody called \(asked) has played here")) }
        guard let rows = persist({ try store.ratingStore.history(of: who, includePrivate: own, limit: min(limit, CommandParser.maxHistory)) })
        else { return failed(id) }
        let key = who.lowercased()
        for row in rows {
            let seat = row.players.first?.lowercased() == key ? 0 : 1
            let opponent = row.players.indices.contains(1 - seat) ? row.players[1 - seat] : "?"
            // No winner: aborted, or a draw (which only a kind's rules give).
            let result = row.winner.map { $0.lowercased() == key ? "win" : "loss" } ?? (row.drawn ? "draw" : "aborted")
            let change = row.changes.indices.contains(seat) ? row.changes[seat] : nil
            reply(id, .ratingData(.result(id: row.id, game: row.kind, variant: row.variant.isEmpty ? nil : row.variant,
                                          opponent: opponent, result: result, reason: row.reason, change: change, ended: row.endedAt,
                                          match: row.rounds > 1, lang: row.lang.isEmpty ? nil : row.lang)))
        }
        reply(id, .ok("HISTORY", ("name", who), ("count", String(rows.count))))
    }

    /// A stored double as whole points (finite, not negative).
    static func points(_ x: Double) -> Int {
        let v = x.rounded()
        return v.isFinite ? Int(max(0, min(v, 100_000))) : 0
    }
}
