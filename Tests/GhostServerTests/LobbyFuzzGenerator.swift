import Foundation
import Testing
import GameKit
import GhostAuth
import GhostCore
import GhostProtocol
@testable import GhostServer
import GhostStore
import HangmanCore
import WordLists

// How the lobby fuzzer chooses its steps (LobbyFuzzTests.swift).

// MARK: Choosing steps

/// Chooses the next step from what each slot's connection could sensibly
/// do now (it peeks at the lobby for that: which game, whose turn, which
/// letters are left), with some nonsense mixed in.
struct FuzzGenerator {
    var rng: FuzzRandom
    static let names = ["alice", "bob", "carol", "dave", "Alice", "eve", "bot-x", "x!"]
    /// Two passwords a name may have, and a wrong one.
    static let passwords = ["first secret", "second secret", "wrong guess!"]
    /// A login, REGISTER or PASSWORD line.
    mutating func passwordLine(_ name: String? = nil) -> String {
        switch rng.int(0...9) {
        case 0..<4: return "NAME \(name ?? rng.pick(Self.names)) " + rng.pick(Self.passwords)
        case 4..<7: return "REGISTER " + rng.pick(Self.passwords.dropLast())
        case 7..<9: return "PASSWORD " + rng.pick(Self.passwords.dropLast())
        default: return rng.pick(["REGISTER short", "NAME alice 1234567", "PASSWORD"])
        }
    }
    static let words = ["pea", "pear", "peach", "cat", "cats", "dog", "dogs", "huis", "huisje", "kat", "katten", "zzz", "the/cat", "hot/dog"]
    static let garbage = ["", "   ", "FOO", "LETTER", "LETTER ab", "7", "!", "NAME", "SEEK rounds=two", "NEW bot=godlike",
                          "NEW game=chess", "NEW game=hangman mode=sneaky", "NEW game=hangman length=99", "NEW game=hangman misses=0", "NEW clock=2", "SEEK clock=x", "SEEK clock=5",
                          "SET hangman-mode duel", "SET colour red", "SCORES 0", "SCORES game=hangman mode=x", "JOIN",
                          "RESUME", "RESUME zz", "\u{1b}[2J", "é", "p p", "NEW game=hangman bot=guesser"]

    /// Whether the episode makes the store fail now and then.
    let faults: Bool
    /// Whether the store's failures are mostly a full disk: the journal's
    /// appends fail too (LobbyFuzzFullDiskTests), for longer stretches.
    let fullDisk: Bool

    init(seed: UInt64, fullDisk: Bool = false) {
        rng = FuzzRandom(seed: seed)
        faults = fullDisk || seed % 3 == 2
        self.fullDisk = fullDisk
    }

    mutating func next(_ run: FuzzRun) -> FuzzStep {
        if fullDisk && rng.chance(run.fault == nil ? 0.04 : 0.08) {
            guard run.fault == nil else { return .heal }
            return rng.chance(0.75) ? .diskFull(rng.int(0...(FuzzRun.diskFaults.count - 1))) : .fault(rng.int(0...(FuzzRun.faults.count - 1)))
        }
        if !fullDisk && faults && rng.chance(run.fault == nil ? 0.02 : 0.15) {
            return run.fault == nil ? .fault(rng.int(0...(FuzzRun.faults.count - 1))) : .heal
        }
        let r = rng.int(0...99)
        if r < 3 { return .advance(rng.pick([0.5, 1, 2, 5])) }
        if r < 5 { return .advance(rng.pick([59, 61, 61, 120])) }
        let slot = rng.int(0...(FuzzRun.slots - 1))
        guard let conn = run.conns[slot] else { return .connect(slot: slot) }
        if r < 8 { return .disconnect(slot: slot) }
        if r < 9 { return .idle(slot: slot) }
        if r < 10 { return rng.chance(0.5) ? .tooLong(slot: slot) : .line(slot: slot, rng.pick(Self.garbage)) }
        guard let session = run.lobby.sessions[conn] else { return .disconnect(slot: slot) }
        guard session.name != nil else {
            if rng.chance(0.15) { return .token(slot: slot, prefix: "RESUME ", n: rng.int(0...50)) }
            if rng.chance(0.1) { return .line(slot: slot, rng.pick(["LANG nl", "SET lang en", "SETTINGS", "PING", "SEEK", "p"])) }
            if rng.chance(0.3) { return .line(slot: slot, passwordLine()) }
            return .line(slot: slot, "NAME " + rng.pick(Self.names))
        }
        // Only games between registered names are rated (never
        // against the computer): a logged-in name that is free often meets
        // another logged-in name's seek.
        if case .idle = session.state, session.loggedIn != nil, rng.chance(0.6), Self.registeredSeeker(run, besides: conn) {
            return .line(slot: slot, "SEEK")
        }
        if case .idle = session.state, session.loggedIn == nil, rng.chance(0.1) { return .line(slot: slot, "REGISTER first secret") }
        // A watcher talks to the other watchers.
        if session.watching != nil, rng.chance(0.25) { return .line(slot: slot, "SAY " + chatText()) }
        // Between people (issue #47): in any state, now and then.
        if rng.chance(session.watching != nil || session.state != .idle ? 0.2 : 0.15) { return social(slot, session, run) }
        switch session.state {
        case .idle: return idle(slot, session)
        case .seeking, .hosting:
            if rng.chance(0.6) {
                // Let the others act: another slot, or the clock.
                let other = rng.int(0...(FuzzRun.slots - 1))
                if run.conns[other] == nil { return .connect(slot: other) }
                return other == slot ? .advance(1) : next(run)
            }
            return .line(slot: slot, rng.pick(["LEAVE", "LEAVE", "PING", "SEEK", "NEW", "NAME carol", "LANG nl", "p", "REMATCH", "CLAIM"]))
        case .playing(let gameID, let seat):
            guard let table = run.lobby.rooms[gameID] else { return .line(slot: slot, "PING") }
            return playing(slot, table, seat)
        }
    }

    /// Chat text: plain, format characters (bidi overrides, zero-width),
    /// C1 controls, only format characters (nothing left), spaces around,
    /// 200 characters, 201, non-Latin scripts, the same text again.
    static let formats = ["\u{202E}", "\u{202D}", "\u{200B}", "\u{200D}", "\u{2066}", "\u{2069}", "\u{FEFF}", "\u{00AD}", "\u{061C}",
                          "\u{180E}", "\u{2060}", "\u{FFF9}", "\u{85}", "\u{9B}", "\u{200F}"]
    mutating func chatText() -> String {
        switch rng.int(0...9) {
        case 0: return "gg"
        case 1: return "same again"
        case 2:
            var t = ""
            for w in ["evil", "text", "here", "now"] { t += w + (rng.chance(0.7) ? rng.pick(Self.formats) : " ") }
            return t
        case 3: return (0..<rng.int(1...4)).map { _ in rng.pick(Self.formats) }.joined()
        case 4: return String(repeating: rng.pick(["a", "é", "ж", "😀"]), count: rng.pick([199, 200, 201, 300]))
        case 5: return "  padded  " + rng.pick(Self.formats)
        case 6: return rng.pick(["héllo wörld", "日本語", "مرحبا \u{202B}x", "[31mred", "a\u{2028}b"])
        case 7: return String(repeating: "\u{200B}", count: 150) + "x" + String(repeating: "y", count: 199)
        default: return "well played " + String(rng.int(0...3))
        }
    }

    static let socialNames = ["alice", "bob", "carol", "dave", "eve", "Alice", "BOB", "nobody1", "bot-easy", "x!"]

    /// FOLLOW, UNFOLLOW, FOLLOWING, INVITE (with options), DECLINE <code>
    /// (real and bogus), SAY, BLOCK, UNBLOCK, BLOCKS, REPORT, the settings.
    private mutating func social(_ slot: Int, _ session: Lobby.Session, _ run: FuzzRun) -> FuzzStep {
        // Mostly a name online (whom INVITE, SAY and BLOCK concern), in any case.
        let online = run.lobby.sessions.compactMap { $0.value.name }.filter { $0 != session.name }
        var name = !online.isEmpty && rng.chance(0.6) ? rng.pick(online) : rng.pick(Self.socialNames)
        if rng.chance(0.2) { name = rng.chance(0.5) ? name.uppercased() : name.lowercased() }
        // Watch a game in progress now and then: watchers chat among themselves.
        // (Mostly the oldest game, so that two watchers meet.)
        if session.watching == nil, case .idle = session.state, rng.chance(0.3),
           let game = rng.chance(0.7) ? run.lobby.rooms.keys.min() : run.lobby.rooms.keys.randomElement(using: &rng) {
            return .line(slot: slot, "WATCH \(game)")
        }
        // A watcher mostly talks.
        if session.watching != nil, rng.chance(0.6) { return .line(slot: slot, "SAY " + chatText()) }
        switch rng.int(0...99) {
        case 0..<8: return .line(slot: slot, "FOLLOW " + name)
        case 8..<11: return .line(slot: slot, "UNFOLLOW " + name)
        case 11..<15: return .line(slot: slot, "FOLLOWING")
        case 15..<30:
            let options = ["", "", " game=hangman", " game=hangman mode=duel length=4", " rounds=ghost", " clock=30", " watch=no",
                           " rated=yes", " variant=super", " bot=easy", " game=chess", " clock=2"]
            return .line(slot: slot, "INVITE " + name + rng.pick(options) + (rng.chance(0.2) ? rng.pick(options) : ""))
        case 30..<38: return rng.chance(0.8) ? .coded(slot: slot, prefix: "DECLINE ", n: rng.int(0...20) + 1000)
            : .line(slot: slot, rng.pick(["DECLINE ZZZZZZZZ", "DECLINE 12345678", "DECLINE", "DECLINE a b"]))
        case 38..<39: return .coded(slot: slot, prefix: "JOIN ", n: rng.int(0...20) + 1000)
        case 39..<62: return .line(slot: slot, "SAY " + chatText())
        case 62..<64: return .line(slot: slot, rng.pick(["SAY", "SAY ", "SAY  "]))
        case 64..<74: return .line(slot: slot, "BLOCK " + name)
        case 74..<79: return .line(slot: slot, "UNBLOCK " + name)
        case 79..<82: return .line(slot: slot, "BLOCKS")
        case 82..<87: return .line(slot: slot, "REPORT " + name + " " + rng.pick(["rude", chatText(), "", "spam spam"]))
        default:
            return .line(slot: slot, rng.pick(["SET presence off", "SET presence on", "SET chat off", "SET chat on", "SET invites friends",
                                               "SET invites nobody", "SET invites anyone", "SET invites maybe", "SETTINGS"]))
        }
    }

    /// Whether a connection other than `conn` is logged in to a registered name and seeks a game.
    static func registeredSeeker(_ run: FuzzRun, besides conn: ConnectionID) -> Bool {
        run.conns.contains { other in
            guard let other, other != conn, let theirs = run.lobby.sessions[other], theirs.loggedIn != nil,
                  case .seeking = theirs.state else { return false }
            return true
        }
    }

    private mutating func idle(_ slot: Int, _ session: Lobby.Session) -> FuzzStep {
        if session.last != nil && rng.chance(0.5) { return .line(slot: slot, "REMATCH") }
        // Logged in to a registered name: now and then a new password.
        if session.loggedIn != nil && rng.chance(0.05) { return .line(slot: slot, "PASSWORD " + rng.pick(Self.passwords.dropLast())) }
        // Logged in: rated games more often against another registered name; against the
        // computer never rated (`NEW bot=hard rated=yes` is ERR cannot-rate).
        if session.loggedIn != nil && rng.chance(0.25) {
            return .line(slot: slot, rng.pick(["SEEK rated=yes", "NEW bot=hard rated=yes", "SEEK rated=yes", "SEEK", "SEEK variant=super",
                                               "SEEK range=1000-2000", "SEEK", "SEEK game=hangman rated=yes"]))
        }
        // Watching: a watcher tries to play too (a token or a secret sent to
        // it is caught by the checks on every line).
        if rng.chance(session.watching == nil ? 0.1 : 0.3) {
            return .line(slot: slot, rng.pick(["GAMES", "GAMES 1", "WATCH \(rng.int(1...8))", "WATCH \(rng.int(1...8))", "UNWATCH",
                                               "p", "LEAVE", "ACCEPT", "SOLVE cat",
                                               "MOVES \(rng.int(1...8))", "REVIEW \(rng.int(1...8))"]))
        }
        let r = rng.int(0...99)
        switch r {
        case 0..<16: return .line(slot: slot, rng.pick(["SEEK", "SEEK", "SEEK rounds=ghost", "SEEK game=hangman", "SEEK game=hangman",
                                                        "SEEK game=ghost", "SEEK game=hangman rounds=ghost",
                                                        "SEEK clock=15", "SEEK game=hangman clock=15",
                                                        "SEEK variant=challenge", "SEEK variant=super rounds=ghost",
                                                        "SEEK rated=yes", "SEEK rated=no", "SEEK range=1300-1700",
                                                        "SEEK range=0-1500 rated=yes", "SEEK range=1700-1300"]))
        case 16..<26: return .line(slot: slot, rng.pick(["NEW", "NEW rounds=ghost", "NEW game=hangman mode=duel",
                                                         "NEW game=hangman mode=duel length=4", "NEW game=ghost",
                                                         "NEW clock=5 rounds=ghost", "NEW game=hangman mode=duel clock=60",
                                                         "NEW variant=challenge", "NEW variant=challenge rounds=ghost clock=5"]))
        case 26..<36:
            let bot = rng.pick(["easy", "medium", "hard"])
            return .line(slot: slot, "NEW bot=\(bot)" + (rng.chance(0.4) ? " first=bot" : "") + (rng.chance(0.3) ? " rounds=ghost" : "")
                         + (rng.chance(0.2) ? " clock=5" : "") + (rng.chance(0.25) ? " variant=challenge" : "")
                         + (rng.chance(0.2) ? rng.pick([" rated=yes", " rated=no"]) : ""))
        case 36..<48:
            var line = "NEW game=hangman"
            if rng.chance(0.8) { line += " mode=" + rng.pick(["evil", "fair", "phrase", "evil", "fair"]) }
            if rng.chance(0.3) { line += " length=" + rng.pick(["3", "4", "5", "6", "any"]) }
            if rng.chance(0.3) { line += " misses=\(rng.int(1...8))" }
            if rng.chance(0.1) { line = "NEW game=hangman mode=duel bot=guesser" + (rng.chance(0.5) ? " length=3" : "") }
            if rng.chance(0.15) { line += rng.pick([" clock=5", " clock=3"]) }
            return .line(slot: slot, line)
        case 48..<58: return .code(slot: slot, n: rng.int(0...20) + 1000)
        case 58..<68: return .line(slot: slot, "REMATCH")
        case 68..<74: return .token(slot: slot, prefix: "RESUME ", n: rng.int(0...50) + 1000)
        case 74..<76: return .line(slot: slot, "NAME " + rng.pick(Self.names))
        case 76..<78: return .line(slot: slot, passwordLine(session.name))
        case 78..<84: return .line(slot: slot, rng.pick(["LANG nl", "LANG en", "LANG xx", "SET lang nl", "SET hangman-mode fair",
                                                         "SET hangman-mode phrase", "SET hangman-length 4", "SET hangman-misses 3",
                                                         "SET hangman-length 9", "SETTINGS"]))
        case 84..<90: return .line(slot: slot, rng.pick(["SCORES", "SCORES 3 mode=match", "SCORES bot=easy", "SCORES game=hangman",
                                                         "SCORES game=hangman mode=duel", "NAMES", "NAMES 2", "NAMES prefix=a", "PING",
                                                         "TOP", "TOP variant=super 3", "TOP game=hangman", "PROFILE alice", "PROFILE bob",
                                                         "HISTORY", "HISTORY alice 5", "HISTORY carol"]))
        case 90..<92: return .line(slot: slot, "QUIT")
        case 92..<94: return .line(slot: slot, "HELP")
        default: return .line(slot: slot, rng.pick(["LEAVE", "p", "CLAIM", "RESTART", "ACCEPT", "DECLINE", "HINT", "WORD cat", "SOLVE cat"]))
        }
    }

    private mutating func playing(_ slot: Int, _ table: Lobby.Room, _ seat: Int) -> FuzzStep {
        let other = 1 - seat
        if let offer = table.offer, offer.seat == other, rng.chance(0.4) {
            return .line(slot: slot, rng.chance(0.5) ? "ACCEPT" : "DECLINE")
        }
        if table.isAway(other), rng.chance(table.game.toMove == other ? 0.4 : 0.1) { return .line(slot: slot, "CLAIM") }
        let r = rng.int(0...99)
        switch r {
        case 0..<4: return .line(slot: slot, "RESTART")
        case 4..<7: return .line(slot: slot, rng.pick(["LANG nl", "LANG en"]))
        case 7..<9: return .line(slot: slot, "LEAVE")
        case 9..<10: return .line(slot: slot, "QUIT")
        case 10..<12: return .token(slot: slot, prefix: "RESUME ", n: rng.int(0...50) + 1000)
        case 12..<14: return .line(slot: slot, rng.pick(["HINT", "ACCEPT", "DECLINE", "SEEK", "NAME dave", "REMATCH", "SET lang nl", "SCORES",
                                                         "REGISTER first secret", "PASSWORD second secret", "NAME dave first secret"]))
        default: break
        }
        guard table.game.toMove == seat || rng.chance(0.1) else {
            // Not our turn: usually someone else acts.
            if rng.chance(0.5) { return .advance(rng.pick([0.5, 1, 61])) }
            let s = rng.int(0...(FuzzRun.slots - 1))
            return s == slot ? .line(slot: slot, "PING") : .line(slot: slot, rng.pick(["p", "c", "PING"]))
        }
        return .line(slot: slot, move(table.game, table.lang))
    }

    /// A plausible move: Ghost letters that keep a word possible, a guess not
    /// made yet, a whole word of the right length, or the setter's word.
    private mutating func move(_ game: any GameKit.Game, _ lang: String) -> String {
        let list = lobbyLists[lang] ?? WordList(words: [String]())
        if let h = game as? HangmanGame {
            let fitting = (lobbyLists[lang].map { l in Self.words.filter { l.isWord($0) } } ?? []).filter { $0.count == h.length }
            if h.toMove == 0 {
                return "WORD " + (rng.chance(0.85) && !fitting.isEmpty ? rng.pick(fitting) : rng.pick(Self.words))
            }
            if rng.chance(0.12) {
                let guess = rng.chance(0.7) && !fitting.isEmpty ? rng.pick(fitting) : rng.pick(Self.words)
                return (rng.chance(0.5) ? "SOLVE " : "WORD ") + guess
            }
            let open = "etaoinshrdlcupgjkz".filter { !h.guessed.contains($0) }
            return String(rng.chance(0.9) && !open.isEmpty ? rng.pick(Array(open)) : rng.pick(Array("abcdefghijklmnopqrstuvwxyz")))
        }
        let fragment = game.publicFields.first { $0.key == "fragment" }?.value ?? ""
        // Bluff and challenge: answer a challenge (a word of the list, a
        // non-word, or nonsense), concede, or challenge now and then.
        if let ghost = game as? ChallengeGhost {
            if ghost.isChallenged {
                let words = Self.words.filter { $0.hasPrefix(fragment) && $0.count > fragment.count }
                switch rng.int(0...9) {
                case 0..<5 where !words.isEmpty: return "WORD " + rng.pick(words)
                case 0..<7: return "WORD " + fragment + rng.pick(["zzq", "e", "x"])
                case 7: return "WORD " + rng.pick(Self.words)
                case 8: return rng.pick(["CHALLENGE", "p", "LETTER x front"])
                default: return "CONCEDE"
                }
            }
            if rng.chance(0.15) { return rng.chance(0.9) ? "CHALLENGE" : "CONCEDE" }
        }
        let next = Array(Set(Self.words.filter { $0.hasPrefix(fragment) && $0.count > fragment.count && list.node(for: $0) != nil }
            .map { $0[$0.index($0.startIndex, offsetBy: fragment.count)] }))
        let letter = rng.chance(0.85) && !next.isEmpty ? rng.pick(next) : rng.pick(Array("abcdefghijklmnopqrstuvwxyz"))
        return rng.chance(0.2) ? "LETTER \(letter)" : String(letter)
    }
}

/// The fuzzer's hashing: yescrypt at its lowest cost, done when the lobby
/// asks for the outcomes (at most 2 wait).
final class FuzzPasswordChecker: PasswordChecker {
    private var queued: [PasswordJob] = []
    func submit(_ job: PasswordJob) -> Bool {
        guard queued.count < 2 else { return false }
        queued.append(job)
        return true
    }
    func takeFinished() -> [PasswordOutcome] {
        defer { queued.removeAll() }
        return queued.map { job in
            switch job.work {
            case .make(let p): PasswordOutcome(ticket: job.ticket, hash: PasswordHash.make(p.text, cost: 1), matches: false)
            case .verify(let p, let hash): PasswordOutcome(ticket: job.ticket, hash: nil, matches: PasswordHash.verify(p.text, against: hash))
            }
        }
    }
}
