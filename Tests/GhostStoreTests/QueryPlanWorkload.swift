import Foundation
import Testing
@testable import GhostStore

/// What QueryPlanTests and PostgresQueryPlanTests check the plans of: a
/// database with a few thousand names and games (`fill`), and every store
/// call a command can reach, run on it (`commands`), which records the
/// statements those calls run. One workload, so that the two backends'
/// tests check the same statements.
///
/// Left out, as no command reaches them: `activeGames()` (at start, and after
/// a failed commit), the win counts read at start, `allNames()`, and
/// `bestGameRank(board:game:)` without `within:` (the lobby always bounds it).
enum QueryPlanWorkload {
    static let names = 3000
    static let games = 3000

    /// A database with `names` names (preferences for some), `games`
    /// finished games between them (on the `game` board, head-to-head
    /// records, best-games entries), and one game in progress with moves.
    static func fill(_ store: Store) throws -> (finished: Int, active: Int, token: String) {
        for i in 0..<names {
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
        for g in 0..<games {
            let a = "player\(g % names)", b = "player\((g * 7 + 1) % names)"
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
        for g in 0..<games {
            let a = "player\(g % names)", b = "player\((g * 3 + 2) % names)"
            let next = try store.nextGameID()
            let tokens = try (0..<2).map { try #require(ResumeTokens.prefix(game: next, seat: $0)) + String(format: "%020x", g * 2 + $0) }
            active = try store.createGame(NewGame(kind: "ghost", lang: "en", players: [a, b], tokens: tokens), now: t0 + g)
            try store.gameStore.noteStarted(game: active, networks: ["192.0.2.\(g % 200)", ""], now: t0 + g)
            try store.recordMove(game: active, round: 1, ply: 1, seat: 0, move: "p", now: t0 + g)
        }
        try store.commit()
        return (last, active, token)
    }

    /// Runs every store call a command reaches on `store` (opened again on a
    /// filled folder: its caches empty, as after a restart), commits, and
    /// returns the distinct statements they ran, in their first order,
    /// without the transaction's own (BEGIN, COMMIT, …).
    static func commands(_ store: Store, finished: Int, active: Int, token: String) throws -> [String] {
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
        return statements
    }
}
