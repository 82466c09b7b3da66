import GhostStore
import Ratings

/// Every rating computed again from the rated games between people, in the
/// order they ended, exactly as each game's end computed it (`rateFinish`):
/// an older ghostd rated games against the computer (a memoised
/// solver farmed 2722 against Hard), and schema 16 made those unrated. Run
/// at the first start after that upgrade, before anything is served, and
/// only if there were such games; then never again. O(rated games), once.
extension RatingDesk {
    func replayIfNeeded() {
        let started = clock.monotonic
        do {
            guard try store.ratingStore.ratingsReplayNeeded() else { return }
            let games = try store.ratingStore.ratedGames()
            var rows: [String: StoredRating] = [:]   // by board and lowercased name
            var changed: [(id: Int, before: [Int], changes: [Int])] = []
            for game in games {
                guard let board = RatingsPolicy.board(kind(named: game.kind), variant: game.variant) else { continue }
                let keys = game.players.map { board + " " + $0.lowercased() }
                let before = game.players.indices.map { seat in
                    rows[keys[seat]].map { Rating(rating: $0.rating, deviation: $0.deviation, volatility: $0.volatility) } ?? .initial
                }
                var changes = [0, 0]
                for seat in 0..<2 {
                    let won = game.players[seat].lowercased() == game.winner.lowercased()
                    var row = rows[keys[seat]] ?? StoredRating(name: game.players[seat], board: board, rating: 0, deviation: 0, volatility: 0)
                    let elapsed = Double(max(0, game.endedAt - (rows[keys[seat]]?.lastPlayed ?? game.endedAt)))
                    let new = RatingsPolicy.system.rate(before[seat], after: Ratings.Game(before[1 - seat], won ? .win : .loss), elapsed: elapsed)
                    changes[seat] = RatingsPolicy.points(new) - RatingsPolicy.points(before[seat])
                    row.rating = new.rating
                    row.deviation = new.deviation
                    row.volatility = new.volatility
                    row.games += 1
                    if won { row.wins += 1 } else { row.losses += 1 }
                    row.lastPlayed = game.endedAt
                    let opponent = RatingsPolicy.points(before[1 - seat])
                    if won, opponent > row.best?.rating ?? -1 {
                        row.best = BestWin(game: game.id, opponent: game.players[1 - seat], rating: opponent)
                    }
                    rows[keys[seat]] = row
                }
                changed.append((game.id, before.map(RatingsPolicy.points), changes))
            }
            let listed = rows.values.sorted { ($0.board, $0.name) < ($1.board, $1.name) }.map { row in
                (rating: row, listed: row.games >= settings.topMinGames && row.deviation <= settings.topMaxDeviation
                    && ((try? store.isRegistered(row.name)) ?? false))
            }
            try store.ratingStore.replaceRatings(listed, games: changed)
            try store.commit()
            log("ratings computed again from \(games.count) rated games between people (games against the computer are no longer rated): \(rows.count) ratings, \(Int((clock.monotonic - started) * 1000)) ms")
        } catch {
            log("cannot compute the ratings again in \(store.path): \(error); they stay as they were, and the next start tries again")
            store.rollback()
        }
    }
}
