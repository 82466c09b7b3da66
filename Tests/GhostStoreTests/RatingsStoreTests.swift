import Testing
@testable import GhostStore

/// The store's side of ratings (schema 11, Store+Ratings.swift): ratings
/// kept per name and board, TOP from the listed ones only, a game's rated
/// flag and changes, HISTORY newest first with private games only on request.
@Suite struct RatingsStoreTests {
    @Test("Ratings are saved, replaced and read back in any case; TOP lists only listed names, best first; a deleted account leaves TOP")
    func ratingsAndTop() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        do {
            let store = try openStore(dir.path)
            defer { store.close() }
            for (i, name) in ["ann", "bob", "cy", "dee"].enumerated() {
                #expect(try store.createAccount(name, hash: "$y$x", now: t0))
                try store.ratingStore.saveRating(StoredRating(name: name, board: "ghost", rating: 1500 + Double(i) * 100, deviation: 80,
                                                  volatility: 0.06, games: 12, wins: i, losses: 12 - i, lastPlayed: t0 + i),
                                     listed: name != "cy")
            }
            // Replaced, with a best win.
            try store.ratingStore.saveRating(StoredRating(name: "ann", board: "ghost", rating: 1900, deviation: 70, volatility: 0.059, games: 13,
                                              wins: 1, losses: 12, lastPlayed: t0 + 9, best: BestWin(game: 7, opponent: "dee", rating: 1800)),
                                 listed: true)
            try store.ratingStore.saveRating(StoredRating(name: "ann", board: "ghost-super", rating: 1400, deviation: 300, volatility: 0.06, games: 1),
                                 listed: false)
            try store.commit()
        }
        let store = try openStore(dir.path)
        defer { store.close() }
        let ann = try #require(try store.ratingStore.rating(of: "ANN", board: "ghost"))
        #expect((ann.name, ann.rating, ann.deviation, ann.volatility, ann.games, ann.lastPlayed) == ("ann", 1900, 70, 0.059, 13, t0 + 9))
        #expect(ann.best == BestWin(game: 7, opponent: "dee", rating: 1800))
        #expect(try store.ratingStore.rating(of: "ann", board: "hangman-duel") == nil)
        #expect(try store.ratingStore.ratings(of: "ann", limit: 16).map(\.board) == ["ghost", "ghost-super"])
        #expect(try store.ratingStore.topRatings(board: "ghost", limit: 10).map(\.name) == ["ann", "dee", "bob"])
        #expect(try store.ratingStore.topRatings(board: "ghost", limit: 2).map(\.name) == ["ann", "dee"])
        #expect(try store.ratingStore.topRatings(board: "ghost-super", limit: 10).isEmpty)
        #expect(try store.deleteAccount("dee"))
        try store.commit()
        #expect(try store.ratingStore.topRatings(board: "ghost", limit: 10).map(\.name) == ["ann", "bob"])
        #expect(try store.ratingStore.rating(of: "dee", board: "ghost")?.games == 12)
    }

    @Test("A game's rated flag and changes; HISTORY newest first from both seats, private games only when asked, at most n")
    func ratedGamesAndHistory() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        for name in ["ann", "bob", "cy"] { try store.registerName(name, now: t0) }
        var ids: [Int] = []
        for (i, (a, b, open)) in [("ann", "bob", true), ("bob", "ann", false), ("ann", "cy", true), ("cy", "bob", true)].enumerated() {
            let id = try store.createGame(NewGame(kind: "ghost", variant: i == 2 ? "super" : "", lang: "en", players: [a, b],
                                                  tokens: freshTokens(), watch: open), now: t0 + i)
            if i == 0 { try store.markRated(game: id, ratings: [1500, 1500]) }
            try store.finishGame(game: id, winner: a, loser: b, reason: "word", finalState: "fragment=x", board: "game", now: t0 + 10 * i)
            if i == 0 { try store.setRatingChanges(game: id, changes: [162, -162]) }
            ids.append(id)
        }
        // One aborted, later than all.
        let aborted = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["ann", "bob"], tokens: freshTokens()), now: t0)
        #expect(try store.abortGame(game: aborted, why: "untouched", now: t0 + 100))
        try store.commit()
        #expect(try store.isRated(game: ids[0]) && !store.isRated(game: ids[1]))
        let mine = try store.ratingStore.history(of: "ANN", includePrivate: true, limit: 10)
        #expect(mine.map(\.id) == [aborted, ids[2], ids[1], ids[0]])
        #expect(mine.last?.changes == [162, -162] && mine[1].changes == [nil, nil])
        #expect(mine.first?.winner == nil && mine[1].variant == "super" && !mine[2].open)
        #expect(try store.ratingStore.history(of: "ann", includePrivate: false, limit: 10).map(\.id) == [aborted, ids[2], ids[0]])
        #expect(try store.ratingStore.history(of: "ann", includePrivate: true, limit: 2).map(\.id) == [aborted, ids[2]])
        #expect(try store.ratingStore.history(of: "nobody", includePrivate: true, limit: 5).isEmpty)
    }
}
