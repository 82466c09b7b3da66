import Testing
@testable import GhostStore

/// The caps' counts of games in progress are read from SQLite once and then
/// kept in memory (issue 29: they were two statements at every NEW and
/// JOIN). They must stay what SQLite would count, through games started,
/// finished, aborted, and commands and turns rolled back.
@Suite struct ActiveGameCountsTests {
    static let names = ["ann", "ANN", "bob", "cy", "bot-hard"]
    static let networks = ["192.0.2.1", "192.0.2.2", "2001:db8:0:1"]

    /// Every count as the store answers it, and as SQLite counts it afresh.
    private func counts(_ store: Store, limit: Int = 10) throws -> (kept: [Int], counted: [Int]) {
        let ask = { () throws -> [Int] in
            try Self.names.map { try store.activeGameCount(player: $0, limit: limit) }
                + Self.networks.map { try store.activeGameCount(network: $0, limit: limit) }
        }
        let kept = try ask()
        let saved = store.activeCounts
        store.activeCounts.forgetAll()
        let counted = try ask()
        store.activeCounts = saved
        return (kept, counted)
    }

    @Test("A count asked again costs no SQL, and stays what SQLite counts through starts, ends, aborts and rollbacks")
    func countsStayExact() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path)
        defer { store.close() }
        _ = try counts(store)
        store.db.statementLog = []
        _ = try store.activeGameCount(player: "ann", limit: 10)
        _ = try store.activeGameCount(network: "192.0.2.1", limit: 10)
        #expect(store.db.statementLog == [])
        store.db.statementLog = nil

        var mix: UInt64 = 7
        func next(_ n: Int) -> Int {
            mix = mix &* 6364136223846793005 &+ 1442695040888963407
            return Int((mix >> 33) % UInt64(n))
        }
        var games: [Int] = []
        for step in 0..<300 {
            let op = next(10)
            store.beginCommand()
            switch op {
            case 0...4:
                let players = [Self.names[next(Self.names.count)], Self.names[next(Self.names.count)]]
                let nets = [next(4) == 0 ? "" : Self.networks[next(Self.networks.count)], Self.networks[next(Self.networks.count)]]
                games.append(try store.createGame(NewGame(kind: "ghost", lang: "en", players: players, tokens: freshTokens()),
                                                  networks: nets, now: t0 + step))
            case 5...6 where !games.isEmpty:
                let game = games[next(games.count)]
                try store.finishGame(game: game, winner: "bot-hard", loser: "cy", reason: "word", finalState: "",
                                     people: [], now: t0 + step)
            case 7 where !games.isEmpty:
                try store.abortGame(game: games[next(games.count)], why: "untouched", now: t0 + step)
            default:
                break
            }
            if next(8) == 0 {
                #expect(store.rollbackCommand())
            } else {
                try store.endCommand()
            }
            if next(12) == 0 { store.rollback() } else if next(4) == 0 { try store.commit() }
            let (kept, counted) = try counts(store)
            #expect(kept == counted, "step \(step)")
        }
        // Small limits: at or past one, the count is SQLite's bounded one.
        for limit in 1...3 {
            let (kept, counted) = try counts(store, limit: limit)
            #expect(kept == counted, "limit \(limit)")
        }
    }
}
