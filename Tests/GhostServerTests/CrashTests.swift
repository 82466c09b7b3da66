import Foundation
import GhostCore
import GhostProtocol
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
import GameKit
import WordLists
#endif

/// ghostd is SIGKILLed while clients play as fast as acknowledgements come,
/// then restarted on the same --data: whatever a client saw acknowledged must
/// come back (Protocol.md §8), at most one unacknowledged step further on.
@Suite("Crash: SIGKILL mid-stream, restart, resume", .ownThread, .hangLimit)
struct CrashTests {
    static let pairs = 3
    static let kills = 3

    @Test("3 pairs play flat out; ghostd is SIGKILLed 3 times mid-stream; every game resumes by token at its last acknowledged state (or one step on); all finish; SCORES adds up")
    func killMidStream() throws {
        let seed = ProcessInfo.processInfo.environment["GHOSTD_CRASH_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let run = CrashRun(seed: seed)
        let started = monotonicNow()
        // The players answer every acknowledgement at once, far faster than a
        // person types: lift the per-connection rate limit, as the load benchmark does.
        var daemon = try DaemonProcess.start(extraArguments: ["--max-commands-per-second", "0"])
        defer { daemon.kill() }

        // Three private games, six connections.
        for i in 0..<Self.pairs {
            let host = try crashPlayer(daemon, "crash-h\(i)")
            let guest = try crashPlayer(daemon, "crash-g\(i)")
            let g = try Game.privateGame(host: host, guest: guest)
            run.games.append(CrashGame(id: g.id, names: [host.name, guest.name], tokens: g.tokens,
                                       clients: [host.client, guest.client]))
        }

        for cycle in 1...Self.kills {
            // Play flat out; once the first step is acknowledged, another thread
            // SIGKILLs the daemon 0–300 ms later. (Waiting for an acknowledgement
            // first keeps each cycle mid-stream on a loaded CI machine too, where
            // a fixed delay could end before the first reply.)
            let acksBefore = run.acks
            run.phase = .racing
            for g in run.games { run.act(g) }
            try run.drive(until: { run.acks > acksBefore }, timeout: 20, what: "cycle \(cycle): a first acknowledgement")
            let killer = Killer(daemon: daemon, afterMS: Int(run.rng.next() % 301))
            try run.drive(until: { killer.done && run.allClosed }, timeout: 20, what: "cycle \(cycle): the kill and every EOF")
            let status = killer.wait()
            #expect(status == .signaled(SIGKILL), "cycle \(cycle): \(status.map(\.description) ?? "?") [seed \(seed)]")
            run.cycleAcks.append(run.acks - acksBefore)

            // Same --data, same port: every game comes back adjourned.
            daemon = try daemon.relaunch()
            let restored = daemon.waitForStderrLine(timeout: 20) { $0.contains("restored ") && $0.contains(" adjourned game(s)") }
            // Games without a clock load on RESUME, not at start (Lifecycle.swift).
            #expect(restored?.hasSuffix("restored 0 adjourned game(s) on a clock; the others load on RESUME") == true,
                    "cycle \(cycle): \(restored ?? "no `restored` line") [seed \(seed)]\n\(daemon.stderrText)")
            for g in run.games { try run.resume(g, on: daemon, cycle: cycle) }
        }

        try run.finishAndCheckScores(on: daemon)

        let seconds = monotonicNow() - started
        print("CrashTests: seed \(seed); acks per cycle \(run.cycleAcks); restarts accepted \(run.restarts); " +
              "steps committed but unacknowledged at a kill: \(run.committedUnacked); \(String(format: "%.1f", seconds)) s")
        #expect(daemon.terminate() == .exited(0), "\(daemon.stderrText)")
    }

    private func crashPlayer(_ daemon: DaemonProcess, _ name: String) throws -> Player {
        let client = try LineClient(port: daemon.port, label: name)
        try client.login(name)
        return Player(name: name, client: client)
    }
}

// MARK: - The run

/// One game as the clients know it: the last acknowledged state, and the one
/// step in flight (sent, not yet acknowledged).
final class CrashGame {
    enum Step: Equatable, CustomStringConvertible {
        case letter(Character), offer, accept
        var description: String {
            switch self {
            case .letter(let c): "letter \(c)"
            case .offer: "RESTART offer"
            case .accept: "ACCEPT"
            }
        }
    }

    struct State: Equatable, CustomStringConvertible {
        var round: Int
        var fragment: String
        /// The seat whose restart offer is pending.
        var offerBy: Int?
        var description: String { "round \(round) fragment \"\(fragment)\" offer \(offerBy.map(String.init) ?? "none")" }
    }

    let id: Int
    let names: [String]
    let tokens: [String]
    var clients: [LineClient]
    var state = State(round: 1, fragment: "", offerBy: nil)
    var inFlight: (seat: Int, step: Step)?
    /// A losing letter was acknowledged: OVER, INFO and two RANK lines follow.
    var ending = false
    var overLines: [String?] = [nil, nil]
    var rankLines: [[String]] = [[], []]
    /// Every fragment acknowledged to the mover, in order.
    var acknowledged: [String] = []

    init(id: Int, names: [String], tokens: [String], clients: [LineClient]) {
        self.id = id
        self.names = names
        self.tokens = tokens
        self.clients = clients
    }

    var toMove: Int { state.fragment.utf8.count % 2 }
    var isFinished: Bool { overLines.allSatisfy { $0 != nil } && rankLines.allSatisfy { $0.count == 2 } }

    /// The state once the step in flight has been applied.
    func applied(_ step: Step, by seat: Int) -> State {
        switch step {
        case .letter(let c): return State(round: state.round, fragment: state.fragment + String(c), offerBy: nil)
        case .offer: return State(round: state.round, fragment: state.fragment, offerBy: seat)
        case .accept: return State(round: state.round + 1, fragment: "", offerBy: nil)
        }
    }
}

final class CrashRun {
    enum Phase { case racing, finishing }

    let seed: UInt64
    var rng: SplitMix64
    var phase: Phase = .racing
    var games: [CrashGame] = []
    let rules = GhostRules(words: WordLists.en)
    var acks = 0
    var cycleAcks: [Int] = []
    var restarts = 0
    var committedUnacked = 0
    var wins: [String: Int] = [:]
    /// Rounds on a full disk (CrashFullDiskTests): a step may be answered
    /// `ERR store-failed`, which promises that nothing of it was done
    /// (Protocol.md §8): the game stays at its last acknowledged state, and
    /// the step is taken again. Otherwise any `ERR` is an issue.
    var storeMayFail = false
    /// Steps answered `ERR store-failed`.
    var storeFailures = 0

    init(seed: UInt64) {
        self.seed = seed
        self.rng = SplitMix64(seed: seed)
    }

    var allClosed: Bool { games.allSatisfy { $0.clients.allSatisfy { $0.sawEOF || $0.fileDescriptor < 0 } } }

    private func issue(_ text: String, _ g: CrashGame? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let about = g.map { " [game \($0.id): \($0.state), in flight \($0.inFlight.map { "\($0.step) by seat \($0.seat)" } ?? "nothing")]" } ?? ""
        Issue.record(Comment(rawValue: text + about + " [seed \(seed)]"), sourceLocation: sourceLocation)
    }

    // MARK: Choosing and sending

    /// Takes the game's next step: ACCEPT a pending offer; else the mover plays a
    /// letter that keeps the game alive, or offers a restart when none does.
    /// While finishing, the mover also plays any letter now and then, to end it.
    func act(_ g: CrashGame) {
        guard g.inFlight == nil, !g.ending, !g.isFinished else { return }
        if let offerer = g.state.offerBy {
            return send(g, seat: 1 - offerer, .accept, "ACCEPT")
        }
        let seat = g.toMove
        let safe = WordLists.safeLetters(after: g.state.fragment, in: WordLists.en)
        if phase == .finishing && (safe.isEmpty || rng.next() % 3 == 0) {
            let c = Letter.all[Int(rng.next() % 26)].character
            return send(g, seat: seat, .letter(c), String(c))
        }
        if safe.isEmpty {
            return send(g, seat: seat, .offer, "RESTART")
        }
        let c = safe[Int(rng.next() % UInt64(safe.count))]
        send(g, seat: seat, .letter(c), String(c))
    }

    private func send(_ g: CrashGame, seat: Int, _ step: CrashGame.Step, _ text: String) {
        g.inFlight = (seat, step)
        // While racing the daemon may already be gone: a failed write is expected then.
        if !g.clients[seat].trySend(text) && phase == .finishing {
            issue("\(g.names[seat]) could not send `\(text)`", g)
        }
    }

    // MARK: Reading

    /// Polls every open client and handles its lines until `done()` or the timeout.
    func drive(until done: () -> Bool, timeout: Double, what: String,
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let deadline = monotonicNow() + timeout
        while !done() {
            guard monotonicNow() < deadline else {
                issue("timed out after \(timeout) s waiting for \(what); games: " +
                      games.map { "\($0.id): \($0.state) in flight \($0.inFlight.map { "\($0.step)" } ?? "-") over \($0.overLines)" }.joined(separator: "; "),
                      sourceLocation: sourceLocation)
                throw DaemonError("crash test timed out")
            }
            var targets: [(CrashGame, Int)] = []
            var pfds: [pollfd] = []
            for g in games {
                for seat in 0..<2 where !g.clients[seat].sawEOF && g.clients[seat].fileDescriptor >= 0 {
                    targets.append((g, seat))
                    pfds.append(pollfd(fd: g.clients[seat].fileDescriptor, events: Int16(POLLIN), revents: 0))
                }
            }
            if pfds.isEmpty {
                usleep(5_000)
                continue
            }
            let r = poll(&pfds, nfds_t(pfds.count), 20)
            if r < 0 && errno != EINTR { throw DaemonError("poll: \(String(cString: strerror(errno)))") }
            guard r > 0 else { continue }
            for (i, pfd) in pfds.enumerated() where pfd.revents != 0 {
                let (g, seat) = targets[i]
                for line in g.clients[seat].readAvailable() { handle(line, g, seat) }
                if g.clients[seat].sawEOF && phase == .finishing {
                    issue("\(g.names[seat]) was disconnected while finishing", g)
                }
            }
        }
    }

    private func handle(_ line: String, _ g: CrashGame, _ seat: Int) {
        // Every line is one whole server line: none cut, none glued to
        // another (a withdrawal that cut a line did both).
        if ServerLine(decoding: line)?.rendered != line {
            issue("\(g.names[seat]) got `\(line)`, which is not one whole server line", g)
        }
        let f = lineFields(line)
        if line.hasPrefix("OK ") {
            guard let (mover, step) = g.inFlight, mover == seat else {
                return issue("\(g.names[seat]) got `\(line)` with nothing of its own in flight", g)
            }
            switch step {
            case .letter(let c):
                let expected = g.state.fragment + String(c)
                guard line == "OK LETTER letter=\(c) fragment=\(expected)" else {
                    return issue("\(g.names[seat]) sent \(c), got `\(line)`", g)
                }
                g.state = g.applied(step, by: seat)
                g.acknowledged.append(expected)
                if rules.verdict(expected) != .alive { g.ending = true }
            case .offer:
                guard line == "OK RESTART status=offered" else { return issue("\(g.names[seat]) offered a restart, got `\(line)`", g) }
                g.state = g.applied(step, by: seat)
            case .accept:
                guard line == "OK ACCEPT" else { return issue("\(g.names[seat]) accepted, got `\(line)`", g) }
                g.state = g.applied(step, by: seat)
                restarts += 1
            }
            acks += 1
            g.inFlight = nil
            act(g)
        } else if storeMayFail && line.hasPrefix("ERR store-failed ") {
            // Nothing of the step was done: the state is the acknowledged one.
            // (A lost turn then sends both players the stored state again,
            // GAME and TURN, which the branches below take.)
            guard let (mover, _) = g.inFlight, mover == seat else {
                return issue("\(g.names[seat]) got `\(line)` with nothing of its own in flight", g)
            }
            storeFailures += 1
            g.inFlight = nil
            act(g)
        } else if line.hasPrefix("ERR ") {
            issue("\(g.names[seat]) got `\(line)`", g)
        } else if line.hasPrefix("OVER ") {
            if g.overLines[seat] != nil { issue("\(g.names[seat]) got a second OVER: `\(line)`", g) }
            g.overLines[seat] = line
        } else if line.hasPrefix("RANK ") {
            g.rankLines[seat].append(line)
        } else if line.hasPrefix("GAME ") {
            // After an ACCEPT: the same game, the seat's own token.
            if f["id"] != String(g.id) || f["token"] != g.tokens[seat] || f["lang"] != "en" {
                issue("\(g.names[seat]) got `\(line)`", g)
            }
        } else if line.hasPrefix("MOVE ") || line.hasPrefix("TURN ") || line.hasPrefix("OFFER ") || line.hasPrefix("ACCEPTED ") {
            if f["id"] != String(g.id) { issue("\(g.names[seat]) got another game's `\(line)`", g) }
        } else if !line.hasPrefix("INFO ") {
            issue("\(g.names[seat]) got an unexpected `\(line)`", g)
        }
    }

    // MARK: Resuming

    /// Both players RESUME on new connections (in random order). The state both
    /// see must be the last acknowledged one, or that plus the step in flight;
    /// with `cut` (a damaged journal lost some of the round's letters:
    /// CrashDamagedJournalTests), the same round with its fragment cut to one
    /// of those lengths.
    func resume(_ g: CrashGame, on daemon: DaemonProcess, cycle: Int, cut: ClosedRange<Int>? = nil,
                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let acked = g.state
        let onStep = g.inFlight.map { g.applied($0.step, by: $0.seat) }
        let order = rng.next() % 2 == 0 ? [0, 1] : [1, 0]
        var seen: [CrashGame.State] = []
        var clients: [LineClient?] = [nil, nil]
        for (k, seat) in order.enumerated() {
            let c = try LineClient(port: daemon.port, label: "\(g.names[seat])#\(cycle)", sourceLocation: sourceLocation)
            try c.send("RESUME \(g.tokens[seat])", sourceLocation: sourceLocation)
            func next() throws -> String {
                guard let line = c.nextLine(timeout: 10) else {
                    issue("cycle \(cycle): \(c.label) got no line after RESUME; received \(c.received)", g, sourceLocation: sourceLocation)
                    throw DaemonError("no line")
                }
                return line
            }
            let ok = try next()
            guard ok == "OK RESUME id=\(g.id)" else {
                issue("cycle \(cycle): \(c.label) sent RESUME, got `\(ok)` (acknowledged: \(g.acknowledged.suffix(3)))", g, sourceLocation: sourceLocation)
                throw DaemonError("resume failed")
            }
            let header = try next()
            let f = lineFields(header)
            let round = Int(f["round"] ?? "") ?? 0
            if header != "GAME id=\(g.id) game=ghost lang=en players=\(g.names[0]),\(g.names[1]) token=\(g.tokens[seat]) round=\(round)" {
                issue("cycle \(cycle): \(c.label) got `\(header)`", g, sourceLocation: sourceLocation)
            }
            var state = CrashGame.State(round: round, fragment: "", offerBy: nil)
            while true {
                let line = try next()
                let lf = lineFields(line)
                if line.hasPrefix("OFFER ") {
                    let by = g.names.firstIndex(of: lf["player"] ?? "")
                    if by == nil || line != "OFFER id=\(g.id) player=\(lf["player"] ?? "") kind=restart" {
                        issue("cycle \(cycle): \(c.label) got `\(line)`", g, sourceLocation: sourceLocation)
                    }
                    state.offerBy = by
                } else if line.hasPrefix("ADJOURNED ") {
                    // Only the first to come back finds the other away.
                    if k != 0 || !line.hasPrefix("ADJOURNED id=\(g.id) player=\(g.names[1 - seat]) grace=") {
                        issue("cycle \(cycle): \(c.label) got `\(line)`", g, sourceLocation: sourceLocation)
                    }
                } else if line.hasPrefix("TURN ") {
                    state.fragment = lf["fragment"] ?? ""
                    let moverSeat = state.fragment.utf8.count % 2
                    // The state names who played the fragment's last letter.
                    let last = state.fragment.isEmpty ? "" : " last=\(g.names[1 - moverSeat])"
                    if line != "TURN id=\(g.id) player=\(g.names[moverSeat]) fragment=\(state.fragment)\(last)" {
                        issue("cycle \(cycle): \(c.label) got `\(line)`", g, sourceLocation: sourceLocation)
                    }
                    break
                } else {
                    issue("cycle \(cycle): \(c.label) got an unexpected `\(line)` in the RESUME state", g, sourceLocation: sourceLocation)
                }
            }
            seen.append(state)
            clients[seat] = c
            if k == 1, let first = clients[order[0]] {
                let returned = first.nextLine(timeout: 10)
                if returned != "RETURNED id=\(g.id) player=\(g.names[seat])" {
                    issue("cycle \(cycle): \(first.label) expected RETURNED for \(g.names[seat]), got `\(returned ?? "nothing")`", g,
                          sourceLocation: sourceLocation)
                }
            }
        }
        if seen[0] != seen[1] { issue("cycle \(cycle): the players resumed different states \(seen)", g, sourceLocation: sourceLocation) }
        let back = seen[0]
        if back == acked {
            // The step in flight, if any, was lost with the daemon: it is taken again.
        } else if let onStep, back == onStep {
            committedUnacked += 1
        } else if let cut, back.round == acked.round, cut.contains(back.fragment.utf8.count),
                  (onStep?.fragment ?? acked.fragment).hasPrefix(back.fragment) {
            // Letters of a damaged journal's lines, lost; none other.
        } else {
            issue("cycle \(cycle): resumed at \(back); the last acknowledged state was \(acked)" +
                  (onStep.map { ", or \($0) with the step in flight" } ?? "") +
                  "; acknowledged fragments \(g.acknowledged.suffix(4))", g, sourceLocation: sourceLocation)
        }
        if cut == nil && !back.fragment.hasPrefix(acked.fragment) && back.round == acked.round {
            issue("cycle \(cycle): resumed fragment \"\(back.fragment)\" does not start with the acknowledged \"\(acked.fragment)\"", g,
                  sourceLocation: sourceLocation)
        }
        g.state = back
        g.inFlight = nil
        g.clients = clients.compactMap { $0 }
    }

    // MARK: The end

    /// Finishes every game (the players may lose now), checks both players'
    /// OVER and RANK lines, and that SCORES and NAMES add up: one win per
    /// finished game, two plays, every name once (and `extraNames` more names
    /// that played no game).
    func finishAndCheckScores(on daemon: DaemonProcess, extraNames: Int = 0) throws {
        // Finish every game.
        phase = .finishing
        for g in games { act(g) }
        try drive(until: { games.allSatisfy(\.isFinished) }, timeout: 30, what: "every game to OVER")
        for g in games { checkOver(g) }

        // The high-score list adds up: one win per finished game, two plays.
        let c = try LineClient(port: daemon.port, label: "scores")
        try c.send("SCORES 100")
        var rows: [[String: String]] = []
        while true {
            let line = try c.readLine()
            if line.hasPrefix("OK SCORES ") {
                #expect(line == "OK SCORES count=\(rows.count) board=game")
                break
            }
            #expect(line.hasPrefix("SCORE rank="), "\(line)")
            rows.append(lineFields(line))
        }
        let totalWins = rows.compactMap { Int($0["wins"] ?? "") }.reduce(0, +)
        let played = rows.compactMap { Int($0["played"] ?? "") }.reduce(0, +)
        let finished = games.filter(\.isFinished).count
        #expect(finished == games.count)
        #expect(totalWins == finished && played == 2 * finished, "SCORES: \(rows) for \(finished) finished games [seed \(seed)]")
        for (name, w) in wins {
            #expect(rows.contains { $0["name"] == name && $0["wins"] == String(w) && $0["played"] == "1" },
                    "\(name) should have \(w) win(s) in 1 game: \(rows) [seed \(seed)]")
        }
        try c.send("NAMES")
        let names = try c.readUntil(prefix: "OK NAMES ")
        let named = 2 * games.count + extraNames
        #expect(names.line == "OK NAMES count=\(named) more=no" && names.skipped.count == named, "\(names)")
    }

    /// Both players saw the same OVER, matching the final fragment and the word
    /// list, then the same two RANK lines (winner first).
    func checkOver(_ g: CrashGame) {
        let fragment = g.state.fragment
        let loser = (fragment.utf8.count - 1) % 2
        let reason = rules.verdict(fragment) == .word ? "word" : "dead"
        // A dead fragment names a word the one before it could have led to.
        let word = reason == "dead" ? rules.possibleWord(after: fragment.dropLast()).map { " word=\($0)" } ?? "" : ""
        let expected = "OVER id=\(g.id) winner=\(g.names[1 - loser]) loser=\(g.names[loser]) reason=\(reason) fragment=\(fragment)\(word)"
        for seat in 0..<2 where g.overLines[seat] != expected {
            issue("\(g.names[seat]) got `\(g.overLines[seat] ?? "no OVER")`, expected `\(expected)`", g)
        }
        if g.rankLines[0] != g.rankLines[1] || g.rankLines[0].count != 2
            || !(g.rankLines[0].first?.hasPrefix("RANK name=\(g.names[1 - loser]) rank=") ?? false)
            || !(g.rankLines[0].last?.hasPrefix("RANK name=\(g.names[loser]) rank=") ?? false) {
            issue("RANK lines \(g.rankLines)", g)
        }
        wins[g.names[1 - loser], default: 0] += 1
        wins[g.names[loser], default: 0] += 0
    }
}

// MARK: - Helpers

/// SIGKILLs the daemon from its own thread after a delay.
final class Killer: @unchecked Sendable {
    private let lock = NSCondition()
    private var status: ExitStatus?
    private var finished = false

    init(daemon: DaemonProcess, afterMS: Int) {
        let t = Thread { [self] in
            usleep(UInt32(afterMS) * 1000)
            let s = daemon.kill()
            lock.lock()
            status = s
            finished = true
            lock.broadcast()
            lock.unlock()
        }
        t.name = "ghostd-killer"
        t.start()
    }

    var done: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    /// Waits (at most 30 s) for the kill; returns how the daemon ended.
    func wait() -> ExitStatus? {
        let deadline = Date(timeIntervalSinceNow: 30)
        lock.lock()
        defer { lock.unlock() }
        while !finished {
            if !lock.wait(until: deadline) { break }
        }
        return status
    }
}

