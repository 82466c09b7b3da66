import Foundation
import Testing
@testable import GhostStore

/// A measurement, not a test (it asserts nothing about time, and is skipped
/// unless asked for): builds a database of `GHOSTD_STORE_SCALE` names and as
/// many finished games through the Store API in one transaction, then times
/// the look-ups behind RESUME of an unknown token, NAMES 100, NAMES
/// prefix=a 100 and SCORES 100, as they are and as they were before schema 8
/// (its indexes dropped, the old statements), and the cost of opening the
/// database (`PRAGMA quick_check` included). BENCHMARKS.md has the figures:
///
///     GHOSTD_STORE_SCALE=1000000 swift test --filter StoreScaleBench
///
/// `GHOSTD_STORE_SCALE_DIR=<folder>` builds it there and keeps it (to start
/// a ghostd on it); by default it is a temporary folder, removed after.
@Suite struct StoreScaleBench {
    static let scale = ProcessInfo.processInfo.environment["GHOSTD_STORE_SCALE"].flatMap { Int($0) } ?? 0

    /// SplitMix64: the same database at each run.
    struct Mix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")

    /// Builds the database: `count` names (6–12 of a–z 0–9, first letters
    /// spread evenly; used at t0 + i), `count` finished games between two of
    /// them (random tokens; the first wins) on the `game` board.
    static func build(directory: String, count: Int) throws {
        let store = try Store(directory: directory, durability: .normal)
        defer { store.close() }
        var mix = Mix(state: 24)
        var names: [String] = []
        names.reserveCapacity(count)
        var taken = Set<String>()
        while names.count < count {
            let length = 6 + mix.below(7)
            let name = String((0..<length).map { _ in alphabet[mix.below(alphabet.count)] })
            guard taken.insert(name).inserted else { continue }
            names.append(try store.registerName(name, now: t0 + names.count))
        }
        func token(_ mix: inout Mix) -> String { String(format: "%016llx%016llx", mix.next(), mix.next()) }
        for g in 0..<count {
            let a = names[mix.below(count)]
            var b = names[mix.below(count)]
            while b == a { b = names[mix.below(count)] }
            let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: [a, b], tokens: [token(&mix), token(&mix)]),
                                          now: t0 + g)
            try store.finishGame(game: id, winner: a, loser: b, reason: "word", finalState: "fragment=pear", board: "game", now: t0 + g)
        }
        try store.commit()
    }

    /// The median of `runs` timings of `body`, in milliseconds.
    static func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[runs / 2]
    }

    static func format(_ ms: Double) -> String { String(format: "%.3f ms", ms) }

    @Test(.enabled(if: StoreScaleBench.scale > 0))
    func lookUpsOnALargeDatabase() throws {
        let keep = ProcessInfo.processInfo.environment["GHOSTD_STORE_SCALE_DIR"]
        let temp = try TempDir("ghostd-scale")
        defer { temp.remove() }
        let directory = keep ?? temp.path
        let count = Self.scale
        let path = directory + "/" + Store.fileName
        if !FileManager.default.fileExists(atPath: path) {
            let start = Date()
            try Self.build(directory: directory, count: count)
            print("scale: built \(count) names and \(count) finished games in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print("scale: database \(size / 1_048_576) MiB")

        // Opening: the whole Store init, and quick_check alone.
        let open = try Self.median(3) { try Store(directory: directory).close() }
        let raw = try SQLiteDatabase(path: path, create: false)
        let check = try Self.median(3) { _ = try raw.query("PRAGMA quick_check(3)") { $0.text(0) } }
        print("scale: Store open \(Self.format(open)), of which PRAGMA quick_check \(Self.format(check))")

        // After: the store's own calls.
        let store = try Store(directory: directory)
        var mix = Mix(state: 99)
        let resume = try Self.median(21) { () throws -> Void in
            let found = try store.finishedGame(token: String(format: "%016llx%016llx", mix.next(), mix.next()))
            #expect(found == nil)
        }
        let names = try Self.median(21) { () throws -> Void in let n = try store.recentNames(prefix: nil, limit: 100); #expect(n.names.count == 100) }
        let prefixed = try Self.median(21) { () throws -> Void in let n = try store.recentNames(prefix: "a", limit: 100); #expect(n.names.count == 100) }
        let scores = try Self.median(21) { () throws -> Void in let n = try store.scoreStore.scores(board: "game", limit: 100); #expect(n.count == 100) }
        store.close()
        print("scale: after:  RESUME unknown \(Self.format(resume)), NAMES 100 \(Self.format(names)), NAMES prefix=a 100 \(Self.format(prefixed)), SCORES 100 \(Self.format(scores))")

        // Before: schema 7's indexes and main's statements, on the same rows.
        try raw.execute("DROP INDEX games_token0; DROP INDEX games_token1; DROP INDEX players_recent; DROP INDEX players_prefix; DROP INDEX scores_rank; CREATE INDEX scores_board ON scores(board, wins DESC)")
        defer {
            try? raw.execute("""
                DROP INDEX scores_board;
                CREATE UNIQUE INDEX games_token0 ON games(token0) WHERE token0 <> '' AND token0 < '~';
                CREATE UNIQUE INDEX games_token1 ON games(token1) WHERE token1 <> '' AND token1 < '~';
                CREATE INDEX players_recent ON players(last_seen DESC, name);
                CREATE INDEX players_prefix ON players(name, last_seen);
                CREATE INDEX scores_rank ON scores(board, wins DESC, player);
                """)
            raw.close()
        }
        let oldResume = try Self.median(5) {
            let t = String(format: "%016llx%016llx", mix.next(), mix.next())
            _ = try raw.query("""
                SELECT id, winner, loser, reason, coalesce(final_state, ''), coalesce(ended_at, 0) FROM games
                WHERE status = 'over' AND (token0 = ? OR token1 = ?) LIMIT 1
                """, .text(t), .text(t)) { $0.int(0) }
        }
        let oldNames = "SELECT name FROM players WHERE name LIKE ? ESCAPE '\\' ORDER BY last_seen DESC, name COLLATE NOCASE LIMIT ?"
        let oldAll = try Self.median(5) { _ = try raw.query(oldNames, .text("%"), .of(101)) { $0.text(0) } }
        let oldPrefixed = try Self.median(5) { _ = try raw.query(oldNames, .text("a%"), .of(101)) { $0.text(0) } }
        let oldScores = try Self.median(5) {
            _ = try raw.query("""
                SELECT rank() OVER (ORDER BY s.wins DESC), p.name, s.wins, s.played
                FROM scores s JOIN players p ON p.name = s.player
                WHERE s.board = ? AND s.played > 0
                ORDER BY s.wins DESC, p.name COLLATE NOCASE LIMIT ?
                """, .text("game"), .of(100)) { $0.text(1) }
        }
        print("scale: before: RESUME unknown \(Self.format(oldResume)), NAMES 100 \(Self.format(oldAll)), NAMES prefix=a 100 \(Self.format(oldPrefixed)), SCORES 100 \(Self.format(oldScores))")
    }
}
