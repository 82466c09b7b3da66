import GhostCore
import GhostStore
#if canImport(Glibc)
import Glibc
import GameKit
import WordLists
#endif

/// `ghost-bench fixture`: a large data folder for the benchmarks and the
/// end-to-end tests of a large server, built through `Store`'s own
/// API (`registerName`, `createGame`, `finishGame`, `recordHeadToHead`,
/// `recordBestGame`), never with SQL of its own, so that it stays valid
/// whatever schema the store migrates to. Writes go in a few large
/// transactions. The same seed builds the same names, games and tokens.
///
/// What it holds:
/// - `names` names (`<syllables><n>`, 4 to 16 characters), last used at
///   times spread over the past year;
/// - `games` finished games, each with two seats and two random 128-bit
///   resume tokens: 40% Ghost between two people (one in six a match of
///   three rounds), 20% Ghost against the computer (easy, medium or hard),
///   30% Hangman against the computer (evil, fair or phrase; the solved ones
///   on their best-games list), 10% Hangman duels. Who plays is skewed
///   (a few names play much, most little), so scores spread as on a real
///   server;
/// - `active` games in progress: Ghost between two of the names, in
///   English, adjourned (nobody connected), two letters played, started
///   now; they are what `GAMES` lists.
///
/// The Hangman words are random letters, not words of a list: the fixture
/// needs no dictionaries.
public enum Fixture {
    public struct Report: Sendable, CustomStringConvertible {
        public var names = 0
        public var games = 0
        public var active = 0
        public var seconds = 0.0
        public var bytes = 0
        public var path = ""
        public var description: String {
            String(format: "fixture: %d names, %d finished games, %d games in progress in %.1f s; %@ (%.0f MB)",
                   names, games, active, seconds, path, Double(bytes) / 1e6)
        }
    }

    /// Rows written between two commits.
    static let batch = 50_000
    /// SQLite's page cache while the fixture is built (`Store`'s `cacheKiB`).
    static let bulkCacheKiB = 64 * 1024

    /// Builds the fixture in `directory` (created if needed), which must not
    /// hold a database yet. `progress` is told after each commit.
    public static func build(directory: String, names: Int, games: Int, active: Int = 0, seed: UInt64 = 42,
                             progress: ((String) -> Void)? = nil) throws -> Report {
        let t0 = now()
        let file = (directory.hasSuffix("/") ? directory : directory + "/") + Store.fileName
        if access(file, F_OK) == 0 { throw BenchError("\(file) exists: the fixture is built in a data folder without a database") }
        guard names >= 2 || (games == 0 && active == 0) else { throw BenchError("games need at least 2 names") }
        let store = try Store(directory: directory, durability: .normal, cacheKiB: bulkCacheKiB)
        defer { store.close() }
        var rng = SplitMix64(seed: seed)
        let wall = Int(time(nil))
        let year = 365 * 24 * 3600
        var written = 0
        func counted(_ rows: Int = 1) throws {
            written += rows
            if written >= batch {
                try store.commit()
                written = 0
            }
        }

        // Names.
        var all: [String] = []
        all.reserveCapacity(names)
        for i in 0..<names {
            let name = Self.name(i, rng: &rng)
            all.append(try store.registerName(name, now: wall - Int.random(in: 0..<year, using: &rng)))
            try counted()
        }
        try store.commit()
        progress?(String(format: "%d names in %.1f s", names, now() - t0))

        // A name, most often one of the first ones: u² spreads the games as
        // on a server where a few play much and most little.
        func pick(_ rng: inout SplitMix64) -> String {
            let u = Double.random(in: 0..<1, using: &rng)
            return all[min(all.count - 1, Int(Double(all.count) * u * u))]
        }
        func two(_ rng: inout SplitMix64) -> (String, String) {
            let a = pick(&rng)
            var b = pick(&rng)
            while b.lowercased() == a.lowercased() { b = all[Int.random(in: 0..<all.count, using: &rng)] }
            return (a, b)
        }

        // Finished games.
        for _ in 0..<games {
            let started = wall - Int.random(in: 0..<year, using: &rng)
            let ended = started + Int.random(in: 20...1800, using: &rng)
            let tokens = [token(&rng), token(&rng)]
            let lang = Int.random(in: 0..<10, using: &rng) < 7 ? "en" : "nl"
            let roll = Int.random(in: 0..<100, using: &rng)
            if roll < 40 {
                // Ghost, two people; one in six a match of three rounds.
                let (a, b) = two(&rng)
                let match = Int.random(in: 0..<6, using: &rng) == 0
                let id = try store.createGame(NewGame(kind: "ghost", seed: rng.next(), lang: lang, players: [a, b], tokens: tokens,
                                                      rounds: match ? 3 : 1), now: started)
                let aWins = Bool.random(using: &rng)
                let reason = ["word", "word", "dead", "challenge-failed", "bluff", "left", "abandoned"].randomElement(using: &rng) ?? "word"
                try store.finishGame(game: id, winner: aWins ? a : b, loser: aWins ? b : a, reason: reason,
                                     finalState: "fragment=" + letters(Int.random(in: 3...9, using: &rng), &rng),
                                     losses: match ? (aWins ? [Int.random(in: 0...2, using: &rng), 3] : [3, Int.random(in: 0...2, using: &rng)]) : nil,
                                     board: match ? "match" : "game", now: ended)
                try store.scoreStore.recordHeadToHead(kind: "ghost", winner: aWins ? a : b, loser: aWins ? b : a)
                try counted(5)
            } else if roll < 60 {
                // Ghost against the computer, the person on either seat.
                let person = pick(&rng)
                let level = ["easy", "medium", "hard"].randomElement(using: &rng) ?? "easy"
                let botFirst = Bool.random(using: &rng)
                let players = botFirst ? ["bot-" + level, person] : [person, "bot-" + level]
                let id = try store.createGame(NewGame(kind: "ghost", seed: rng.next(), lang: lang, players: players, tokens: tokens,
                                                      bots: botFirst ? [level, nil] : [nil, level]), now: started)
                let personWins = Int.random(in: 0..<100, using: &rng) < (level == "easy" ? 60 : level == "medium" ? 35 : 10)
                try store.finishGame(game: id, winner: personWins ? person : "bot-" + level, loser: personWins ? "bot-" + level : person,
                                     reason: ["word", "dead", "challenge-failed", "left"].randomElement(using: &rng) ?? "word",
                                     finalState: "fragment=" + letters(Int.random(in: 3...9, using: &rng), &rng),
                                     board: level, people: [person], now: ended)
                try counted(4)
            } else if roll < 90 {
                // Hangman against the computer, which sets (seat 0).
                let person = pick(&rng)
                let mode = ["evil", "evil", "evil", "fair", "fair", "phrase"].randomElement(using: &rng) ?? "evil"
                let length = Int.random(in: 4...14, using: &rng)
                let misses = [6, 8, 8, 8, 10].randomElement(using: &rng) ?? 8
                let id = try store.createGame(NewGame(kind: "hangman", variant: mode, settings: "length=\(length) misses=\(misses)",
                                                      seed: rng.next(), lang: lang, players: ["bot-hangman", person], tokens: tokens,
                                                      bots: ["hard", nil]), now: started)
                let word = letters(length, &rng)
                let outcome = Int.random(in: 0..<10, using: &rng)
                let mistakes = outcome < 4 ? Int.random(in: 0..<misses, using: &rng) : misses
                let reason = outcome < 4 ? "solved" : outcome < 9 ? "hanged" : "left"
                try store.finishGame(game: id, winner: reason == "solved" ? person : "bot-hangman", loser: reason == "solved" ? "bot-hangman" : person,
                                     reason: reason, finalState: "word=\(word) mistakes=\(mistakes) pattern=\(String(repeating: "_", count: length))",
                                     board: "hangman-game", people: [], now: ended)
                if reason == "solved" {
                    try store.scoreStore.recordBestGame(board: "hangman-\(mode)", game: id, name: person, key1: mistakes, key2: -length,
                                             fields: "word=\(word) mistakes=\(mistakes) misses=\(misses) mode=\(mode) lang=\(lang)", now: ended)
                }
                try counted(4)
            } else {
                // A Hangman duel: seat 0 sets the word, seat 1 guesses it.
                let (setter, guesser) = two(&rng)
                let length = Int.random(in: 4...14, using: &rng)
                let id = try store.createGame(NewGame(kind: "hangman", variant: "duel", settings: "length=any misses=8", seed: rng.next(),
                                                      lang: lang, players: [setter, guesser], tokens: tokens), now: started)
                let solved = Bool.random(using: &rng)
                try store.finishGame(game: id, winner: solved ? guesser : setter, loser: solved ? setter : guesser,
                                     reason: solved ? "solved" : "hanged",
                                     finalState: "word=\(letters(length, &rng)) mistakes=\(solved ? Int.random(in: 0..<8, using: &rng) : 8)",
                                     board: "hangman-game", people: [], now: ended)
                try store.scoreStore.recordHeadToHead(kind: "hangman", winner: solved ? guesser : setter, loser: solved ? setter : guesser)
                try counted(4)
            }
        }
        try store.commit()
        if games > 0 { progress?(String(format: "%d finished games, at %.1f s", games, now() - t0)) }

        // Games in progress, adjourned: Ghost, two people, "th" played.
        for _ in 0..<active {
            let (a, b) = two(&rng)
            let id = try store.createGame(NewGame(kind: "ghost", seed: rng.next(), lang: "en", players: [a, b],
                                                  tokens: [token(&rng), token(&rng)]), now: wall)
            try store.recordMove(game: id, round: 1, ply: 1, seat: 0, move: "t", now: wall)
            try store.recordMove(game: id, round: 1, ply: 2, seat: 1, move: "h", now: wall)
            try counted(3)
        }
        try store.commit()
        var info = stat()
        let bytes = stat(file, &info) == 0 ? Int(info.st_size) : 0
        return Report(names: names, games: games, active: active, seconds: now() - t0, bytes: bytes, path: file)
    }

    static let syllables = ["ka", "lo", "mi", "ra", "ne", "to", "su", "vi", "de", "ba", "jo", "pe", "zu", "fi", "go", "an",
                            "el", "or", "is", "un", "tam", "rik", "bel", "mar", "sol", "wen", "dor", "lin"]

    /// The `i`th name: two or three syllables, then `i` (unique, at most 16 characters).
    static func name(_ i: Int, rng: inout SplitMix64) -> String {
        var s = ""
        for _ in 0..<Int.random(in: 2...3, using: &rng) { s += syllables.randomElement(using: &rng) ?? "ka" }
        return s + String(i)
    }

    /// A resume token: 128 random bits as 32 hex digits, as ghostd made them
    /// before schema 14 (a data folder of an older release; they still work).
    static func token(_ rng: inout SplitMix64) -> String {
        let hi = rng.next(), lo = rng.next()
        return hex16(hi) + hex16(lo)
    }

    static func hex16(_ x: UInt64) -> String {
        let s = String(x, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    static func letters(_ n: Int, _ rng: inout SplitMix64) -> String {
        String((0..<n).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x61...0x7A, using: &rng))) })
    }
}

/// Registered names that follow each other, for `ghost-bench attack`'s
/// social attackers (issue #47): names `s0` … `s<names-1>`, all with the
/// password `Fixture.socialPassword` (an MD5-crypt hash: libxcrypt checks it
/// in microseconds, so that hundreds of logins measure presence, not
/// password hashing), and every name from `s<stars>` on following each of
/// the first `stars` names: each star has `names - stars` followers.
/// Through `Store`'s API (`createAccount`, `socialStore.follow`), as the
/// rest of the fixture.
extension Fixture {
    public static let socialPassword = "bench-password-47"
    /// `openssl passwd -1 -salt benchslt bench-password-47`
    static let socialHash = "$1$benchslt$FaDAyD8Zb49f9Rc9p6WcS1"

    public static func socialName(_ i: Int) -> String { "s\(i)" }

    /// Adds the social names to `directory`'s database (created if needed).
    /// `heavy`: the names after the stars (`s<stars>` …) that also follow
    /// `maxFollows` names in all (the most ghostd allows: FOLLOWING's largest answer).
    public static func buildSocial(directory: String, names: Int, stars: Int, heavy: Int = 0, maxFollows: Int = 400,
                                   progress: ((String) -> Void)? = nil) throws -> (names: Int, follows: Int, seconds: Double) {
        let t0 = now()
        let store = try Store(directory: directory, durability: .normal, cacheKiB: bulkCacheKiB)
        defer { store.close() }
        let wall = Int(time(nil))
        var written = 0, follows = 0
        func counted(_ rows: Int) throws {
            written += rows
            if written >= batch {
                try store.commit()
                written = 0
            }
        }
        for i in 0..<names {
            _ = try store.createAccount(socialName(i), hash: socialHash, now: wall - 3600)
            try counted(2)
        }
        try store.commit()
        progress?(String(format: "%d registered names in %.1f s", names, now() - t0))
        for i in stars..<max(stars, names) {
            for s in 0..<min(stars, names) {
                if try store.socialStore.follow(socialName(i), socialName(s), now: wall - 3600) { follows += 1 }
                try counted(1)
            }
        }
        // The heavy followers: each follows the stars and the next names after it, up to maxFollows in all.
        for h in stars..<min(names, stars + heavy) {
            var k = h + 1
            for _ in 0..<max(0, maxFollows - stars) {
                if k >= names { k = stars }
                if try store.socialStore.follow(socialName(h), socialName(k), now: wall - 3600) { follows += 1 }
                try counted(1)
                k += 1
            }
        }
        try store.commit()
        progress?(String(format: "%d follows in %.1f s", follows, now() - t0))
        return (names, follows, now() - t0)
    }
}
