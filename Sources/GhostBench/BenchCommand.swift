import Foundation
import GhostCore
import OptionKit
import GameKit
import WordLists

/// `ghost-bench`: benchmarks that are not tests. Each mode prints what it
/// measured; nothing here asserts on time.
public enum BenchCommand {
    public enum Mode: String, CaseIterable, Sendable {
        case solve, bots, hangman, ping, play
        case playHangman = "play-hangman"
        case hold
        case watch
        case fixture, attack, abandon
        case wsPing = "ws-ping"
        case wsHold = "ws-hold"

        /// The options the mode takes, in the order help shows them.
        var optionNames: [String] {
            switch self {
            case .solve: ["--dictionaries", "--runs"]
            case .bots: ["--dictionaries", "--lang", "--games", "--seed"]
            case .hangman: ["--dictionaries", "--games", "--seed"]
            case .ping: ["--host", "--port", "--connections", "--seconds", "--warmup", "--stats"]
            case .play: ["--host", "--port", "--connections", "--seconds", "--warmup", "--bad-share", "--dictionaries", "--lang", "--stats", "--record"]
            case .playHangman: ["--host", "--port", "--connections", "--seconds", "--warmup", "--bad-share", "--lang", "--hangman-mode", "--stats", "--record"]
            case .hold: ["--host", "--port", "--connections", "--seconds", "--stats"]
            case .watch: ["--host", "--port", "--players", "--watchers", "--watch-games", "--seconds", "--warmup", "--dictionaries", "--lang", "--stats"]
            case .fixture: ["--data", "--names", "--games", "--active", "--seed", "--social", "--stars", "--heavy"]
            case .attack: ["--host", "--port", "--seconds", "--rounds", "--lookups", "--floods", "--addresses", "--probe-interval",
                           "--web-port", "--ws-floods", "--slowloris", "--chatters", "--chat-bot", "--inviters", "--stars", "--fans", "--social",
                           "--star-session", "--listers"]
            case .abandon: ["--host", "--port", "--games", "--names", "--addresses", "--connections"]
            case .wsPing: ["--host", "--port", "--web-port", "--pings", "--rounds", "--pid"]
            case .wsHold: ["--host", "--port", "--web-port", "--transport", "--connections", "--addresses", "--seconds"]
            }
        }

        /// Spreads its connections over a list of ports (--port 7001,7002).
        var spreads: Bool { [.ping, .play, .playHangman, .hold, .watch].contains(self) }

        var summary: String {
            switch self {
            case .solve:
                "Solve the whole game for every word list: time per list (best of N runs), trie size, who wins from the empty fragment, winning first letters."
            case .bots:
                "Play every pair of players (random, easy, medium, hard) against each other, N games per pairing and per starting side; print win rates."
            case .hangman:
                "The computer guesser against the fair and evil computers, every language, lengths 4-12, 6 and 8 misses: win rate and average mistakes (N fair games a case)."
            case .ping:
                "PING on N connections, one request in flight each, against any line server (ghostd answers OK PING, redis-server +PONG): replies per second and round-trip latency percentiles."
            case .play:
                "N connections (N/2 games via SEEK) play random letters that keep the game alive as fast as the server answers, with a share F of turns followed by a bad line or an out-of-turn letter: acknowledged letters per second and letter round-trip latency."
            case .playHangman:
                "N connections each play Hangman against the computer (NEW game=hangman, length any, 8 misses), guessing letters as fast as the server answers in a fixed order (e s i a r n t o l c d u …) and starting a new game at each OVER, with a share F of guesses followed by a bad line or the same letter again: acknowledged guesses per second and guess round-trip latency."
            case .hold:
                "Open N connections and PING each once a second until SECONDS have passed."
            case .watch:
                "P connections (P/2 matches via SEEK rounds=ghost) play random letters that keep the game alive as fast as the server answers, restarting each round at three letters (RESTART, ACCEPT) so that a game lasts, while W more connections (in this process, or with --players 0 in another) watch them (GAMES, then WATCH, spread over the games, watching the next one when a match ends) and read everything: the players' acknowledged letters per second and letter round-trip latency, and what the watchers received. Run it with --watchers 0 and 1000 in turn."
            case .fixture:
                "Build a large data folder through ghostd's store (no SQL of its own, so it follows the schema): N names, N finished games (Ghost and Hangman, between people and against the computer, two random 128-bit resume tokens each, scores spread as on a real server) and N adjourned Ghost games in progress, in a few large transactions. The folder must hold no database yet."
            case .attack:
                "Rounds of two phases: a probe from 127.0.0.2 PINGs every --probe-interval on one connection, alone, then while L connections loop GAMES 100, NAMES 100 and RESUME <random token> and F connections write blank lines flat out and play evil Dutch 10-letter Hangman (RESTART after 5 guesses); attackers reconnect when dropped. With --ws-floods or --slowloris, a third phase attacks the web port (--web-port) instead, from addresses of its own (127.0.0.4; with --addresses, 127.0.1.10 …): --ws-floods WebSocket connections do what the floods do (a blank line is an empty text message) and --slowloris connections send an HTTP request's head a byte every 50 ms without ever ending it, connecting again when dropped; a second probe then PINGs over a WebSocket from 127.0.0.3 in every phase. Prints the probes' round trips (p50, p90, p99, max), each attacker class's replies and how its connections ended (BYE codes, close codes, HTTP statuses), the per-round ratio and the medians."
            case .abandon:
                "N sessions, W at once, each NAME x<i>, LANG nl, NEW game=hangman mode=evil length=10, LETTER q, QUIT: games left behind. Names x0 … x<names-1>, each always from the same one of --addresses source addresses (127.0.0.10 …). Counts the games left behind and the refusals (ERR and BYE codes)."
            case .wsPing:
                "PING round trips in lock step over a WebSocket (the web port's /ws) against plain TCP, one connection each, in --rounds alternating blocks of the same number of PINGs: p50, p99 and mean of each, their ratios, the per-block ratio of the means and its median; with --pid, ghostd's CPU time per PING from /proc (run ghostd with --max-commands-per-second 0)."
            case .wsHold:
                "Open N connections over a WebSocket or plain TCP (--transport), each reading HELLO and answering a PING, hold them --seconds, and report ghostd's resident memory (STATS rss_bytes, on a connection from 127.0.0.2, before and once settled) per connection held; then PING each again. Run it on a fresh ghostd for each transport, with the connection limits lifted."
            }
        }

        var table: OptionTable<Settings> { Settings.table.only(optionNames) }
    }

    /// Every mode's settings; each mode reads the ones it takes.
    public struct Settings: Equatable, Sendable {
        public var dictionaries = LoadBench.Settings().dictionaries
        public var runs = 5
        public var lang = LoadBench.Settings().lang
        public var games = 1000
        public var seed: UInt64 = 42
        public var host = LoadBench.Settings().host
        /// --port: one port, or for the load modes a list that the connections spread over.
        public var ports = LoadBench.Settings().ports
        /// The first port: the only one of the modes that take one, and STATS's.
        public var port: Int {
            get { ports.first ?? 7777 }
            set { ports = [newValue] }
        }
        public var connections = LoadBench.Settings().connections
        public var seconds = LoadBench.Settings().seconds
        public var warmup = LoadBench.Settings().warmup
        public var badShare = LoadBench.Settings().badShare
        public var hangmanMode = LoadBench.Settings().hangmanMode
        public var stats = false
        public var record = ""
        public var watchers = 1000
        public var players = 2
        public var watchGames = 100
        public var data = ""
        public var names = 200_000
        public var active = 0
        public var rounds = AttackBench.Settings().rounds
        public var lookups = AttackBench.Settings().lookups
        public var floods = AttackBench.Settings().floods
        public var addresses = 1
        public var probeInterval = AttackBench.Settings().probeInterval
        public var webPort = WebSocketPingBench.Settings().webPort
        public var wsFloods = 0
        public var slowloris = 0
        public var chatters = 0
        public var chatBot = false
        public var inviters = 0
        public var stars = 0
        public var fans = 0
        public var social = 0
        public var starSession = AttackBench.Settings().starSession
        public var heavy = 0
        public var listers = 0
        public var pings = WebSocketPingBench.Settings().pings
        public var pid = 0
        public var transport = "websocket"

        public init() {}

        static var table: OptionTable<Settings> { OptionTable([
            .value("--dictionaries", "DIR", "folder of word lists; each xx.txt offers language xx", .text("a folder"), \.dictionaries),
            .value("--runs", "N", "solve: runs per list; the best is shown", .integer(1...1_000_000), \.runs),
            .value("--lang", "CODE", "bots, play: the word list (xx of xx.txt) to play with; play-hangman: the language of the games (sent with LANG)",
                   .text("a language code"), \.lang),
            .value("--games", "N", "bots: games per pairing and per starting side; hangman: fair games a case; fixture: finished games; abandon: sessions (games left behind)",
                   .integer(1...100_000_000), \.games),
            .value("--data", "DIR", "fixture: the data folder to build (created if needed; must hold no database)", .text("a folder"), \.data),
            .value("--names", "N", "fixture: names; abandon: names the sessions take in turn (x0, x1 …)", .integer(1...100_000_000), \.names),
            .value("--active", "N", "fixture: adjourned Ghost games in progress (what GAMES lists)", .integer(0...10_000_000), \.active),
            .value("--rounds", "N", "attack: rounds of probe alone, then probe under attack; ws-ping: blocks of each transport, alternating", .integer(1...1000), \.rounds),
            .value("--lookups", "N", "attack: connections looping GAMES 100, NAMES 100, RESUME <random token>", .integer(0...10_000), \.lookups),
            .value("--floods", "N", "attack: connections writing blank lines flat out and playing evil Hangman", .integer(0...10_000), \.floods),
            .value("--addresses", "N", "attack: source addresses the attackers are spread over (1: 127.0.0.1; more: 127.0.0.10 …); abandon: the names' source addresses; ws-hold: the connections'",
                   .integer(1...240), \.addresses),
            .value("--probe-interval", "SECONDS", "attack: time between two probe PINGs (ghostd's default limit of 50 commands a second closes a probe faster than 0.02)",
                   .number(0.001...10), \.probeInterval),
            .value("--web-port", "PORT", "ws-ping, ws-hold, attack: ghostd's web port (--web-port), whose /ws carries the protocol over a WebSocket",
                   .integer(1...65535), \.webPort),
            .value("--ws-floods", "N", "attack: WebSocket connections to the web port that do what --floods do (a third phase)", .integer(0...10_000), \.wsFloods),
            .value("--slowloris", "N", "attack: connections to the web port that send a request's head a byte at a time and never end it (a third phase)",
                   .integer(0...10_000), \.slowloris),
            .value("--chatters", "N", "attack: players in games writing SAY lines flat out (repeats, format characters, long lines), in pairs by NEW/JOIN",
                   .integer(0...10_000), \.chatters),
            .flag("--chat-bot", "attack: the chatters play the computer (NEW bot=easy) instead of each other", \.chatBot),
            .value("--inviters", "N", "attack: connections looping INVITE <victim> / LEAVE at one connected name (which DECLINEs)", .integer(0...10_000), \.inviters),
            .value("--stars", "N", "fixture: registered names s0 … followed by every other social name; attack: those that log in, FOLLOW name after name, ask FOLLOWING, QUIT and log in again",
                   .integer(0...1000), \.stars),
            .value("--fans", "N", "attack: followers of the stars logged in (s<stars> …), hearing ONLINE and OFFLINE", .integer(0...100_000), \.fans),
            .value("--social", "N", "fixture: registered names s0 … s<N-1> (password bench-password-47; --stars of them followed by all others); attack: the names the stars FOLLOW",
                   .integer(0...10_000_000), \.social),
            .value("--heavy", "N", "fixture: social names after the stars (s<stars> …) that follow 400 names each", .integer(0...1_000_000), \.heavy),
            .value("--listers", "N", "attack: the fixture's heavy followers (s<stars> …) logged in, looping FOLLOWING", .integer(0...100_000), \.listers),
            .value("--star-session", "N", "attack: a star's commands between two logins", .integer(1...1_000_000), \.starSession),
            .value("--pings", "N", "ws-ping: PINGs over each transport, counted (after a tenth as many, up to 2,000, not counted)", .integer(10...100_000_000), \.pings),
            .value("--pid", "PID", "ws-ping: ghostd's process id, to read its CPU time per PING from /proc (0: not read)", .integer(0...4_194_304), \.pid),
            .value("--transport", "KIND", "ws-hold: the connections held: websocket (to --web-port) or tcp (to --port)", .choice(["websocket", "tcp"]), \.transport),
            .value("--seed", "N", "bots, fixture: the random seed, for repeatable runs", .integer(0...UInt64.max), \.seed),
            .value("--host", "HOST", "the server's address", .text("a name or an address"), \.host),
            .value("--port", "PORT", "the server's TCP port; ping, play, play-hangman, hold, watch: also a comma list (7001,7002,7003), connection i going to the (i mod n)-th port, --stats asking the first",
                   .portList, \.ports),
            .value("--connections", "N", "connections to open (abandon: sessions at once)", .integer(1...1_000_000), \.connections),
            .value("--players", "N", "watch: connections that play (N/2 games); 0: watchers only, to run beside a players-only process",
                   .integer(0...1_000_000), \.players),
            .value("--watchers", "N", "watch: connections that watch the players' games", .integer(0...1_000_000), \.watchers),
            .value("--watch-games", "N", "watch: the watchers spread over the N most recent games (GAMES N; 1: all watch one game)",
                   .integer(1...100), \.watchGames),
            .value("--seconds", "SECONDS", "how long to measure (hold: how long to hold)", .number(0.1...86_400), \.seconds),
            .value("--warmup", "SECONDS", "time before measuring starts", .number(0...3600), \.warmup),
            .value("--bad-share", "F", "play: share of turns followed by a bad line or an out-of-turn letter; play-hangman: by a bad line or the same letter again",
                   .number(0...1), \.badShare),
            .value("--hangman-mode", "MODE", "play-hangman: how the computer sets: evil (keeps the largest family of words), fair (picks a word at the start) or phrase (picks a phrase)",
                   .choice(["evil", "fair", "phrase"]), \.hangmanMode),
            .value("--record", "FILE", "play, play-hangman: write every acknowledged move to FILE, a line `<game id> <ply> <letter>` each (warm-up included), to check against the database after a crash",
                   .text("a file"), \.record),
            .flag("--stats", "ping, play, play-hangman, hold: after measuring, also print the server's STATS (ghostd only)", \.stats),
            .help,
        ]) }
    }

    /// What the command line asks for.
    public enum Invocation: Equatable, Sendable {
        case help
        case run(Mode, Settings)
    }

    public static var usage: String {
        let modes = Mode.allCases.flatMap { mode in
            HelpText.pack([mode.rawValue] + mode.table.options.filter { !$0.isFlag }.map(\.synopsis),
                          width: HelpText.width).enumerated().map { i, line in (i == 0 ? "  " : "       ") + line }
                + HelpText.wrap(mode.summary, width: HelpText.width).map { "      " + $0 }
        }
        return Settings.table.help(usage: "ghost-bench <mode> [options]", about: [
            "Benchmarks that are not tests: each mode prints what it measured.",
        ], sections: [(title: "Modes:", lines: modes)], footer: [
            "Options take `--name value` or `--name=value`; a mode refuses options it",
            "does not use, and a bad value is refused with exit status 2.",
        ], defaults: Settings())
    }

    /// Parses the arguments (without the program name): a mode, then its options.
    public static func parse(_ args: [String]) -> Result<Invocation, OptionError> {
        guard let first = args.first, !first.hasPrefix("-") || first == "--help" || first == "-h" else {
            // The mode comes first.
            return .failure(OptionError(.missingArgument, subject: "mode", allowed: modesAllowed))
        }
        if ["--help", "-h", "help"].contains(first) { return .success(.help) }
        guard let mode = Mode(rawValue: first) else {
            return .failure(OptionError(.badValue(.notAChoice), subject: "mode", value: first, allowed: modesAllowed))
        }
        return mode.table.parse(Array(args.dropFirst()), into: Settings()).flatMap { parsed in
            switch parsed {
            case .run(let settings) where settings.ports.count > 1 && !mode.spreads:
                .failure(OptionError(.badValue(.invalid), subject: "--port", value: settings.ports.map(String.init).joined(separator: ","),
                                     allowed: "one port (a list: ping, play, play-hangman, hold and watch)"))
            case .run(let settings): .success(.run(mode, settings))
            case .help, .version: .success(.help)
            }
        }
    }

    static var modesAllowed: String { listed(Mode.allCases.map(\.rawValue)) }

    public static func main(_ args: [String]) -> Int32 {
        // `--generate-manual`, `--generate-completion bash|zsh`: hidden, for scripts/generate-docs.sh.
        if let text = BenchManual.generated(args) {
            print(text, terminator: "")
            return 0
        }
        let mode: Mode, options: Settings
        switch parse(args) {
        case .success(.help):
            print(usage)
            return 0
        case .success(.run(let m, let s)):
            (mode, options) = (m, s)
        case .failure(let e):
            let program = args.first.flatMap(Mode.init(rawValue:)).map { "ghost-bench \($0.rawValue)" } ?? "ghost-bench"
            printError("\(program): \(e) (see ghost-bench --help)")
            return 2
        }
        do {
            switch mode {
            case .solve:
                try SolveBench.run(folder: options.dictionaries, runs: options.runs)
            case .bots:
                try BotsBench.run(folder: options.dictionaries, lang: options.lang, games: options.games, seed: options.seed)
            case .hangman:
                try HangmanBench.run(folder: options.dictionaries, games: options.games, seed: options.seed)
            case .fixture:
                guard !options.data.isEmpty else { throw BenchError("fixture: give the data folder with --data DIR") }
                if options.names > 0 || options.games > 0 || options.active > 0 {
                    let report = try Fixture.build(directory: options.data, names: options.names, games: options.games,
                                                   active: options.active, seed: options.seed) { say("  " + $0) }
                    print(report)
                }
                if options.social > 0 {
                    let r = try Fixture.buildSocial(directory: options.data, names: options.social, stars: options.stars, heavy: options.heavy) { say("  " + $0) }
                    print(String(format: "fixture: %d registered names s0-s%d (password %@), %d follows, in %.1f s",
                                 r.names, r.names - 1, Fixture.socialPassword, r.follows, r.seconds))
                }
            case .attack:
                var st = AttackBench.Settings()
                st.host = options.host
                st.port = options.port
                st.seconds = options.seconds
                st.rounds = options.rounds
                st.lookups = options.lookups
                st.floods = options.floods
                st.addresses = options.addresses
                st.probeInterval = options.probeInterval
                st.chatters = options.chatters
                st.chatBot = options.chatBot
                st.inviters = options.inviters
                st.stars = options.stars
                st.fans = options.fans
                if options.social > 0 { st.socialNames = options.social }
                st.starSession = options.starSession
                st.listers = options.listers
                if options.wsFloods + options.slowloris > 0 {
                    st.webPort = options.webPort
                    st.wsFloods = options.wsFloods
                    st.slowloris = options.slowloris
                }
                say(try AttackBench(settings: st).run(progress: say))
            case .wsPing:
                var st = WebSocketPingBench.Settings()
                st.host = options.host
                st.port = options.port
                st.webPort = options.webPort
                st.pings = options.pings
                st.rounds = options.rounds
                st.pid = options.pid
                say(try WebSocketPingBench.run(st, progress: say))
            case .wsHold:
                var st = HoldBench.Settings()
                st.host = options.host
                st.port = options.port
                st.webPort = options.webPort
                st.connections = options.connections
                st.websocket = options.transport == "websocket"
                st.addresses = options.addresses
                st.seconds = options.seconds
                say(try HoldBench.run(st, progress: say))
            case .abandon:
                var st = AbandonBench.Settings()
                st.host = options.host
                st.port = options.port
                st.games = options.games
                st.names = options.names
                st.addresses = options.addresses
                st.workers = options.connections
                print(AbandonBench.run(st))
            case .ping, .play, .playHangman, .hold, .watch:
                var st = LoadBench.Settings()
                st.host = options.host
                st.ports = options.ports
                st.connections = mode == .watch ? options.players : options.connections
                st.seconds = options.seconds
                st.warmup = mode == .hold ? 0 : options.warmup
                st.badShare = mode == .watch ? 0 : options.badShare
                st.watchers = mode == .watch ? options.watchers : 0
                st.watchGames = options.watchGames
                st.dictionaries = options.dictionaries
                st.lang = options.lang
                st.hangmanMode = options.hangmanMode
                st.hold = mode == .hold
                st.record = options.record.isEmpty ? nil : options.record
                let load: LoadBench.Mode = switch mode {
                case .play: .play
                case .playHangman: .hangman
                case .watch: .watch
                default: .ping
                }
                print(try LoadBench(mode: load, settings: st).run())
                if options.stats { print(try LoadBench.serverStats(host: options.host, port: options.port)) }
            }
        } catch {
            printError("ghost-bench: \(error)")
            return 1
        }
        return 0
    }
}

/// Prints a line at once, also into a pipe (the long modes report as they go).
func say(_ text: String) {
    print(text)
    fflush(nil)
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

enum SolveBench {
    static func run(folder: String, runs: Int) throws {
        let dictionaries = try Dictionaries.load(folder: folder)
        for lang in dictionaries.languages {
            guard let words = dictionaries[lang] else { continue }
            let rules = GhostRules(words: words)
            var best = Double.infinity
            var solver = Solver(rules: rules)
            for _ in 0..<max(1, runs) {
                let t0 = now()
                solver = Solver(rules: rules)
                best = min(best, now() - t0)
            }
            let first = solver.winningLetters("").map(\.description).joined(separator: ",")
            let winner = solver.isWinning("") ? "the first player" : "the second player"
            let ms = String(format: "%.1f", best * 1000)
            print("solve \(lang): \(words.wordCount) words, \(words.nodes.count) trie nodes, best of \(runs): \(ms) ms; \(winner) wins; winning first letters: \(first.isEmpty ? "none" : first)")
        }
    }
}

typealias SeededGenerator = SplitMix64

enum BotsBench {
    enum Player: CustomStringConvertible {
        case random
        case bot(BotLevel)
        var description: String {
            switch self {
            case .random: return "random"
            case .bot(let l): return l.rawValue
            }
        }
    }

    static func run(folder: String, lang: String, games: Int, seed: UInt64) throws {
        let dictionaries = try Dictionaries.load(folder: folder)
        guard let words = dictionaries[lang] else {
            throw Dictionaries.LoadError.noLanguages("\(folder) (no \(lang).txt)")
        }
        let rules = GhostRules(words: words)
        let solver = Solver(rules: rules)
        var rng = SeededGenerator(seed: seed)
        let players: [Player] = [.random, .bot(.easy), .bot(.medium), .bot(.hard)]
        print("bots \(lang): \(games) games per pairing from each side (\(2 * games) in all), seed \(seed)")
        print("row's win rate against column (both starting sides together):")
        print("          " + players.map { $0.description.padding(toLength: 9, withPad: " ", startingAt: 0) }.joined())
        for a in players {
            var row = a.description.padding(toLength: 10, withPad: " ", startingAt: 0)
            for b in players {
                var wins = 0
                for g in 0..<(2 * games) {
                    let aFirst = g % 2 == 0
                    let loser = play(first: aFirst ? a : b, second: aFirst ? b : a, rules: rules, solver: solver, rng: &rng)
                    let aLost = aFirst ? loser == 0 : loser == 1
                    if !aLost { wins += 1 }
                }
                row += String(format: "%5.1f%%   ", 100 * Double(wins) / Double(2 * games))
            }
            print(row)
        }
    }

    /// Plays one game; returns the losing seat.
    static func play(first: Player, second: Player, rules: GhostRules, solver: Solver,
                     rng: inout SeededGenerator) -> Int {
        var game = PlainGhost(rules: rules)
        let seats = [first, second]
        while game.outcome == nil {
            let letter: Letter
            switch seats[game.toMove] {
            case .random: letter = Letter.all.randomElement(using: &rng) ?? Letter.all[0]
            case .bot(let level): letter = Bot(level: level, solver: solver).choose(in: game, using: &rng)
            }
            do { try game.play(letter, by: game.toMove) } catch { break }
        }
        return game.outcome?.loser ?? 0
    }
}

extension Value where T == [Int] {
    /// `7001` or `7001,7002,7003`: ports from 1 to 65535, at most 64, each
    /// refused as a lone port would be.
    static var portList: Value<[Int]> {
        let one = Value<Int>.integer(1...65535)
        return Value(allowed: "a port from 1 to 65535, or a comma list of up to 64", show: { $0.map(String.init).joined(separator: ",") }) { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard parts.count <= 64 else { return .failure(.outOfRange) }
            var ports: [Int] = []
            for part in parts {
                switch one.read(part) {
                case .success(let port): ports.append(port)
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(ports)
        }
    }
}
