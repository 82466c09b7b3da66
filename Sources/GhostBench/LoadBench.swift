import CGhostSys
import Foundation
import GhostCore
import GameKit
import WordLists

/// The load generator: many connections on one epoll loop, each with one
/// request in flight, measuring replies per second and round-trip latency.
final class LoadBench {
    /// ping: PING round trips; play: Ghost letters in games between the
    /// connections; hangman: Hangman guesses against the computer.
    /// watch: Ghost matches between the first `connections`, watched by
    /// `watchers` more connections.
    enum Mode { case ping, play, hangman, watch }

    struct Settings {
        var host = "127.0.0.1"
        /// Connection i goes to ports[i % ports.count] (a cluster's nodes, say).
        var ports = [7777]
        var connections = 50
        var seconds = 5.0
        var warmup = 1.0
        /// play: share of turns on which a bad line or an out-of-turn letter is
        /// sent along with the real letter (hangman: a bad line or the same
        /// letter again).
        var badShare = 0.05
        var dictionaries = "./Dictionaries"
        var lang = "en"
        /// hangman: how the computer sets (`NEW game=hangman mode=…`).
        var hangmanMode = "evil"
        var seed: UInt64 = 1
        /// hold: after connecting, keep the connections and PING each once per `seconds`.
        var hold = false
        /// play, hangman: where to write every acknowledged move (`<game id> <ply> <letter>`).
        var record: String?
        /// watch: connections that watch the players' games.
        var watchers = 0
        /// watch: the watchers spread over this many of the most recent games (GAMES n).
        var watchGames = 100
    }

    final class Conn {
        let fd: Int32
        let index: Int
        var inbox: [UInt8] = []
        var outbox: [UInt8] = []
        var sentAt = 0.0
        var awaiting = 0          // final replies still due
        var name: [UInt8] = []
        var myTurn = false
        var inGame = false
        var letterPending = false
        var fragment: [UInt8] = []
        var guesses = 0           // hangman: letters of `guessOrder` guessed in this game
        var gameID: [UInt8] = []  // the id= of the game in play (for --record)
        var wantsWrite = false    // EPOLLOUT registered
        var watcher = false       // watch: this connection watches
        var liveIDs: [ArraySlice<UInt8>] = []   // watch: the ids GAMES listed
        var retryAt = 0.0         // watch: when to ask GAMES again
        init(fd: Int32, index: Int) {
            self.fd = fd
            self.index = index
        }
    }

    let mode: Mode
    let settings: Settings
    var conns: [Conn] = []
    var epfd: Int32 = -1
    var rng: SeededGenerator
    var words: WordList?
    var measuring = false
    var latencies: [Float] = []   // microseconds, while measuring
    var acked = 0                 // PING replies or acknowledged letters, while measuring
    var errors = 0                // ERR replies, while measuring
    var badSent = 0
    var gamesOver = 0             // OVER lines seen, while measuring: two per game, one per player (hangman: one)
    var gamesWon = 0              // hangman: OVER lines that name this connection the winner, while measuring
    var failures = 0
    var watchLines = 0            // lines the watchers received, while measuring
    var watchStarts = 0           // OK WATCH replies, while measuring
    var watchBytes = 0            // bytes the watchers received, while measuring
    var retrying: [Conn] = []     // watchers waiting to ask GAMES again
    /// Every acknowledged move, with --record.
    var recorded: [UInt8] = []

    init(mode: Mode, settings: Settings) {
        self.mode = mode
        self.settings = settings
        self.rng = SeededGenerator(seed: settings.seed)
    }

    func run() throws -> String {
        if mode == .play || mode == .watch {
            let dictionaries = try Dictionaries.load(folder: settings.dictionaries)
            // A missing list would quietly turn the letters random.
            guard let list = dictionaries[settings.lang] else {
                throw Dictionaries.LoadError.noLanguages("\(settings.dictionaries) (no \(settings.lang).txt)")
            }
            words = list
        }
        if mode == .hangman && !settings.lang.allSatisfy({ $0.isASCII && $0.isLetter }) {
            // It goes into a LANG line as it is.
            throw BenchError("\(settings.lang) is not a language code")
        }
        epfd = ghost_epoll_create()
        let t0 = now()
        let total = settings.connections + (mode == .watch ? settings.watchers : 0)
        for i in 0..<total {
            let port = settings.ports.isEmpty ? 7777 : settings.ports[i % settings.ports.count]
            let fd = ghost_connect(settings.host, Int32(port))
            guard fd >= 0 else {
                throw BenchError("connection \(i + 1) of \(total) (port \(port)) failed: \(String(cString: strerror(errno)))")
            }
            let c = Conn(fd: fd, index: i)
            c.watcher = i >= settings.connections
            conns.append(c)
            _ = ghost_epoll_add(epfd, fd, UInt32(GHOST_EPOLLIN), UInt64(i))
        }
        let connectTime = now() - t0
        for c in conns {
            start(c)
            flush(c)
        }
        var datas = [UInt64](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let startAt = now()
        let measureFrom = startAt + settings.warmup
        let endAt = measureFrom + settings.seconds
        var lastPing = startAt
        while true {
            let t = now()
            if !measuring && t >= measureFrom { measuring = true }
            if t >= endAt { break }
            if settings.hold && t - lastPing >= 1 {
                // Hold mode: every connection answers a PING once a second.
                lastPing = t
                for c in conns where c.awaiting == 0 {
                    sendTimed(c, "PING\r\n")
                    flush(c)
                }
            }
            if !retrying.isEmpty && retrying.contains(where: { $0.retryAt <= t }) {
                let due = retrying.filter { $0.retryAt <= t }
                retrying.removeAll { $0.retryAt <= t }
                for c in due {
                    send(c, "GAMES \(settings.watchGames)\r\n")
                    flush(c)
                }
            }
            let n = ghost_epoll_wait(epfd, &datas, &events, 256, retrying.isEmpty ? 50 : 10)
            if n < 0 { continue }
            for k in 0..<Int(n) {
                let c = conns[Int(datas[k])]
                if events[k] & UInt32(GHOST_EPOLLOUT) != 0 { flush(c) }
                guard events[k] & UInt32(GHOST_EPOLLIN | GHOST_EPOLLHUP | GHOST_EPOLLERR) != 0 else { continue }
                let got = buffer.withUnsafeMutableBytes { read(c.fd, $0.baseAddress, $0.count) }
                if got <= 0 {
                    if got < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                    failures += 1
                    _ = ghost_epoll_remove(epfd, c.fd)
                    continue
                }
                if c.watcher && measuring { watchBytes += got }
                c.inbox.append(contentsOf: buffer[0..<got])
                var start = 0
                while let nl = c.inbox[start...].firstIndex(of: 0x0A) {
                    var end = nl
                    if end > start && c.inbox[end - 1] == 0x0D { end -= 1 }
                    handle(c, c.inbox[start..<end])
                    start = nl + 1
                }
                if start == c.inbox.count {
                    c.inbox.removeAll(keepingCapacity: true)
                } else if start > 0 {
                    c.inbox.removeFirst(start)
                }
                flush(c)
            }
            if failures == conns.count { break }   // the server is gone
        }
        let elapsed = settings.seconds
        if mode == .watch {
            // The players resign: an adjourned game would stay in GAMES, and
            // the next run's watchers would watch it.
            for c in conns where !c.watcher && c.inGame {
                send(c, "LEAVE\r\n")
                flush(c)
            }
        }
        for c in conns { Glibc.close(c.fd) }
        if let path = settings.record {
            guard let file = fopen(path, "w") else { throw BenchError("--record: cannot open \(path)") }
            let wrote = recorded.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            guard fclose(file) == 0, wrote == recorded.count else { throw BenchError("--record: cannot write \(path)") }
        }
        Glibc.close(epfd)
        return report(elapsed: elapsed, connectTime: connectTime)
    }

    // MARK: Protocol

    func start(_ c: Conn) {
        switch mode {
        case .ping:
            if !settings.hold { sendTimed(c, "PING\r\n") }
        case .play:
            let name = "b\(c.index)x\(getpid() % 100_000)"
            c.name = Array(name.utf8)
            send(c, "NAME \(name)\r\nSEEK\r\n", replies: 2)
        case .hangman:
            let name = "h\(c.index)x\(getpid() % 100_000)"
            c.name = Array(name.utf8)
            send(c, "LANG \(settings.lang)\r\nNAME \(name)\r\n", replies: 2)
            newHangman(c)
        case .watch:
            if c.watcher {
                // Watchers need no name; they look for games once the players have some.
                c.retryAt = now() + 0.2
                retrying.append(c)
            } else {
                let name = "w\(c.index)x\(getpid() % 100_000)"
                c.name = Array(name.utf8)
                send(c, "NAME \(name)\r\nSEEK rounds=ghost\r\n", replies: 2)
            }
        }
    }

    /// A watcher's line: GAMES' LIVE ids, then WATCH one of them (spread by
    /// the connection's index); at a match's end (MATCH) or a refusal, look again.
    func handleWatcher(_ c: Conn, _ line: ArraySlice<UInt8>) {
        if measuring { watchLines += 1 }
        if line.starts(with: Self.live) {
            if let id = field(Self.idKey, in: line) { c.liveIDs.append(id) }
        } else if line.starts(with: Self.okGames) {
            if c.liveIDs.isEmpty {
                c.retryAt = now() + 0.02
                retrying.append(c)
            } else {
                let id = c.liveIDs[c.index % c.liveIDs.count]
                send(c, "WATCH " + String(decoding: id, as: UTF8.self) + "\r\n")
                c.liveIDs.removeAll()
            }
        } else if line.starts(with: Self.okWatch) {
            if measuring { watchStarts += 1 }
        } else if line.starts(with: Self.err) || line.starts(with: Self.match) {
            c.retryAt = now() + 0.02
            retrying.append(c)
        }
    }

    /// A game against the computer, with every option given, so that no
    /// saved setting changes what is measured.
    func newHangman(_ c: Conn) {
        c.guesses = 0
        send(c, "NEW game=hangman mode=\(settings.hangmanMode) length=any misses=8\r\n")
    }

    /// One line from the server, as bytes (the load generator must not be
    /// the bottleneck, so no strings or dictionaries per line).
    func handle(_ c: Conn, _ line: ArraySlice<UInt8>) {
        if c.watcher { return handleWatcher(c, line) }
        let isOK = line.starts(with: Self.ok), isErr = line.starts(with: Self.err)
        if isOK || isErr || line.starts(with: Self.pong) || line.first == 0x2D {
            c.awaiting -= 1
            if !isOK && measuring && (isErr || line.first == 0x2D) { errors += 1 }
            switch mode {
            case .ping:
                if line.starts(with: Self.okPing) || line.starts(with: Self.pong) {
                    record(c)
                    if !settings.hold { sendTimed(c, "PING\r\n") }
                }
            case .play, .hangman, .watch:
                if line.starts(with: Self.okLetter) {
                    record(c)
                    if settings.record != nil { recordMove(c, line) }
                    c.letterPending = false
                }
            }
            return
        }
        if line.starts(with: Self.game) { c.gameID = Array(field(Self.idKey, in: line) ?? []) }
        if mode == .hangman {
            handleHangman(c, line)
            return
        }
        guard mode == .play || mode == .watch else { return }
        if line.starts(with: Self.turn) {
            c.fragment = Array(field(Self.fragmentKey, in: line) ?? [])
            c.myTurn = field(Self.playerKey, in: line).map { $0.elementsEqual(c.name) } ?? false
            if c.myTurn && !c.letterPending {
                // watch: the game goes on for ever (watchers watch one game,
                // not a new one every few hundred milliseconds): a round
                // three letters long is restarted (RESTART, the opponent
                // ACCEPTs) rather than played out.
                if mode == .watch && c.fragment.count >= 3 { send(c, "RESTART\r\n") } else { playLetter(c) }
            }
        } else if mode == .watch && line.starts(with: Self.offer) {
            if !(field(Self.playerKey, in: line).map { $0.elementsEqual(c.name) } ?? true) { send(c, "ACCEPT\r\n") }
        } else if line.starts(with: Self.game) {
            c.inGame = true
        } else if mode == .watch {
            // A match: the next round follows each OVER; MATCH ends it.
            if line.starts(with: Self.over) {
                c.myTurn = false
            } else if line.starts(with: Self.match) {
                c.inGame = false
                if measuring { gamesOver += 1 }
                send(c, "SEEK rounds=ghost\r\n")
            }
        } else if line.starts(with: Self.over) {
            c.inGame = false
            c.myTurn = false
            if measuring { gamesOver += 1 }
            send(c, "SEEK\r\n")
        }
    }

    static let ok = Array("OK ".utf8), err = Array("ERR ".utf8), pong = Array("+PONG".utf8)
    static let okPing = Array("OK PING".utf8), okLetter = Array("OK LETTER".utf8)
    static let turn = Array("TURN ".utf8), game = Array("GAME ".utf8), over = Array("OVER ".utf8)
    static let live = Array("LIVE ".utf8), okGames = Array("OK GAMES".utf8), okWatch = Array("OK WATCH ".utf8)
    static let match = Array("MATCH ".utf8), offer = Array("OFFER ".utf8)
    static let fragmentKey = Array(" fragment=".utf8), playerKey = Array(" player=".utf8)
    static let winnerKey = Array(" winner=".utf8), idKey = Array(" id=".utf8), letterKey = Array(" letter=".utf8)

    /// `<game id> <ply> <letter>`: a Ghost letter's ply is the fragment's
    /// length after it; a Hangman guess's is the number of guesses so far.
    func recordMove(_ c: Conn, _ line: ArraySlice<UInt8>) {
        let ply = mode == .play ? (field(Self.fragmentKey, in: line)?.count ?? 0) : c.guesses
        recorded += c.gameID
        recorded.append(0x20)
        recorded += Array(String(ply).utf8)
        recorded.append(0x20)
        recorded += field(Self.letterKey, in: line) ?? []
        recorded.append(0x0A)
    }

    /// The value of ` key=value` in a line, up to the next space.
    func field(_ key: [UInt8], in line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var i = line.startIndex
        while i + key.count <= line.endIndex {
            if line[i] == 0x20 && line[i..<(i + key.count)].elementsEqual(key) {
                let from = i + key.count
                let to = line[from...].firstIndex(of: 0x20) ?? line.endIndex
                return line[from..<to]
            }
            i += 1
        }
        return nil
    }

    func playLetter(_ c: Conn) {
        let letter = chooseLetter(c.fragment)
        var text = "LETTER \(letter)\r\n"
        var replies = 1
        if Double.random(in: 0..<1, using: &rng) < settings.badShare {
            // The bad lines ride right behind the letter, so they are read in
            // the same batch: the letter passes the turn, so a second letter
            // is always out of turn.
            let bad = ["LETTER ab\r\n", "LETTER q\r\n", "!\r\n", "xyzzy\r\n", "LETTER\r\n", "\u{1B}[2J\r\n"]
            text += bad.randomElement(using: &rng) ?? "!\r\n"
            replies += 1
            if measuring { badSent += 1 }
        }
        c.letterPending = true
        sendTimed(c, text, replies: replies)
    }

    // MARK: Hangman

    /// Hangman's lines that are not replies: a `TURN` that is this
    /// connection's asks for a guess; `OVER` ends the game and starts the next.
    func handleHangman(_ c: Conn, _ line: ArraySlice<UInt8>) {
        if line.starts(with: Self.turn) {
            let mine = field(Self.playerKey, in: line).map { $0.elementsEqual(c.name) } ?? false
            if mine && !c.letterPending { guess(c) }
        } else if line.starts(with: Self.over) {
            if measuring {
                gamesOver += 1
                if field(Self.winnerKey, in: line).map({ $0.elementsEqual(c.name) }) ?? false { gamesWon += 1 }
            }
            c.letterPending = false
            newHangman(c)
        }
    }

    /// Letters by how many English words hold them: a guesser's usual order.
    /// Every game guesses them in this order, so no letter is guessed twice.
    static let guessOrder = Array("esiarntolcdupmghbyfvkwzxqj")

    func guess(_ c: Conn) {
        // Eight misses end a game long before 26 guesses; if one ever did
        // not, the connection stops rather than send a letter twice.
        guard c.guesses < Self.guessOrder.count else { return }
        let letter = Self.guessOrder[c.guesses]
        c.guesses += 1
        var text = "LETTER \(letter)\r\n"
        var replies = 1
        if Double.random(in: 0..<1, using: &rng) < settings.badShare {
            // As in play, the bad line rides right behind the guess. The same
            // letter again is always refused: already guessed, or, when the
            // guess ended the game, not in a game.
            let bad = ["LETTER ab\r\n", "LETTER \(letter)\r\n", "\(letter)\r\n", "!\r\n", "xyzzy\r\n", "LETTER\r\n",
                       "\u{1B}[2J\r\n"]
            text += bad.randomElement(using: &rng) ?? "!\r\n"
            replies += 1
            if measuring { badSent += 1 }
        }
        c.letterPending = true
        sendTimed(c, text, replies: replies)
    }

    /// A random letter that keeps the fragment alive, if there is one.
    func chooseLetter(_ fragment: [UInt8]) -> Character {
        if let words {
            var node: Int? = WordList.root
            for b in fragment { node = node.flatMap { words.child($0, b &- 0x61) } }
            if let node {
                let rules = GhostRules(words: words)
                var alive: [Letter] = []
                alive.reserveCapacity(26)
                for l in Letter.all {
                    guard let child = words.child(node, l.index) else { continue }
                    if rules.verdict(node: child, length: fragment.count + 1) == .alive { alive.append(l) }
                }
                if let pick = alive.randomElement(using: &rng) { return pick.character }
            }
        }
        return Letter.all.randomElement(using: &rng)?.character ?? "a"
    }

    // MARK: I/O

    func sendTimed(_ c: Conn, _ text: String, replies: Int = 1) {
        c.sentAt = now()
        send(c, text, replies: replies)
    }

    func send(_ c: Conn, _ text: String, replies: Int = 1) {
        c.awaiting += replies
        c.outbox.append(contentsOf: text.utf8)
    }

    func flush(_ c: Conn) {
        guard !c.outbox.isEmpty else { return }
        let sent = c.outbox.withUnsafeBytes { ghost_send(c.fd, $0.baseAddress, UInt($0.count)) }
        if sent > 0 { c.outbox.removeFirst(sent) }
        // Ask for EPOLLOUT only while something is left to write.
        let wants = !c.outbox.isEmpty
        if wants != c.wantsWrite {
            c.wantsWrite = wants
            let events = UInt32(GHOST_EPOLLIN) | (wants ? UInt32(GHOST_EPOLLOUT) : 0)
            _ = ghost_epoll_modify(epfd, c.fd, events, UInt64(c.index))
        }
    }

    func record(_ c: Conn) {
        guard measuring else { return }
        acked += 1
        latencies.append(Float((now() - c.sentAt) * 1e6))
    }

    // MARK: Report

    func report(elapsed: Double, connectTime: Double) -> String {
        let sorted = latencies.sorted()
        func pct(_ p: Double) -> String {
            guard !sorted.isEmpty else { return "-" }
            let i = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))
            return String(format: "%.0f", sorted[i])
        }
        let rate = Double(acked) / elapsed
        let (label, what) = switch mode {
        case .ping: ("ping", "PING replies")
        case .play: ("play", "acknowledged letters")
        case .hangman: ("play-hangman \(settings.hangmanMode)", "acknowledged guesses")
        case .watch: ("watch", "acknowledged letters (players)")
        }
        var s = String(format: "%@ %d connections, %.0f s: %.0f %@/s; latency µs p50 %@ p99 %@ p99.9 %@",
                       label, settings.connections, elapsed, rate, what,
                       pct(0.5), pct(0.99), pct(0.999))
        switch mode {
        case .ping: break
        case .play:
            let games = gamesOver / 2
            s += String(format: "; %d games finished (%.1f letters each), %d bad lines sent, %d ERR replies",
                        games, games > 0 ? Double(acked) / Double(games) : 0, badSent, errors)
        case .hangman:
            s += String(format: "; %d games finished (%.1f guesses each, %d won), %d bad lines sent, %d ERR replies",
                        gamesOver, gamesOver > 0 ? Double(acked) / Double(gamesOver) : 0, gamesWon, badSent, errors)
        case .watch:
            let matches = gamesOver / 2
            s += String(format: "; %d matches finished, %d ERR replies; %d watchers: %d WATCH, %.0f lines/s and %.0f KB/s received in all",
                        matches, errors, settings.watchers, watchStarts, Double(watchLines) / elapsed, Double(watchBytes) / elapsed / 1000)
        }
        if failures > 0 { s += "; \(failures) connections lost" }
        s += String(format: "; connect %.2f s", connectTime)
        return s
    }
}

extension LoadBench {
    /// The server's `STATS`, on one line (`server: name=value …`), from a
    /// connection of its own once the measurement is over.
    static func serverStats(host: String, port: Int, timeout: Double = 5) throws -> String {
        let fd = ghost_connect(host, Int32(port))
        guard fd >= 0 else { throw BenchError("STATS: cannot connect to \(host):\(port)") }
        defer { Glibc.close(fd) }
        let request = Array("STATS\n".utf8)
        guard request.withUnsafeBytes({ ghost_send(fd, $0.baseAddress, UInt($0.count)) }) == request.count else {
            throw BenchError("STATS: cannot send")
        }
        var inbox: [UInt8] = []
        var figures: [String] = []
        let deadline = Date().timeIntervalSince1970 + timeout
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while Date().timeIntervalSince1970 < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            inbox += buffer[..<n]
            while let nl = inbox.firstIndex(of: 0x0A) {
                let line = String(decoding: inbox[..<nl], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                inbox.removeSubrange(...nl)
                if line.hasPrefix("STAT ") {
                    let words = line.split(separator: " ")
                    let name = words.first { $0.hasPrefix("name=") }?.dropFirst(5) ?? "?"
                    let value = words.first { $0.hasPrefix("value=") }?.dropFirst(6) ?? "?"
                    figures.append("\(name)=\(value)")
                } else if line.hasPrefix("OK STATS") {
                    return "server: " + figures.joined(separator: " ")
                } else if line.hasPrefix("ERR ") {
                    throw BenchError("STATS: \(line) (the server is not ghostd, or too old)")
                }
            }
        }
        throw BenchError("STATS: no complete answer within \(Int(timeout)) s")
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
