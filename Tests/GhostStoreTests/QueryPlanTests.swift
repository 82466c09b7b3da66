import Foundation
import Testing
@testable import GhostStore

/// No store call that a command can reach does work that grows with the
/// database: each of them is run on a database with a few
/// thousand names and finished games, every statement it runs is recorded,
/// and SQLite's plan for each (`EXPLAIN QUERY PLAN`) must read its tables
/// through an index: a `SEARCH`, never a `SCAN` of a table or a sort of every
/// matching row (`USE TEMP B-TREE`). The one walk allowed is a LIMITed one
/// along the index that already has the rows in the order asked for (NAMES
/// without a prefix: the names by last use, newest first, stops after n + 1),
/// and the rows of a LIMITed subquery (the caps on games in progress count at
/// most their limit of index entries).
///
/// Left out, as no command reaches them: `activeGames()` (at start, and after
/// a failed commit), the win counts read at start, `allNames()`, and
/// `bestGameRank(board:game:)` without `within:` (the lobby always bounds it).
@Suite struct QueryPlanTests {
    static let names = 3000
    static let games = 3000

    /// A database with `names` names (preferences for some), `games`
    /// finished games between them (on the `game` board, head-to-head
    /// records, best-games entries), and one game in progress with moves.
    private func fill(_ store: Store) throws -> (finished: Int, active: Int, token: String) {
        for i in 0..<Self.names {
            try store.registerName("player\(i)", now: t0 + i)
            if i % 10 == 0 { try store.setPreference(.language, "nl", for: "player\(i)", now: t0 + i) }
            // Ratings on two boards, half of them listed on TOP.
            for board in ["ghost", "ghost-super"] {
                try store.ratingStore.saveRating(StoredRating(name: "player\(i)", board: board, rating: Double(1000 + i % 1000), deviation: 80,
                                                  volatility: 0.06, games: 20, wins: 10, losses: 10, lastPlayed: t0 + i),
                                     listed: i % 2 == 0)
            }
        }
        var last = 0
        var token = ""
        for g in 0..<Self.games {
            let a = "player\(g % Self.names)", b = "player\((g * 7 + 1) % Self.names)"
            let tokens = freshTokens()
            last = try store.createGame(NewGame(kind: "ghost", lang: "en", players: [a, b], tokens: tokens), now: t0 + g)
            try store.finishGame(game: last, winner: a, loser: b, reason: "word", finalState: "fragment=x", board: "game", now: t0 + g)
            try store.scoreStore.recordHeadToHead(kind: "ghost", winner: a, loser: b)
            try store.scoreStore.recordBestGame(board: "hangman-evil", game: last, name: a, key1: g % 7, key2: g % 5, fields: "word=x", now: t0 + g)
            token = tokens[1]
        }
        // Games in progress, many of them (a RESUME must not walk them), with
        // tokens that name them (schema 14; the finished games' are older).
        var active = 0
        for g in 0..<Self.games {
            let a = "player\(g % Self.names)", b = "player\((g * 3 + 2) % Self.names)"
            let next = try store.nextGameID()
            let tokens = try (0..<2).map { try #require(ResumeTokens.prefix(game: next, seat: $0)) + String(format: "%020x", g * 2 + $0) }
            active = try store.createGame(NewGame(kind: "ghost", lang: "en", players: [a, b], tokens: tokens), now: t0 + g)
            try store.gameStore.noteStarted(game: active, networks: ["192.0.2.\(g % 200)", ""], now: t0 + g)
            try store.recordMove(game: active, round: 1, ply: 1, seat: 0, move: "p", now: t0 + g)
        }
        try store.commit()
        return (last, active, token)
    }

    @Test("Every statement of every store call a command reaches uses an index; none scans or sorts a whole table")
    func everyCommandQueryIsBounded() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (finished, active, token) = try {
            let filler = try Store(directory: dir.path)
            defer { filler.close() }
            return try fill(filler)
        }()
        // Opened again: its caches are empty, as after a restart.
        let store = try Store(directory: dir.path)
        defer { store.close() }
        store.db.statementLog = []
        // NAME, NAMES, LANG, SET, SETTINGS
        try store.registerName("player5", now: t0 + 99_999)
        _ = try store.isKnownName("nobody")
        _ = try store.recentNames(prefix: nil, limit: 100)
        _ = try store.recentNames(prefix: "player1", limit: 100)
        _ = try store.recentNames(prefix: "a_%", limit: 5)
        _ = try store.preferences(for: "player10")
        _ = try store.preference(.language, for: "player11")
        try store.setPreference("hangman-mode", "evil", for: "player12", now: t0)
        // REGISTER, NAME with a password, PASSWORD, SCORES' marks
        _ = try store.createAccount("player13", hash: "$y$x", now: t0)
        _ = try store.account("player13")
        _ = try store.setPasswordHash("player13", hash: "$y$y", now: t0)
        _ = try store.registered(among: ["player13", "player14"])
        _ = try store.accounts(after: "player1", limit: 10)
        _ = try store.deleteAccount("player13")
        // RESUME of a finished game's token, and of an unknown one
        #expect(try store.finishedGame(token: token)?.id == finished)
        #expect(try store.finishedGame(token: "no-such-token") == nil)
        _ = try store.result(game: finished)
        // RESUME/WATCH of a game that is not in memory, its moves
        #expect(try store.activeGame(id: active)?.moves.count == 1)
        // RESUME of a game that was unloaded, and of a token nobody has (Store+Lifecycle.swift)
        let activeToken = try #require(try store.activeGame(id: active)?.tokens.first)
        #expect(try store.activeGame(token: activeToken)?.id == active)
        #expect(try store.activeGame(token: "no-such-token") == nil)
        // The caps on games in progress (NEW, SEEK, JOIN, REMATCH), a reload, the sweep of untouched games
        _ = try store.activeGameCount(player: "player7", limit: 10)
        // A guest's NAME: does the name have a seat waiting for its player
        _ = try store.activeSeats(player: "player7", limit: 16)
        _ = try store.activeGameCount(network: "192.0.2.7", limit: 100)
        try store.touchGame(game: active, at: t0 + 99_999)
        _ = try store.untouchedGames(before: t0 + 10, limit: 100)
        _ = try store.moves(game: active, round: 1)
        // SCORES, BEST
        #expect(try store.scoreStore.scores(board: "game", limit: 100).count == 100)
        _ = try store.scoreStore.bestGames(board: "hangman-evil", limit: 100)
        _ = try store.scoreStore.bestGameRank(board: "hangman-evil", game: finished, within: 10)
        // NEW, a move, an offer, a restart, a match's next round, the end of a game
        _ = try store.scoreStore.headToHead(kind: "ghost", "player1", "player2")
        let game = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["player3", "player4"], tokens: freshTokens()),
                                        now: t0)
        try store.recordMove(game: game, round: 1, ply: 1, seat: 0, move: "q", now: t0)
        try store.setOffer(game: game, offer: .init(seat: 0, kind: "restart", lang: nil), spent: [true, false])
        try store.restartGame(game: game, round: 2, lang: "nl")
        try store.nextRound(game: game, round: 3, losses: [1, 0], starter: 1)
        // A rated game's start and end (Store+Ratings.swift)
        _ = try store.ratingStore.rating(of: "player3", board: "ghost")
        try store.markRated(game: game, ratings: [1500, 1500])
        _ = try store.isRated(game: game)
        try store.finishGame(game: game, winner: "player3", loser: "player4", reason: "word", finalState: "fragment=y", board: "game", now: t0)
        try store.ratingStore.saveRating(StoredRating(name: "player3", board: "ghost", rating: 1600, deviation: 100, volatility: 0.06, games: 12),
                             listed: true)
        try store.setRatingChanges(game: game, changes: [12, -12])
        // TOP, PROFILE, HISTORY (their own and another's)
        #expect(try store.ratingStore.topRatings(board: "ghost", limit: 100).count == 100)
        #expect(try store.ratingStore.ratings(of: "player3", limit: 16).count == 2)
        #expect(try store.ratingStore.history(of: "player1", includePrivate: true, limit: 100).count > 0)
        _ = try store.ratingStore.history(of: "player1", includePrivate: false, limit: 100)
        #expect(try store.storedName("PLAYER1") == "player1")
        try store.ratingStore.unlistRatings(of: "player20")
        try store.abortGame(game: active, why: "untouched", now: t0)
        _ = try store.scoreStore.rank(of: "player3", board: "game")
        try store.scoreStore.recordHeadToHead(kind: "ghost", winner: "player3", loser: "player4")
        try store.scoreStore.recordBestGame(board: "hangman-evil", game: game, name: "player3", key1: 0, key2: 0, fields: "word=y", now: t0)
        try store.commit()

        let log = store.db.statementLog ?? []
        store.db.statementLog = nil
        var seen = Set<String>()
        let statements = log.filter { sql in
            let verb = sql.prefix(while: { $0 != " " }).uppercased()
            return !["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE"].contains(verb) && seen.insert(sql).inserted
        }
        #expect(statements.count >= 20, "\(statements)")
        for sql in statements {
            let plan = try store.db.query("EXPLAIN QUERY PLAN " + sql) { $0.text(3) }
            let bad = plan.filter { step in
                if step.contains("TEMP B-TREE") { return true }
                // A search on `status` alone walks every game in progress (or every finished one).
                if step.hasSuffix("(status=?)") { return true }
                guard step.hasPrefix("SCAN ") else { return false }
                // A LIMITed subquery's rows (the caps count at most their limit of index entries).
                if (step == "SCAN CONSTANT ROW" || step.hasPrefix("SCAN (subquery-")) && sql.contains("LIMIT ?") { return false }
                // The one allowed walk: NAMES without a prefix, along the recency index, LIMITed.
                return !(step == "SCAN players USING COVERING INDEX players_recent" && sql.hasSuffix("LIMIT ?"))
            }
            #expect(bad.isEmpty, "\(sql)\nplan: \(plan)")
        }
        // The look-ups that scanned before schema 8 now search their indexes.
        func plan(_ sql: String) throws -> [String] { try store.db.query("EXPLAIN QUERY PLAN " + sql) { $0.text(3) } }
        // RESUME of a token issued before schema 14: its seat's partial index.
        let resume = try plan(try #require(statements.first { $0.contains("token0 = ?") }))
        #expect(statements.first { $0.contains("token0 = ?") }?.contains("token0 = ? AND token0 <> '' AND token0 < '~'") == true)
        #expect(resume.contains { $0.contains("USING INDEX games_token0 (token0=?)") }, "\(resume)")
        #expect(resume.contains { $0.contains("USING INDEX games_token1 (token1=?)") }, "\(resume)")
        // RESUME of a token that names its game: the row by its id.
        let named = try plan(try #require(statements.first { $0.contains("THEN token0 ELSE token1 END") }))
        #expect(named == ["SEARCH games USING INTEGER PRIMARY KEY (rowid=?)"], "\(named)")
        let scores = try plan(try #require(statements.first { $0.contains("FROM scores s JOIN players p") }))
        #expect(scores.first == "SEARCH s USING INDEX scores_rank (board=?)", "\(scores)")
        let prefixed = try plan(try #require(statements.first { $0.contains("name >= ? AND name < ?") }))
        #expect(prefixed == ["SEARCH players USING COVERING INDEX players_prefix (name>? AND name<?)"], "\(prefixed)")
        let top = try plan(try #require(statements.first { $0.contains("FROM ratings WHERE board = ? AND listed = 1") }))
        #expect(top == ["SEARCH ratings USING INDEX ratings_top (board=?)"], "\(top)")
        let history = try plan(try #require(statements.first { $0.contains("player0 = ? COLLATE NOCASE AND watch = ?") }))
        #expect(history == ["SEARCH games USING INDEX games_history0 (player0=? AND watch=?)"], "\(history)")
        // The caps' counts and a guest's NAME read the seats kept in memory (schema 12): no SQL.
        #expect(!statements.contains { $0.contains("player0 = ? COLLATE NOCASE LIMIT") || $0.contains("net0 = ?") }, "\(statements)")
    }

    @Test("NAMES prefix= looks at the first namesPrefixScan matching names alphabetically, lists the newest of those, and says more=yes past the bound")
    func prefixedNamesAreBounded() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        let bound = NamesStore.namesPrefixScan
        // bound + 50 names b0000 …, each used later than the one before; and a few others.
        for i in 0..<(bound + 50) { try store.registerName(String(format: "b%04d", i), now: t0 + i) }
        for (name, at) in [("Cat", 5), ("cab", 5), ("car", 9), ("dog", 99_999)] { try store.registerName(name, now: t0 + at) }
        try store.commit()
        // The newest b names are past the bound: the list comes from b0000 … b0999.
        let b = try store.recentNames(prefix: "b", limit: 3)
        #expect(b.names == [String(format: "b%04d", bound - 1), String(format: "b%04d", bound - 2), String(format: "b%04d", bound - 3)])
        #expect(b.more)
        // Fewer matches than the bound: exact, newest first, ties alphabetical (any case), more=no.
        #expect(try store.recentNames(prefix: "CA", limit: 5) == (["car", "cab", "Cat"], false))
        #expect(try store.recentNames(prefix: "ca", limit: 2) == (["car", "cab"], true))
        // A longer prefix narrows the search back under the bound: exact again.
        let narrow = try store.recentNames(prefix: "b10", limit: 2)
        #expect(narrow.names == [String(format: "b%04d", bound + 49), String(format: "b%04d", bound + 48)] && narrow.more)
        // Without a prefix: the newest of all.
        #expect(try store.recentNames(prefix: nil, limit: 2) == (["dog", String(format: "b%04d", bound + 49)], true))
    }

    /// `activeGames()` (a restart's or a test's load of every game in
    /// progress) is left out above, as no command reaches it; still, it
    /// reads the games in progress through an index, not every game ever
    /// played and every move (schema 12 dropped `games_active`: it reads
    /// `games_untouched`, which holds the same rows).
    @Test("Loading every game in progress walks the index of games in progress, not every game and every move")
    func activeGamesReadTheirIndex() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        _ = try fill(store)
        store.db.statementLog = []
        #expect(try store.activeGames().count == Self.games)
        let log = store.db.statementLog ?? []
        store.db.statementLog = nil
        #expect(log.count == 2)
        for sql in log {
            let plan = try store.db.query("EXPLAIN QUERY PLAN " + sql) { $0.text(3) }
            #expect(plan.contains("SCAN g USING INDEX games_untouched") || plan.contains("SCAN games USING INDEX games_untouched"), "\(sql)\nplan: \(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN ") && !$0.contains("USING") }, "\(sql)\nplan: \(plan)")
        }
    }
}
