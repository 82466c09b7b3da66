import Testing
@testable import GhostStore

/// The seats of the games in progress are kept in memory (schema
/// 12: they were four partial indexes that every game wrote at its start
/// and at its end). What the caps and NAME read from them must stay what
/// SQLite finds in the games table, through games started, given their
/// networks, finished, aborted, commands and turns rolled back, and a
/// restart.
@Suite struct ActiveSeatsTests {
    static let names = ["ann", "ANN", "bob", "cy", "bot-hard"]
    static let networks = ["192.0.2.1", "192.0.2.2", "2001:db8:0:1"]

    /// Every answer as the store gives it.
    private func answers(_ store: Store, limit: Int) throws -> [String] {
        try ["clocked: \(store.gameStore.activeSeats.clockedGames)"] + Self.names.map { "\($0): \(try store.activeGameCount(player: $0, limit: limit)) \(try store.activeSeats(player: $0, limit: limit).map { "\($0.game)/\($0.seat)" })" }
            + Self.networks.map { "\($0): \(try store.activeGameCount(network: $0, limit: limit))" }
    }

    /// The same, as SQLite counts them in the games table (walking it: a test's query).
    private func counted(_ db: StoreDB, limit: Int) throws -> [String] {
        try ["clocked: \(try db.query("SELECT id FROM games WHERE status = 'active' AND clock > 0 ORDER BY id") { $0.int(0) })"] + Self.names.map { name in
            let n = try db.query("""
                SELECT (SELECT count(*) FROM (SELECT 1 FROM games WHERE status = 'active' AND player0 = ? COLLATE NOCASE LIMIT ?) AS s0)
                     + (SELECT count(*) FROM (SELECT 1 FROM games WHERE status = 'active' AND player1 = ? COLLATE NOCASE LIMIT ?) AS s1)
                """, .text(name), .of(limit), .text(name), .of(limit)) { $0.int(0) }.first ?? -1
            let seats = try db.query("""
                SELECT id, 0 FROM (SELECT id FROM games WHERE status = 'active' AND player0 = ? COLLATE NOCASE ORDER BY id LIMIT ?) AS s0
                UNION ALL
                SELECT id, 1 FROM (SELECT id FROM games WHERE status = 'active' AND player1 = ? COLLATE NOCASE ORDER BY id LIMIT ?) AS s1
                """, .text(name), .of(limit), .text(name), .of(limit)) { "\($0.int(0))/\($0.int(1))" }
            return "\(name): \(n) \(seats)"
        } + Self.networks.map { net in
            let n = try db.query("""
                SELECT (SELECT count(*) FROM (SELECT 1 FROM games WHERE status = 'active' AND net0 = ? AND net0 <> '' LIMIT ?) AS n0)
                     + (SELECT count(*) FROM (SELECT 1 FROM games WHERE status = 'active' AND net1 = ? AND net1 <> '' AND net0 <> ? LIMIT ?) AS n1)
                """, .text(net), .of(limit), .text(net), .text(net), .of(limit)) { $0.int(0) }.first ?? -1
            return "\(net): \(n)"
        }
    }

    @Test("The caps' counts, a guest's seats and the games on a clock cost no SQL, and stay what the games table holds through starts, ends, aborts, rollbacks and a restart")
    func seatsStayExact() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        var store = try openStore(dir.path)
        defer { store.close() }

        var mix: UInt64 = 7
        func next(_ n: Int) -> Int {
            mix = mix &* 6364136223846793005 &+ 1442695040888963407
            return Int((mix >> 33) % UInt64(n))
        }
        var games: [Int] = []
        var sawRollback = false
        for step in 0..<400 {
            store.beginCommand(savepoint: next(3) != 0)
            switch next(11) {
            case 0...4:
                let players = [Self.names[next(Self.names.count)], Self.names[next(Self.names.count)]]
                let nets = [next(4) == 0 ? "" : Self.networks[next(Self.networks.count)], Self.networks[next(Self.networks.count)]]
                let game = NewGame(kind: "ghost", lang: "en", players: players, tokens: freshTokens(), clock: next(3) == 0 ? 30 : 0)
                games.append(next(3) == 0 ? try store.createGame(game, now: t0 + step)
                                          : try store.createGame(game, networks: nets, now: t0 + step))
            case 5 where !games.isEmpty:
                try store.gameStore.noteStarted(game: games[next(games.count)],
                                      networks: [Self.networks[next(Self.networks.count)], next(2) == 0 ? "" : Self.networks[0]], now: t0 + step)
            case 6...7 where !games.isEmpty:
                try store.finishGame(game: games[next(games.count)], winner: "bot-hard", loser: "cy", reason: "word", finalState: "",
                                     board: "game", people: [], now: t0 + step)
            case 8 where !games.isEmpty:
                try store.abortGame(game: games[next(games.count)], why: "untouched", now: t0 + step)
            default:
                break
            }
            if next(8) == 0 {
                if store.rollbackCommand() { sawRollback = true } else { store.rollback() }
            } else {
                try store.endCommand()
            }
            if next(12) == 0 { store.rollback() } else if next(4) == 0 { try store.commit() }
            // A game's networks (the scoring policy reads them at its end): from memory while in progress.
            for game in games.suffix(3) {
                let stored = try store.db.query("SELECT net0, net1 FROM games WHERE id = ?", .of(game)) { [$0.text(0), $0.text(1)] }.first ?? []
                #expect(try store.gameNetworks(game: game) == stored, "step \(step), game \(game)")
            }
            for limit in [10, 2] {
                store.db.statementLog = []
                let kept = try answers(store, limit: limit)
                #expect(store.db.statementLog == [], "step \(step)")
                store.db.statementLog = nil
                #expect(kept == (try counted(store.db, limit: limit)), "step \(step), limit \(limit)")
            }
        }
        #expect(sawRollback)
        try store.commit()
        let before = try answers(store, limit: 10)
        #expect(try counted(store.db, limit: 10).contains { !$0.hasSuffix(": 0 []") && !$0.hasSuffix(": 0") })
        // A restart reads them again from the games in progress.
        store.close()
        store = try openStore(dir.path)
        #expect(try answers(store, limit: 10) == before)
        #expect(try store.clockedGames().map(\.id) == store.gameStore.activeSeats.clockedGames)
        #expect(!store.gameStore.activeSeats.clockedGames.isEmpty)
        #expect(try answers(store, limit: 1) == (try counted(store.db, limit: 1)))
    }

    @Test("A name's games per seat stay in increasing order as they go from none to one (held inline) to several and back, added in any order")
    func seatGamesInOrder() {
        var seats = ActiveSeats()
        func game(_ p0: String, _ p1: String) -> ActiveSeats.Seats { .init(player0: p0, player1: p1, net0: "192.0.2.1", net1: "") }
        func answer(_ name: String) -> String {
            "\(seats.count(player: name, limit: 10)) \(seats.seats(player: name, limit: 10).map { "\($0.game)/\($0.seat)" })"
        }
        seats.add(9, game("Ann", "bob"))
        #expect(answer("ann") == "1 [\"9/0\"]")
        seats.add(4, game("ann", "cy"))
        #expect(answer("ANN") == "2 [\"4/0\", \"9/0\"]")
        seats.add(6, game("bob", "ann"))
        seats.add(2, game("ann", "ann"))
        #expect(answer("ann") == "5 [\"2/0\", \"4/0\", \"9/0\", \"2/1\", \"6/1\"]")
        #expect(seats.seats(player: "ann", limit: 1).map(\.game) == [2, 2])
        #expect(seats.count(network: "192.0.2.1", limit: 10) == 4)
        seats.remove(4)
        #expect(answer("ann") == "4 [\"2/0\", \"9/0\", \"2/1\", \"6/1\"]")
        seats.remove(2)
        #expect(answer("ann") == "2 [\"9/0\", \"6/1\"]")
        seats.add(1, game("ann", "cy"))
        #expect(answer("ann") == "3 [\"1/0\", \"9/0\", \"6/1\"]")
        seats.remove(9)
        seats.remove(1)
        seats.remove(6)
        #expect(answer("ann") == "0 []")
        #expect(seats.count(network: "192.0.2.1", limit: 10) == 0)
        #expect(seats.games.isEmpty)
    }
}
