import Foundation
import Testing
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

/// Records what the lobby sends, per connection, in order; a close is
/// recorded as its BYE line, and nothing sent after it is recorded, as the
/// event loop does.
final class RecordingOutbox: Outbox {
    private(set) var sent: [(id: ConnectionID, line: String)] = []
    private(set) var closed: [ConnectionID] = []
    private var cursor = 0

    func send(_ line: ServerLine, to id: ConnectionID) {
        guard !closed.contains(id) else { return }
        sent.append((id, line.rendered))
    }
    func close(_ id: ConnectionID, _ code: ByeCode, _ text: String) {
        guard !closed.contains(id) else { return }
        sent.append((id, ServerLine.bye(code, text).rendered))
        closed.append(id)
    }

    /// Where the current command's lines start, for `discardCommand`.
    private var commandMark = (sent: 0, closed: 0)
    func beginCommand() { commandMark = (sent.count, closed.count) }
    func discardCommand() {
        sent.removeLast(max(0, sent.count - commandMark.sent))
        closed.removeLast(max(0, closed.count - commandMark.closed))
        cursor = min(cursor, sent.count)
    }
    /// Withdraws every line sent since `sent` had `count` entries (a lost turn).
    func withdraw(to count: Int) {
        sent.removeLast(max(0, sent.count - count))
        cursor = min(cursor, sent.count)
    }

    /// Lines sent since the last drain, grouped by connection.
    func drain() -> [ConnectionID: [String]] {
        var out: [ConnectionID: [String]] = [:]
        for (id, line) in sent[cursor...] { out[id, default: []].append(line) }
        cursor = sent.count
        return out
    }

    /// Every line ever sent to one connection.
    func all(to id: ConnectionID) -> [String] { sent.filter { $0.id == id }.map(\.line) }
}

/// Time that moves only when the test says so.
/// Log lines, recorded.
final class LogRecorder: @unchecked Sendable {
    var lines: [String] = []
}

final class ManualClock: LobbyClock {
    var wall = 1_700_000_000
    var monotonic: Double = 10_000

    func advance(_ seconds: Double) {
        monotonic += seconds
        wall += Int(seconds)
    }
}

/// Small lists for lobby tests (shared with LobbyComputerTests, which explains
/// what perfect play makes of them).
let lobbyLists: [String: WordList] = [
    "en": WordList(words: ["pea", "pear", "peach", "cat", "cats", "dog", "dogs"]),
    "nl": WordList(words: ["huis", "huisje", "kat", "katten"]),
]

/// A lobby with a recording outbox, a manual clock and a store in a fresh
/// temporary directory (removed when the harness that made it goes away).
/// Connection 1 is alice, 2 is bob, 3 is carol. `extraKinds` and `settings`
/// serve LobbyKindTests (a made-up kind, no computer delay).
final class Harness {
    let outbox = RecordingOutbox()
    let clock = ManualClock()
    let directory: String
    private let ownsDirectory: Bool
    let store: Store
    let lobby: Lobby
    /// The lobby's log lines.
    let logged = LogRecorder()

    /// With `directory`, opens the store another harness made (a restart);
    /// `lists`: the word lists (the small `lobbyLists` unless a test needs others).
    init(directory: String? = nil, settings: Lobby.Settings = Lobby.Settings(),
         extraKinds: [any GameDefinition] = [], lists: [String: WordList] = lobbyLists,
         log: @escaping (String) -> Void = { _ in }) throws {
        if let directory {
            self.directory = directory
            ownsDirectory = false
        } else {
            self.directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("ghostd-lobby-\(UUID().uuidString)").path
            ownsDirectory = true
        }
        store = try Store(directory: self.directory, durability: .normal)
        let logged = self.logged
        lobby = try Lobby(dictionaries: Dictionaries(lists: lists), store: store, outbox: outbox, clock: clock,
                          settings: settings, extraKinds: extraKinds, log: { logged.lines.append($0); log($0) })
    }

    deinit {
        store.close()
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// What the event loop does at the end of each turn.
    private func commit() {
        do { try store.commit() } catch { Issue.record("commit failed: \(error)") }
    }

    func connect(_ id: ConnectionID, address: String = "") {
        lobby.connected(id, address: address)
        commit()
    }

    func disconnect(_ id: ConnectionID) {
        lobby.disconnected(id)
        commit()
    }

    func send(_ id: ConnectionID, _ line: String) {
        lobby.received(.line(Array(line.utf8)), from: id)
        commit()
    }

    func tick() {
        lobby.tick()
        commit()
    }

    /// What the event loop does when the hashing pool wakes it: the
    /// passwords sent so far are hashed or checked (the lobby's default
    /// checker does it now, on this thread) and answered.
    func checkPasswords() {
        lobby.passwordsChecked()
        commit()
    }

    /// The passwords sent so far are answered first (`checkPasswords`).
    func drain(sourceLocation: SourceLocation = #_sourceLocation) -> [ConnectionID: [String]] {
        checkPasswords()
        #expect(lobby.storeError == nil, sourceLocation: sourceLocation)
        return outbox.drain()
    }

    /// Connects and names the connection; drops what that sent.
    func named(_ id: ConnectionID, _ name: String) {
        connect(id)
        send(id, "NAME \(name)")
        _ = drain()
    }

    /// alice (1) and bob (2) paired by SEEK in English: game 1, alice to move.
    /// Returns the two seats' resume tokens.
    @discardableResult
    func pairAliceAndBob(sourceLocation: SourceLocation = #_sourceLocation) throws -> (alice: String, bob: String) {
        named(1, "alice")
        named(2, "bob")
        send(1, "SEEK")
        send(2, "SEEK")
        let d = drain()
        return (try token(d[1], sourceLocation: sourceLocation), try token(d[2], sourceLocation: sourceLocation))
    }

    /// alice (1) and bob (2) paired by `SEEK variant=<variant>` (bob spells
    /// it `spelled`); carol (3) seeks Ghost meanwhile, hears of their queue
    /// by its variant, and is paired with neither. Checks every line of the
    /// pairing; returns the tokens.
    func pairInVariant(_ variant: String, spelled: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (alice: String, bob: String) {
        named(1, "alice")
        named(2, "bob")
        named(3, "carol")
        send(1, "SEEK variant=\(variant)")
        send(3, "SEEK")
        #expect(drain()[3]?.contains("WAITING game=ghost lang=en count=1 variant=\(variant)") == true, sourceLocation: sourceLocation)
        send(2, "SEEK variant=\(spelled)")
        let d = drain()
        #expect(d[3] == nil, sourceLocation: sourceLocation)
        let t = (alice: try token(d[1], sourceLocation: sourceLocation), bob: try token(d[2], sourceLocation: sourceLocation))
        func game(_ token: String) -> String {
            "GAME id=1 game=ghost lang=en players=alice,bob token=\(token) round=1 variant=\(variant)"
        }
        #expect(d[1] == [game(t.alice), "TURN id=1 player=alice fragment="], sourceLocation: sourceLocation)
        #expect(d[2] == ["OK SEEK lang=en", game(t.bob), "TURN id=1 player=alice fragment="], sourceLocation: sourceLocation)
        return t
    }

    /// Plays a game that `winner` wins because `loser` leaves it; drops the lines.
    func quickGame(winner: ConnectionID, loser: ConnectionID) {
        send(winner, "SEEK")
        send(loser, "SEEK")
        // A letter first: LEAVE before any move aborts the game instead (issue #24).
        send(winner, "p")
        send(loser, "LEAVE")
        _ = drain()
    }
}

/// Checks one connection's lines: an exact first word and code, loose text.
private func isErr(_ line: String?, _ code: ErrorCode) -> Bool {
    line?.hasPrefix("ERR \(code.rawValue) ") ?? false
}

/// The resume token on the GAME line among `lines`, checked to be 32 hex digits.
private func token(_ lines: [String]?, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let game = try #require(lines?.first { $0.hasPrefix("GAME ") }, sourceLocation: sourceLocation)
    let t = try #require(Message.parse(game)?["token"], "no token in \(game)", sourceLocation: sourceLocation)
    #expect(t.utf8.count == 32 && t.allSatisfy { "0123456789abcdef".contains($0) }, "token \(t)",
            sourceLocation: sourceLocation)
    return t
}

/// `record`: the receiver's head-to-head record (`record=1-0`), between two people who played before.
private func game(_ id: Int, _ players: String, _ token: String, round: Int = 1, lang: String = "en",
                  record: String? = nil) -> String {
    "GAME id=\(id) game=ghost lang=\(lang) players=\(players) token=\(token) round=\(round)" + (record.map { " record=\($0)" } ?? "")
}

private let aliceAway = "INFO alice is away. The game waits; if they are still away 60 s into their turn, you may CLAIM it."
private let bobAway = "INFO bob is away. The game waits; if they are still away 60 s into their turn, you may CLAIM it."

@Suite struct LobbyTests {
    @Test func helloOnConnect() throws {
        let h = try Harness()
        h.connect(1)
        #expect(h.drain() == [1: ["HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl"]])
        #expect(h.lobby.connectionCount == 1)
        #expect(Lobby.protocolVersion == 2)
        #expect(h.lobby.activeGames == 0)
        #expect(h.lobby.nextDeadline == nil)
    }

    @Test func nameAndPing() throws {
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        h.send(1, "NAME alice")
        #expect(h.drain() == [1: ["OK NAME name=alice lang=en"]])
        h.send(1, "PING")
        #expect(h.drain() == [1: ["OK PING"]])
        h.send(1, "")
        h.send(1, "   ")
        #expect(h.drain() == [:])
    }

    @Test func help() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "HELP")
        let lines = try #require(h.drain()[1])
        // Data lines with their own keyword (protocol 2; INFO is only ever an event), one per command,
        // then one per game kind, as the kind declares it (issue #25).
        #expect(lines == CommandTable.specs.map { "HELP \($0.synopsis) - \($0.help)" } + [
            "HELP NEW [game=ghost] [bot=easy|medium|hard [first=bot]] [variant=super|challenge] [rounds=ghost] - Ghost (the default game): add a letter without making a word; variant=super adds at either end, variant=challenge lets you bluff",
            "HELP NEW game=hangman [mode=evil|fair|phrase|duel] [length=<n>|any] [misses=<n>] [bot=guesser] - Hangman: guess the word letter by letter; mode=evil|fair|phrase against the computer, mode=duel between two",
        ] + ["OK HELP"])
        #expect(lines.count == Verb.allCases.count + 2 + 1)
        #expect(lines.contains("HELP NEW [rounds=ghost] [variant=super|challenge] [bot=easy|medium|hard [first=bot|me]] | game=hangman [mode=evil|fair|phrase|duel] "
                               + "[length=<n>|any] [misses=<m>] [bot=guesser]; either with [clock=<seconds>] [watch=no] [rated=yes|no] - "
                               + "open a private game (the reply carries its join code), or play the computer at once (Hangman: at once unless mode=duel); "
                               + "clock= gives each move that many seconds; watch=no keeps watchers out; rated (registered names, the computer) unless rated=no"))
        #expect(lines.contains("HELP SCORES [n] [mode=game|match] [bot=easy|medium|hard] | game=hangman [mode=evil|fair|phrase|duel] [n] - a high-score list, top n (1-100, default 10): Ghost's by wins, Hangman's best solved games"))
        #expect(lines.first == "HELP NAME <name> [<password>] - identify yourself: 1-16 letters, digits, - or _; a registered name needs its password, the rest of the line after one space")
        #expect(lines.contains("HELP REGISTER <password> - register the name you use (nobody's yet) with a password: the rest of the line after one space, 8-200 characters, spaces allowed"))
        #expect(lines.contains("HELP PASSWORD <new password> - logged in to a registered name: change its password to the rest of the line after one space"))
    }

    @Test func seekPairsFirstSeekerMovesFirst() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK")
        let waiting = h.drain()
        #expect(waiting.keys.sorted() == [1])
        #expect(waiting[1]?.first == "OK SEEK lang=en")
        #expect(waiting[1]?.count == 2)
        #expect(waiting[1]?.last?.hasPrefix("INFO ") == true)
        #expect(h.lobby.activeGames == 0)
        h.send(2, "SEEK")
        let d = h.drain()
        let ta = try token(d[1]), tb = try token(d[2])
        #expect(d == [
            1: [game(1, "alice,bob", ta), "TURN id=1 player=alice fragment="],
            2: ["OK SEEK lang=en", game(1, "alice,bob", tb), "TURN id=1 player=alice fragment="],
        ])
        #expect(h.lobby.activeGames == 1)
    }

    @Test func tokensDifferAndGoOnlyToTheirOwnPlayer() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        #expect(t.alice != t.bob)
        h.send(1, "p")
        h.disconnect(1)
        h.connect(3)
        h.send(3, "RESUME \(t.alice)")
        h.send(2, "RESTART")
        h.send(3, "ACCEPT")
        _ = h.drain()
        for (mine, theirs) in [(1, t.bob), (3, t.bob), (2, t.alice)] {
            #expect(!h.outbox.all(to: mine).contains { $0.contains(theirs) }, "connection \(mine)")
        }
        #expect(h.outbox.all(to: 2).filter { $0.contains(t.bob) }.count == 2)
        #expect(h.outbox.all(to: 3).filter { $0.contains(t.alice) }.count == 2)
        // A new game has new tokens.
        h.send(3, "LEAVE")
        h.send(2, "SEEK")
        h.send(3, "SEEK")
        let d = h.drain()
        let next = [try token(d[2]), try token(d[3])]
        #expect(Set(next + [t.alice, t.bob]).count == 4)
    }

    @Test func fullGameToWordLoss() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        #expect(h.drain() == [
            1: ["OK LETTER letter=p fragment=p", "MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"],
            2: ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"],
        ])
        h.send(2, "LETTER E")
        #expect(h.drain() == [
            1: ["MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe"],
            2: ["OK LETTER letter=e fragment=pe", "MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe"],
        ])
        h.send(1, "A")
        #expect(h.drain() == [
            1: ["OK LETTER letter=a fragment=pea", "MOVE id=1 player=alice letter=a fragment=pea", "TURN id=1 player=bob fragment=pea"],
            2: ["MOVE id=1 player=alice letter=a fragment=pea", "TURN id=1 player=bob fragment=pea"],
        ])
        h.send(2, "letter r")
        let over = "OVER id=1 winner=alice loser=bob reason=word fragment=pear"
        let info = "INFO \"pear\" is a word longer than 3 letters, so bob loses."
        let ranks = ["RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]
        #expect(h.drain() == [
            1: ["MOVE id=1 player=bob letter=r fragment=pear", over, info] + ranks,
            2: ["OK LETTER letter=r fragment=pear", "MOVE id=1 player=bob letter=r fragment=pear", over, info] + ranks,
        ])
        #expect(h.lobby.activeGames == 0)
        let result = try #require(try h.store.result(game: 1))
        #expect([result.winner, result.loser, result.reason, result.finalState] == ["alice", "bob", "word", "fragment=pear"])
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["p", "e", "a", "r"])
        // Both are back in the lobby: no game, and free to seek again.
        h.send(1, "s")
        let after = h.drain()
        #expect(after.keys.sorted() == [1])
        #expect(isErr(after[1]?.first, .notInGame))
        h.send(2, "SEEK")
        h.send(1, "SEEK")
        let d = h.drain()
        let ta = try token(d[1]), tb = try token(d[2])
        // Their next game carries each one's record against the other: alice won.
        #expect(d == [
            1: ["OK SEEK lang=en", game(2, "bob,alice", ta, record: "1-0"), "TURN id=2 player=bob fragment="],
            2: ["OK SEEK lang=en", "INFO Waiting for another player who seeks a game in en.",
                game(2, "bob,alice", tb, record: "0-1"), "TURN id=2 player=bob fragment="],
        ])
    }

    @Test func fullGameToDeadLoss() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        _ = h.drain()
        h.send(2, "x")
        // The word "p" could have led to: the shortest, then the first alphabetically.
        let over = "OVER id=1 winner=alice loser=bob reason=dead fragment=px word=pear"
        let info = "INFO No word starts with \"px\", so bob loses; \"p\" could have led to \"pear\"."
        let ranks = ["RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]
        #expect(h.drain() == [
            1: ["MOVE id=1 player=bob letter=x fragment=px", over, info] + ranks,
            2: ["OK LETTER letter=x fragment=px", "MOVE id=1 player=bob letter=x fragment=px", over, info] + ranks,
        ])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func deadLossOnAShortWord() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "d")
        h.send(2, "o")
        h.send(1, "g")
        _ = h.drain()
        // "dog" is extended by "dogs", so alive; "dogs" is a word of 4.
        h.send(2, "s")
        #expect(h.drain()[1] == ["MOVE id=1 player=bob letter=s fragment=dogs",
                                 "OVER id=1 winner=alice loser=bob reason=word fragment=dogs",
                                 "INFO \"dogs\" is a word longer than 3 letters, so bob loses.",
                                 "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"])
    }

    @Test func outOfTurnLetterIsRefusedAndChangesNothing() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(2, "p")
        let refused = h.drain()
        #expect(refused.keys.sorted() == [2])
        #expect(refused[2]?.count == 1)
        #expect(isErr(refused[2]?.first, .notYourTurn))
        #expect(refused[2]?.first?.contains("alice") == true)
        // alice's legal move still works on the empty fragment.
        h.send(1, "c")
        #expect(h.drain()[1] == ["OK LETTER letter=c fragment=c", "MOVE id=1 player=alice letter=c fragment=c",
                                 "TURN id=1 player=bob fragment=c"])
        // alice twice in a row is refused too.
        h.send(1, "a")
        let twice = h.drain()
        #expect(twice.keys.sorted() == [1])
        #expect(twice[1]?.count == 1)
        #expect(isErr(twice[1]?.first, .notYourTurn))
        h.send(2, "a")
        #expect(h.drain()[2]?.first == "OK LETTER letter=a fragment=ca")
        #expect(h.lobby.activeGames == 1)
    }

    @Test func letterOutsideAGame() throws {
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        h.send(1, "p")
        let unnamed = h.drain()
        #expect(unnamed[1]?.count == 1)
        #expect(isErr(unnamed[1]?.first, .notInGame))
        h.send(1, "NAME alice")
        _ = h.drain()
        h.send(1, "LETTER q")
        let named = h.drain()
        #expect(named[1]?.count == 1)
        #expect(isErr(named[1]?.first, .notInGame))
        // Still not in a game while seeking.
        h.send(1, "SEEK")
        _ = h.drain()
        h.send(1, "q")
        #expect(isErr(h.drain()[1]?.first, .notInGame))
    }

    /// Protocol.md §6: framing, encoding, control characters, the verb, its
    /// arguments, then the state; the first that applies is the one reported.
    @Test func errorPrecedence() throws {
        let unknown = "ERR unknown-command unknown command; play one letter per line, or send HELP for the commands"
        let notALetter = "ERR not-a-letter play exactly one letter a-z"
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        // Before NAME: argument errors before no-name.
        h.send(1, "SEEK rounds=two")
        #expect(h.drain()[1] == ["ERR bad-arguments usage: SEEK [game=ghost|hangman] [rounds=ghost] [clock=<seconds>] [variant=super|challenge] [rated=yes|no] [range=<low>-<high>]"])
        h.send(1, "SEEK rounds=ghost ROUNDS=ghost")
        #expect(h.drain()[1] == ["ERR bad-arguments rounds= is given twice"])
        h.lobby.received(.line([0xFF, 0x1B]), from: 1)
        #expect(h.drain()[1] == ["ERR bad-encoding lines must be UTF-8"])
        h.send(1, "FOO\u{1B}")
        #expect(h.drain()[1] == ["ERR bad-character control characters are not allowed"])
        h.send(1, "FOO rounds=ghost rounds=ghost")
        #expect(h.drain()[1] == [unknown])
        // Outside a game: a letter is a state error, a non-letter an argument error, two letters no verb.
        h.send(1, "NAME alice")
        _ = h.drain()
        h.send(1, "a")
        #expect(h.drain()[1] == ["ERR not-in-game you are not in a game; SEEK, NEW or JOIN one"])
        h.send(1, "7")
        #expect(h.drain()[1] == [notALetter])
        h.send(1, "ab")
        #expect(h.drain()[1] == [unknown])
        // Seeking: a bad language before busy.
        h.send(1, "SEEK")
        _ = h.drain()
        h.send(1, "LANG xx")
        #expect(h.drain()[1] == ["ERR unknown-language languages here: en,nl"])
        h.send(1, "LEAVE")
        _ = h.drain()

        // In a game, not my turn: the same order.
        h.named(2, "bob")
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        _ = h.drain()
        h.send(2, "a")
        #expect(h.drain()[2] == ["ERR not-your-turn it is alice's turn"])
        h.send(2, "7")
        #expect(h.drain()[2] == [notALetter])
        h.send(2, "ab")
        #expect(h.drain()[2] == [unknown])
        h.send(2, "LETTER ab")
        #expect(h.drain()[2] == ["ERR not-a-letter play exactly one letter a-z, as LETTER <c>"])
        h.send(2, "NAME bot-x")
        #expect(h.drain()[2] == ["ERR bad-name names starting with bot- are kept for the computer"])
        h.send(2, "NAME bad!")
        #expect(h.drain()[2] == ["ERR bad-name a name is 1-16 letters, digits, - or _"])
        h.send(2, "NAME bobby")
        #expect(h.drain()[2] == ["ERR busy you cannot change your name during a game, a seek or a private game"])
        // None of that changed anything.
        h.send(1, "p")
        #expect(h.drain()[1]?.first == "OK LETTER letter=p fragment=p")
    }

    @Test func aSeekerWhoWaitsLearnsWhoWaitsInOtherQueues() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.named(3, "carol")
        h.named(4, "dave")
        h.send(1, "LANG nl")
        h.send(1, "SEEK")
        h.send(2, "SEEK rounds=ghost")
        _ = h.drain()
        h.send(3, "SEEK")
        #expect(h.drain() == [3: ["OK SEEK lang=en", "INFO Waiting for another player who seeks a game in en.",
                                  "WAITING game=ghost lang=en rounds=ghost count=1", "WAITING game=ghost lang=nl count=1"]])
        // Paired at once: no WAITING.
        h.send(4, "SEEK rounds=ghost")
        #expect(h.drain()[4]?.contains { $0.hasPrefix("WAITING") } == false)
    }

    @Test("Issue 14: waiting seekers are told when other queues change (WAITING, count=0 for one that emptied), at most once a second")
    func waitingSeekersHearOfChangesInOtherQueues() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.named(3, "carol")
        h.named(4, "dave")
        h.named(5, "eve")
        h.send(1, "LANG nl")
        h.send(1, "SEEK")
        h.tick()
        _ = h.drain()
        // bob seeks in English: he hears of alice's queue at once, and she of
        // his a second after she was last told (her own seek).
        h.send(2, "SEEK")
        #expect(h.drain()[2]?.last == "WAITING game=ghost lang=nl count=1")
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 1)
        h.tick()
        #expect(h.drain().isEmpty)
        h.clock.advance(1)
        h.tick()
        #expect(h.drain() == [1: ["WAITING game=ghost lang=en count=1"]])
        // carol seeks a match: within the second since the last news, nobody is told yet.
        h.clock.advance(0.5)
        h.send(3, "SEEK rounds=ghost")
        #expect(h.drain()[3] == ["OK SEEK lang=en rounds=ghost", "INFO Waiting for another player who seeks a match in en.",
                                 "WAITING game=ghost lang=en count=1", "WAITING game=ghost lang=nl count=1"])
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 0.5)
        h.tick()
        #expect(h.drain().isEmpty)
        // eve seeks a Dutch match and leaves again within the same second: no news of her.
        h.send(5, "LANG nl")
        h.send(5, "SEEK rounds=ghost")
        h.send(5, "LEAVE")
        _ = h.drain()
        h.clock.advance(0.5)
        h.tick()
        #expect(h.drain() == [1: ["WAITING game=ghost lang=en rounds=ghost count=1"],
                              2: ["WAITING game=ghost lang=en rounds=ghost count=1"]])
        #expect(h.lobby.nextDeadline == nil)
        // dave pairs with bob: the English queue empties, and those still waiting hear count=0.
        h.clock.advance(5)
        h.send(4, "SEEK")
        _ = h.drain()
        h.tick()
        #expect(h.drain() == [1: ["WAITING game=ghost lang=en count=0"], 3: ["WAITING game=ghost lang=en count=0"]])
        // alice stops: carol is the last seeker, and hears that the Dutch queue emptied.
        h.clock.advance(5)
        h.send(1, "LEAVE")
        _ = h.drain()
        h.tick()
        #expect(h.drain() == [3: ["WAITING game=ghost lang=nl count=0"]])
        // A seeker who disconnects empties their queue too.
        h.clock.advance(5)
        h.send(1, "SEEK")
        _ = h.drain()
        h.tick()
        #expect(h.drain() == [3: ["WAITING game=ghost lang=nl count=1"]])
        h.clock.advance(5)
        h.disconnect(1)
        h.tick()
        #expect(h.drain() == [3: ["WAITING game=ghost lang=nl count=0"]])
    }

    @Test func seekOrNewBeforeName() throws {
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        for line in ["SEEK", "NEW", "JOIN ABCDE"] {
            h.send(1, line)
            let d = h.drain()
            #expect(d.keys.sorted() == [1])
            #expect(d[1]?.count == 1)
            #expect(isErr(d[1]?.first, .noName), "\(line)")
        }
        #expect(h.lobby.activeGames == 0)
    }

    @Test func newAndJoin() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW")
        let hosted = h.drain()
        let ok = try #require(hosted[1]?.first)
        let msg = try #require(Message.parse(ok))
        let code = try #require(msg["code"])
        #expect(ok == "OK NEW code=\(code) lang=en")
        #expect(code.count == 8)
        #expect(code.allSatisfy { "0123456789ABCDEFGHJKMNPQRSTVWXYZ".contains($0) })
        #expect(hosted[1]?.count == 2)
        #expect(hosted[1]?.last?.hasPrefix("INFO ") == true)
        #expect(h.lobby.activeGames == 0)

        h.send(2, "JOIN \(code.lowercased())")
        let d = h.drain()
        let ta = try token(d[1]), tb = try token(d[2])
        #expect(d == [
            1: [game(1, "alice,bob", ta), "TURN id=1 player=alice fragment="],
            2: ["OK JOIN code=\(code) lang=en", game(1, "alice,bob", tb), "TURN id=1 player=alice fragment="],
        ])
        #expect(h.lobby.activeGames == 1)
        // The code is used up.
        h.named(3, "carol")
        h.send(3, "JOIN \(code)")
        #expect(isErr(h.drain()[3]?.first, .noSuchGame))
    }

    @Test func joinOwnCode() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "NEW")
        let first = try #require(h.drain()[1]?.first)
        let code = try #require(Message.parse(first)?["code"])
        h.send(1, "JOIN \(code)")
        let d = h.drain()
        #expect(d.keys.sorted() == [1])
        #expect(d[1]?.count == 1)
        #expect(isErr(d[1]?.first, .ownGame), "got \(d[1] ?? [])")
        #expect(h.lobby.activeGames == 0)
    }

    @Test func joinBadCode() throws {
        let h = try Harness()
        h.named(2, "bob")
        h.send(2, "JOIN ZZZZZ")
        let d = h.drain()
        #expect(d[2]?.count == 1)
        #expect(isErr(d[2]?.first, .noSuchGame))
    }

    @Test func leaveClosesAHostedGame() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW")
        let first = try #require(h.drain()[1]?.first)
        let code = try #require(Message.parse(first)?["code"])
        h.send(1, "LEAVE")
        #expect(h.drain() == [1: ["OK LEAVE"]])
        h.send(2, "JOIN \(code)")
        #expect(isErr(h.drain()[2]?.first, .noSuchGame))
    }

    @Test func nameTakenIsCaseInsensitiveAndFreedOnDisconnect() throws {
        let h = try Harness()
        h.named(1, "Alice")
        h.connect(2)
        _ = h.drain()
        for line in ["NAME alice", "NAME ALICE", "NAME Alice"] {
            h.send(2, line)
            let d = h.drain()
            #expect(d.keys.sorted() == [2])
            #expect(d[2]?.count == 1)
            #expect(isErr(d[2]?.first, .nameTaken), "\(line)")
        }
        // The holder may change the case of its own name.
        h.send(1, "NAME ALICE")
        #expect(h.drain() == [1: ["OK NAME name=ALICE lang=en"]])
        h.disconnect(1)
        #expect(h.lobby.connectionCount == 1)
        #expect(h.drain() == [:])
        h.send(2, "NAME alice")
        #expect(h.drain() == [2: ["OK NAME name=alice lang=en"]])
    }

    @Test func renamingFreesTheOldName() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "NAME alicia")
        #expect(h.drain() == [1: ["OK NAME name=alicia lang=en"]])
        h.connect(2)
        _ = h.drain()
        h.send(2, "NAME alice")
        #expect(h.drain() == [2: ["OK NAME name=alice lang=en"]])
    }

    @Test func languagesPairSeparately() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.named(3, "carol")
        h.send(1, "LANG nl")
        #expect(h.drain() == [1: ["OK LANG lang=nl"]])
        h.send(1, "SEEK")
        #expect(h.drain()[1]?.first == "OK SEEK lang=nl")
        h.send(2, "SEEK")
        let bob = h.drain()
        #expect(bob.keys.sorted() == [2])
        #expect(bob[2]?.first == "OK SEEK lang=en")
        #expect(h.lobby.activeGames == 0)
        h.send(3, "lang NL")
        #expect(h.drain() == [3: ["OK LANG lang=nl"]])
        h.send(3, "SEEK")
        let d = h.drain()
        let ta = try token(d[1]), tc = try token(d[3])
        #expect(d == [
            1: [game(1, "alice,carol", ta, lang: "nl"), "TURN id=1 player=alice fragment="],
            3: ["OK SEEK lang=nl", game(1, "alice,carol", tc, lang: "nl"), "TURN id=1 player=alice fragment="],
        ])
        // The Dutch game uses the Dutch list: "huis" loses for carol.
        h.send(1, "h")
        h.send(3, "u")
        h.send(1, "i")
        _ = h.drain()
        h.send(3, "s")
        #expect(h.drain()[1] == ["MOVE id=1 player=carol letter=s fragment=huis",
                                 "OVER id=1 winner=alice loser=carol reason=word fragment=huis",
                                 "INFO \"huis\" is a word longer than 3 letters, so carol loses.",
                                 "RANK name=alice rank=1 wins=1", "RANK name=carol rank=2 wins=0"])
    }

    @Test func unknownLanguage() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "LANG xx")
        let d = h.drain()
        #expect(d[1]?.count == 1)
        #expect(isErr(d[1]?.first, .unknownLanguage))
        // The language did not change.
        h.send(1, "SEEK")
        #expect(h.drain()[1]?.first == "OK SEEK lang=en")
    }

    // MARK: Away and back

    @Test func disconnectMidGameAdjourns() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        _ = h.drain()
        h.disconnect(1)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        #expect(h.lobby.activeGames == 1)
        #expect(h.lobby.connectionCount == 1)
        #expect(try h.store.result(game: 1) == nil)
        #expect(try h.store.activeGames().map(\.id) == [1])
        // bob is still in the game and may move; the letter goes to him alone.
        h.send(2, "e")
        #expect(h.drain() == [2: ["OK LETTER letter=e fragment=pe", "MOVE id=1 player=bob letter=e fragment=pe",
                                  "TURN id=1 player=alice fragment=pe"]])
        // And he cannot start another game meanwhile.
        h.send(2, "SEEK")
        #expect(isErr(h.drain()[2]?.first, .busy))
        // alice's name is kept for her: she comes back with RESUME (issue #26).
        h.connect(3)
        h.send(3, "NAME alice")
        #expect(h.drain()[3]?.last == "ERR name-taken alice has a game waiting for its player, who comes back with RESUME")
    }

    @Test func bothAwayKeepsTheGame() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        _ = h.drain()
        h.disconnect(1)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        h.disconnect(2)
        #expect(h.drain() == [:])
        #expect(h.lobby.activeGames == 1)
        #expect(h.lobby.connectionCount == 0)
        // Nobody is at it: it leaves memory a minute later (Lifecycle.swift).
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
        h.clock.advance(10)
        h.tick()
        #expect(h.drain() == [:])
        // alice left on her turn, so her grace period runs from then (Protocol.md section 7).
        h.connect(4)
        h.send(4, "RESUME \(t.bob)")
        #expect(h.drain()[4] == ["HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl", "OK RESUME id=1",
                                 game(1, "alice,bob", t.bob), "ADJOURNED id=1 player=alice grace=50",
                                 "TURN id=1 player=alice fragment=pe last=bob"])
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 50)
    }

    @Test func leaveMidGameLoses() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts (issue #24)
        _ = h.drain()
        h.send(2, "LEAVE")
        let over = "OVER id=1 winner=alice loser=bob reason=left fragment=p"
        let info = "INFO bob left the game."
        let ranks = ["RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]
        #expect(h.drain() == [
            1: [over, info] + ranks,
            2: ["OK LEAVE", over, info] + ranks,
        ])
        #expect(h.lobby.activeGames == 0)
        h.send(2, "LEAVE")
        #expect(isErr(h.drain()[2]?.first, .notInGame))
    }

    @Test func leaveWhileTheOpponentIsAwayLoses() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts (issue #24)
        _ = h.drain()
        h.disconnect(1)
        _ = h.drain()
        h.send(2, "LEAVE")
        #expect(h.drain() == [2: ["OK LEAVE", "OVER id=1 winner=alice loser=bob reason=left fragment=p",
                                  "INFO bob left the game.",
                                  "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"]])
        #expect(h.lobby.activeGames == 0)
        // The game is over: its token no longer resumes it, but tells how it ended, and when.
        h.connect(3)
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain()[3]?.dropFirst() == ["OK RESUME id=1 status=over", "OVER id=1 winner=alice loser=bob reason=left fragment=p ended=1700000000"])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func leaveWhileSeekingCancels() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK")
        _ = h.drain()
        h.send(1, "LEAVE")
        #expect(h.drain() == [1: ["OK LEAVE"]])
        h.send(2, "SEEK")
        let d = h.drain()
        #expect(d.keys.sorted() == [2])
        #expect(d[2]?.first == "OK SEEK lang=en")
        #expect(d[2]?.count == 2)
        #expect(h.lobby.activeGames == 0)
    }

    @Test func disconnectWhileSeekingCancels() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK")
        h.disconnect(1)
        _ = h.drain()
        h.send(2, "SEEK")
        #expect(h.drain().keys.sorted() == [2])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func busyWhileSeekingOrPlaying() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "SEEK")
        _ = h.drain()
        for line in ["SEEK", "NEW", "NAME alicia", "LANG nl"] {
            h.send(1, line)
            let d = h.drain()
            #expect(d[1]?.count == 1)
            #expect(isErr(d[1]?.first, .busy), "\(line)")
        }
        h.named(2, "bob")
        h.send(2, "SEEK")
        _ = h.drain()
        for line in ["SEEK", "NEW", "NAME alicia", "JOIN ABCDE"] {
            h.send(1, line)
            let d = h.drain()
            #expect(d[1]?.count == 1)
            #expect(isErr(d[1]?.first, .busy), "\(line)")
        }
    }

    @Test func quitSendsOKAndCloses() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "QUIT")
        #expect(h.drain() == [1: ["OK QUIT", "BYE quit goodbye"]])
        #expect(h.outbox.closed == [1])
    }

    @Test func quitMidGameAdjourns() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "QUIT")
        #expect(h.drain() == [1: ["OK QUIT", "BYE quit goodbye"]])
        #expect(h.outbox.closed == [1])
        // The event loop reports the closed connection.
        h.disconnect(1)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        #expect(h.lobby.activeGames == 1)
        #expect(try h.store.result(game: 1) == nil)
    }

    @Test func resumeAfterDisconnect() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.disconnect(1)
        // Nobody else may take the name meanwhile (issue #26).
        h.connect(4)
        h.send(4, "NAME alice")
        #expect(h.drain()[4]?.last == "ERR name-taken alice has a game waiting for its player, who comes back with RESUME")
        // A new connection, without a NAME, takes alice's seat back.
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain() == [
            3: ["OK RESUME id=1", game(1, "alice,bob", t.alice), "TURN id=1 player=bob fragment=p last=alice"],
            2: ["RETURNED id=1 player=alice"],
        ])
        #expect(h.outbox.closed == [])
        h.send(4, "SEEK")
        #expect(isErr(h.drain()[4]?.first, .noName))
        #expect(h.lobby.activeGames == 1)
        // Play goes on with the new connection.
        h.send(2, "e")
        #expect(h.drain() == [
            2: ["OK LETTER letter=e fragment=pe", "MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe"],
            3: ["MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe"],
        ])
        h.send(3, "a")
        #expect(h.drain()[3]?.first == "OK LETTER letter=a fragment=pea")
        // The resumed connection holds the name now.
        h.send(4, "NAME alice")
        #expect(isErr(h.drain()[4]?.last, .nameTaken))
        // Resuming your own seat again just repeats the state.
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain() == [3: ["OK RESUME id=1", game(1, "alice,bob", t.alice), "TURN id=1 player=bob fragment=pea last=alice"]])
        // bob's token cannot be used from alice's seat.
        h.send(3, "RESUME \(t.bob)")
        #expect(isErr(h.drain()[3]?.first, .busy))
    }

    @Test func resumeFromANamedConnectionTakesTheSeatsName() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.disconnect(1)
        // carol, seeking, resumes alice's seat: her seek ends and she is alice now.
        h.named(3, "carol")
        h.send(3, "SEEK")
        _ = h.drain()
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain() == [
            2: ["RETURNED id=1 player=alice"],
            3: ["OK RESUME id=1", game(1, "alice,bob", t.alice), "TURN id=1 player=alice fragment="],
        ])
        h.named(4, "carol")
        h.named(5, "dave")
        h.send(5, "SEEK")
        #expect(h.drain()[5]?.count == 2)  // OK SEEK and the waiting INFO: carol's seek is gone
        // A connection in another game cannot resume.
        h.send(4, "SEEK")
        _ = h.drain()
        h.disconnect(3)
        _ = h.drain()
        h.send(4, "RESUME \(t.alice)")
        #expect(isErr(h.drain()[4]?.first, .busy))
    }

    @Test func resumeWithABadToken() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.disconnect(1)
        h.connect(3)
        _ = h.drain()
        for bad in ["00000000000000000000000000000000", String(t.alice.dropLast()), t.alice + "0", "nope"] {
            h.send(3, "RESUME \(bad)")
            #expect(h.drain() == [3: ["ERR bad-token no game in progress has that token"]], "\(bad)")
        }
        h.send(3, "RESUME")
        #expect(isErr(h.drain()[3]?.first, .badArguments))
        #expect(h.lobby.activeGames == 1)
    }

    @Test func resumeTakesOverAStaleConnection() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        // alice's old connection (1) is still in the seat when she comes back on 3.
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain() == [
            1: ["BYE replaced your seat in game 1 was resumed from another connection"],
            3: ["OK RESUME id=1", game(1, "alice,bob", t.alice), "TURN id=1 player=alice fragment="],
        ])
        #expect(h.outbox.closed == [1])
        // When the old connection goes, nothing happens to the game.
        h.disconnect(1)
        #expect(h.drain() == [:])
        #expect(h.lobby.activeGames == 1)
        h.send(3, "p")
        #expect(h.drain() == [
            2: ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"],
            3: ["OK LETTER letter=p fragment=p", "MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"],
        ])
    }

    @Test func claimTooEarlyAndWhileTheOpponentIsHere() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable your opponent is here"]])
        // alice is to move and goes away: the grace clock runs at once.
        h.disconnect(1)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable the grace period ends in 60 s"]])
        h.clock.advance(30)
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable the grace period ends in 30 s"]])
        h.named(3, "carol")
        h.send(3, "CLAIM")
        #expect(isErr(h.drain()[3]?.first, .notInGame))
        #expect(h.lobby.activeGames == 1)
    }

    @Test func graceClockRunsOnlyWhileTheAbsentPlayerIsToMove() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "e")
        h.send(1, "a")
        _ = h.drain()
        // alice leaves while bob is to move: no clock runs.
        h.disconnect(1)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        #expect(h.lobby.nextDeadline == nil)
        h.clock.advance(1000)
        h.tick()
        #expect(h.drain() == [:])
        h.send(2, "CLAIM")
        let refused = h.drain()
        #expect(refused.keys.sorted() == [2])
        #expect(refused[2]?.count == 1)
        #expect(isErr(refused[2]?.first, .notClaimable))
        // bob moves: now the absent alice is to move and her 60 s start.
        h.send(2, "c")
        _ = h.drain()
        let start = h.clock.monotonic
        #expect(h.lobby.nextDeadline == start + 60)
        h.clock.advance(59)
        h.tick()
        #expect(h.drain() == [:])
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable the grace period ends in 1 s"]])
        h.clock.advance(1)
        h.tick()
        #expect(h.drain() == [2: ["CLAIMABLE id=1 player=alice",
                                  "INFO alice has been away past the grace period: send CLAIM to take the win, or keep waiting."]])
        // Announced once.
        h.tick()
        h.clock.advance(100)
        h.tick()
        #expect(h.drain() == [:])
        #expect(h.lobby.nextDeadline == nil)
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["OK CLAIM", "OVER id=1 winner=bob loser=alice reason=abandoned fragment=peac",
                                  "INFO alice stayed away past the grace period; bob claimed the game.",
                                  "RANK name=bob rank=1 wins=1", "RANK name=alice rank=2 wins=0"]])
        #expect(h.lobby.activeGames == 0)
        let result = try #require(try h.store.result(game: 1))
        #expect([result.winner, result.loser, result.reason, result.finalState] == ["bob", "alice", "abandoned", "fragment=peac"])
        // Too late to come back: RESUME only tells how it ended.
        h.connect(3)
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain()[3]?.dropFirst() == ["OK RESUME id=1 status=over",
                                             "OVER id=1 winner=bob loser=alice reason=abandoned fragment=peac ended=1700001160"])
        // bob is free again.
        h.send(2, "CLAIM")
        #expect(isErr(h.drain()[2]?.first, .notInGame))
    }

    @Test func comingBackAfterTheGracePeriodStopsTheClaim() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.disconnect(1)
        h.clock.advance(61)
        h.tick()
        #expect(h.drain()[2]?.contains("CLAIMABLE id=1 player=alice") == true)
        h.connect(3)
        h.send(3, "RESUME \(t.alice)")
        #expect(h.drain()[2] == ["RETURNED id=1 player=alice"])
        h.send(2, "CLAIM")
        #expect(h.drain() == [2: ["ERR not-claimable your opponent is here"]])
        // Away again: a fresh 60 s.
        h.disconnect(3)
        #expect(h.drain() == [2: ["ADJOURNED id=1 player=alice grace=60", aliceAway]])
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
    }

    @Test func nextDeadlineIsTheEarliestAcrossGames() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.named(3, "carol")
        h.named(4, "dave")
        h.send(3, "SEEK")
        h.send(4, "SEEK")
        #expect(h.lobby.activeGames == 2)
        // alice's and carol's first moves (--first-move-timeout, Lifecycle.swift).
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
        h.disconnect(3)  // carol is to move in game 2
        let first = h.clock.monotonic + 60
        #expect(h.lobby.nextDeadline == first)
        h.clock.advance(20)
        h.disconnect(1)  // alice is to move in game 1
        #expect(h.lobby.nextDeadline == first)
        h.clock.advance(40)
        h.tick()
        let d = h.drain()
        #expect(d[4]?.contains("CLAIMABLE id=2 player=carol") == true)
        #expect(d[2]?.contains("CLAIMABLE id=1 player=alice") != true)
        #expect(h.lobby.nextDeadline == first + 20)
        // A game that ends takes its deadline with it.
        h.send(4, "CLAIM")
        _ = h.drain()
        #expect(h.lobby.activeGames == 1)
        #expect(h.lobby.nextDeadline == first + 20)
        h.clock.advance(20)
        h.tick()
        #expect(h.drain()[2]?.contains("CLAIMABLE id=1 player=alice") == true)
        h.send(2, "CLAIM")
        _ = h.drain()
        #expect(h.lobby.activeGames == 0)
        #expect(h.lobby.nextDeadline == nil)
    }

    // MARK: Offers

    @Test func restartBeforeAnyLetterIsImmediate() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(2, "RESTART")
        #expect(h.drain() == [
            1: [game(1, "alice,bob", t.alice), "TURN id=1 player=alice fragment="],
            2: ["OK RESTART status=done", game(1, "alice,bob", t.bob), "TURN id=1 player=alice fragment="],
        ])
        h.send(1, "restart")
        #expect(h.drain() == [
            1: ["OK RESTART status=done", game(1, "alice,bob", t.alice), "TURN id=1 player=alice fragment="],
            2: [game(1, "alice,bob", t.bob), "TURN id=1 player=alice fragment="],
        ])
        h.named(3, "carol")
        h.send(3, "RESTART")
        #expect(isErr(h.drain()[3]?.first, .notInGame))
    }

    @Test func restartAfterALetterIsAnOfferThatCanBeAccepted() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        _ = h.drain()
        h.send(1, "RESTART")
        #expect(h.drain() == [
            1: ["OK RESTART status=offered", "OFFER id=1 player=alice kind=restart"],
            2: ["OFFER id=1 player=alice kind=restart", "INFO alice offers to restart the round: ACCEPT or DECLINE."],
        ])
        #expect(try h.store.activeGames().first?.offer == StoredGame.Offer(seat: 0, kind: "restart", lang: nil))
        h.send(2, "ACCEPT")
        #expect(h.drain() == [
            1: ["ACCEPTED id=1 player=bob kind=restart", game(1, "alice,bob", t.alice, round: 2), "TURN id=1 player=alice fragment="],
            2: ["OK ACCEPT", "ACCEPTED id=1 player=bob kind=restart", game(1, "alice,bob", t.bob, round: 2),
                "TURN id=1 player=alice fragment="],
        ])
        let stored = try #require(try h.store.activeGames().first)
        #expect(stored.round == 2)
        #expect(stored.fragment == "")
        #expect(stored.offer == nil)
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["p"])
        // The new round plays from an empty fragment.
        h.send(1, "c")
        #expect(h.drain()[1]?.first == "OK LETTER letter=c fragment=c")
        #expect(try h.store.moves(game: 1, round: 2).map(\.move) == ["c"])
    }

    @Test func declineAndOfferSpent() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        _ = h.drain()
        h.send(2, "RESTART")
        _ = h.drain()
        h.send(1, "DECLINE")
        #expect(h.drain() == [
            1: ["OK DECLINE", "DECLINED id=1 player=alice kind=restart"],
            2: ["DECLINED id=1 player=alice kind=restart"],
        ])
        // The game goes on unchanged.
        #expect(try h.store.activeGames().first?.offer == nil)
        // bob has spent his offer until a letter is played.
        h.send(2, "RESTART")
        #expect(h.drain() == [2: ["ERR offer-spent you can offer again once a letter has been played"]])
        h.send(2, "LANG nl")
        #expect(isErr(h.drain()[2]?.first, .offerSpent))
        // Nothing left to answer.
        h.send(1, "ACCEPT")
        #expect(h.drain() == [1: ["ERR no-offer there is no offer from your opponent to answer"]])
        h.send(1, "DECLINE")
        #expect(isErr(h.drain()[1]?.first, .noOffer))
        // After a letter bob may offer again.
        h.send(2, "e")
        _ = h.drain()
        h.send(2, "RESTART")
        #expect(h.drain()[2]?.first == "OK RESTART status=offered")
    }

    @Test func aLetterCancelsAPendingOffer() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(1, "RESTART")
        _ = h.drain()
        // bob plays on instead of answering: both hear that the offer is gone.
        h.send(2, "e")
        #expect(h.drain() == [
            1: ["MOVE id=1 player=bob letter=e fragment=pe", "CANCELLED id=1 player=alice kind=restart",
                "TURN id=1 player=alice fragment=pe"],
            2: ["OK LETTER letter=e fragment=pe", "MOVE id=1 player=bob letter=e fragment=pe",
                "CANCELLED id=1 player=alice kind=restart", "TURN id=1 player=alice fragment=pe"],
        ])
        // A letter with no offer pending cancels nothing.
        h.send(1, "a")
        #expect(h.drain()[2] == ["MOVE id=1 player=alice letter=a fragment=pea", "TURN id=1 player=bob fragment=pea"])
        h.send(2, "ACCEPT")
        #expect(h.drain() == [2: ["ERR no-offer there is no offer from your opponent to answer"]])
        #expect(try h.store.activeGames().first?.offer == nil)
        #expect(try h.store.activeGames().first?.fragment == "pea")
        // alice's offer is available again after the letter.
        h.send(1, "RESTART")
        #expect(h.drain()[1]?.first == "OK RESTART status=offered")
    }

    @Test func offerWhileOnePendingAndOwnOffer() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")
        h.send(2, "RESTART")
        _ = h.drain()
        h.send(1, "RESTART")
        #expect(h.drain() == [1: ["ERR offer-pending answer your opponent's offer first: ACCEPT or DECLINE"]])
        h.send(1, "LANG nl")
        #expect(isErr(h.drain()[1]?.first, .offerPending))
        h.send(2, "RESTART")
        #expect(h.drain() == [2: ["ERR offer-pending your offer is waiting for an answer"]])
        h.send(2, "ACCEPT")
        #expect(h.drain() == [2: ["ERR no-offer there is no offer from your opponent to answer"]])
        h.send(2, "DECLINE")
        #expect(isErr(h.drain()[2]?.first, .noOffer))
        // The offer still stands for alice.
        h.send(1, "ACCEPT")
        #expect(h.drain()[1]?.first == "OK ACCEPT")
    }

    @Test func langMidGameBeforeTheFirstLetterIsImmediate() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(2, "LANG nl")
        #expect(h.drain() == [
            1: [game(1, "alice,bob", t.alice, lang: "nl"), "TURN id=1 player=alice fragment="],
            2: ["OK LANG lang=nl status=done", game(1, "alice,bob", t.bob, lang: "nl"), "TURN id=1 player=alice fragment="],
        ])
        #expect(try h.store.activeGames().first?.lang == "nl")
        // The game now uses the Dutch list.
        h.send(1, "h")
        h.send(2, "u")
        h.send(1, "i")
        _ = h.drain()
        h.send(2, "s")
        #expect(h.drain()[1] == ["MOVE id=1 player=bob letter=s fragment=huis",
                                 "OVER id=1 winner=alice loser=bob reason=word fragment=huis",
                                 "INFO \"huis\" is a word longer than 3 letters, so bob loses.",
                                 "RANK name=alice rank=1 wins=1", "RANK name=bob rank=2 wins=0"])
    }

    @Test func langMidGameAfterALetterIsAnOffer() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "LANG xx")
        #expect(isErr(h.drain()[1]?.first, .unknownLanguage))
        h.send(1, "p")
        _ = h.drain()
        h.send(1, "LANG nl")
        #expect(h.drain() == [
            1: ["OK LANG lang=nl status=offered", "OFFER id=1 player=alice kind=lang lang=nl"],
            2: ["OFFER id=1 player=alice kind=lang lang=nl", "INFO alice offers to switch to nl and restart: ACCEPT or DECLINE."],
        ])
        h.send(2, "ACCEPT")
        #expect(h.drain() == [
            1: ["ACCEPTED id=1 player=bob kind=lang", game(1, "alice,bob", t.alice, round: 2, lang: "nl"),
                "TURN id=1 player=alice fragment="],
            2: ["OK ACCEPT", "ACCEPTED id=1 player=bob kind=lang", game(1, "alice,bob", t.bob, round: 2, lang: "nl"),
                "TURN id=1 player=alice fragment="],
        ])
        // No Dutch word starts with "p".
        h.send(1, "p")
        #expect(h.drain()[2]?.contains("OVER id=1 winner=bob loser=alice reason=dead fragment=p") == true)
    }

    @Test func anOfferToAnAbsentOpponentIsShownWhenTheyReturn() throws {
        let h = try Harness()
        let t = try h.pairAliceAndBob()
        h.send(1, "p")
        h.disconnect(2)
        _ = h.drain()
        h.send(1, "RESTART")
        #expect(h.drain() == [1: ["OK RESTART status=offered", "OFFER id=1 player=alice kind=restart"]])
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(t.bob)")
        #expect(h.drain() == [
            1: ["RETURNED id=1 player=bob"],
            3: ["OK RESUME id=1", game(1, "alice,bob", t.bob), "OFFER id=1 player=alice kind=restart",
                "TURN id=1 player=bob fragment=p last=alice"],
        ])
        h.send(3, "DECLINE")
        #expect(h.drain()[1] == ["DECLINED id=1 player=bob kind=restart"])
    }

    // MARK: Rematch

    @Test func rematchNeedsBothAndTheOtherSeatStarts() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts (issue #24)
        h.send(2, "LEAVE")
        _ = h.drain()
        h.send(2, "REMATCH")
        #expect(h.drain() == [
            1: ["REMATCH id=1 player=bob", "INFO bob wants a rematch: send REMATCH to play again."],
            2: ["OK REMATCH status=asked"],
        ])
        #expect(h.lobby.activeGames == 0)
        // Asking again is idempotent: the same answer, and the opponent is not told twice.
        h.send(2, "REMATCH")
        #expect(h.drain() == [2: ["OK REMATCH status=asked"]])
        h.send(1, "REMATCH")
        let d = h.drain()
        let ta = try token(d[1]), tb = try token(d[2])
        #expect(d == [
            1: ["OK REMATCH status=started", game(2, "bob,alice", ta, record: "1-0"), "TURN id=2 player=bob fragment="],
            2: [game(2, "bob,alice", tb, record: "0-1"), "TURN id=2 player=bob fragment="],
        ])
        #expect(h.lobby.activeGames == 1)
        // In a game: no rematch.
        h.send(1, "REMATCH")
        #expect(isErr(h.drain()[1]?.first, .noRematch))
    }

    @Test("Issue 14: GAME between two people carries each one's record against the other (record=), from the store; none against the computer; it survives a restart and comes with RESUME")
    func headToHeadRecordOnGame() throws {
        let first = try Harness()
        do {
            let h = first
            h.named(1, "alice")
            h.named(2, "bob")
            // Their first game: no record yet.
            h.send(1, "SEEK")
            h.send(2, "SEEK")
            var d = h.drain()
            #expect(d[1]?.contains(game(1, "alice,bob", try token(d[1]))) == true)
            h.send(1, "p")   // a move first: LEAVE before any aborts (issue #24)
            h.send(2, "LEAVE")
            _ = h.drain()
            // The second: alice 1-0 bob, each from their own side.
            h.send(2, "SEEK")
            h.send(1, "SEEK")
            d = h.drain()
            #expect(d[1]?.contains(game(2, "bob,alice", try token(d[1]), record: "1-0")) == true)
            #expect(d[2]?.contains(game(2, "bob,alice", try token(d[2]), record: "0-1")) == true)
            h.send(2, "p")   // a move first: LEAVE before any aborts (issue #24)
            h.send(1, "LEAVE")
            _ = h.drain()
            // Against the computer: no record.
            h.send(1, "NEW bot=easy")
            d = h.drain()
            #expect(d[1]?.first { $0.hasPrefix("GAME ") }?.contains("record=") == false)
            h.send(1, "LEAVE")
            _ = h.drain()
        }
        // After a restart (a new lobby on the same store) the store still knows: 1-1.
        first.disconnect(1)
        first.disconnect(2)
        let h = try Harness(directory: first.directory)
        h.named(1, "Alice")
        h.named(2, "bob")
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        let d = h.drain()
        let ta = try token(d[1])
        #expect(d[1]?.contains(game(4, "Alice,bob", ta, record: "1-1")) == true)
        // The state sent on RESUME has it too.
        h.disconnect(1)
        h.connect(3)
        _ = h.drain()
        h.send(3, "RESUME \(ta)")
        #expect(h.drain()[3]?.dropFirst().first == game(4, "Alice,bob", ta, record: "1-1"))
    }

    @Test func rematchKeepsTheLanguage() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "LANG nl")
        h.send(2, "LANG nl")
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        h.send(1, "h")   // a move first: LEAVE before any aborts (issue #24)
        h.send(1, "LEAVE")
        // Both now prefer English for new games; the rematch stays Dutch.
        h.send(1, "LANG en")
        h.send(2, "LANG en")
        h.send(1, "REMATCH")
        _ = h.drain()
        h.send(2, "REMATCH")
        let d = h.drain()
        let tb = try token(d[2])
        #expect(d[2]?.prefix(2) == ["OK REMATCH status=started", game(2, "bob,alice", tb, lang: "nl", record: "1-0")])
    }

    @Test func noRematch() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "REMATCH")
        #expect(h.drain() == [1: ["ERR no-rematch no finished game against an opponent who is still here and free"]])
        h.connect(2)
        h.send(2, "REMATCH")
        #expect(isErr(h.drain()[2]?.last, .noRematch))
        h.send(2, "NAME bob")
        h.quickGame(winner: 1, loser: 2)
        // The opponent is gone.
        h.disconnect(2)
        _ = h.drain()
        h.send(1, "REMATCH")
        #expect(h.drain() == [1: ["ERR no-rematch no finished game against an opponent who is still here and free"]])
    }

    @Test func noRematchWhenTheOpponentIsBusy() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts (issue #24)
        h.send(2, "LEAVE")
        h.send(2, "SEEK")
        _ = h.drain()
        h.send(1, "REMATCH")
        #expect(isErr(h.drain()[1]?.first, .noRematch))
    }

    /// Protocol.md: "A request lapses when either player starts something else or disconnects (no-rematch)."
    @Test func rematchRequestLapsesWhenTheAskerStartsSomethingElse() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts (issue #24)
        h.send(2, "LEAVE")
        h.send(2, "REMATCH")
        _ = h.drain()
        // bob seeks instead, then stops: his request has lapsed, and alice, who was asked, hears so.
        h.send(2, "SEEK")
        #expect(h.drain()[1] == ["CANCELLED id=1 player=bob kind=rematch"])
        h.send(2, "LEAVE")
        _ = h.drain()
        h.send(1, "REMATCH")
        #expect(h.drain() == [1: ["ERR no-rematch no finished game against an opponent who is still here and free"]])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func rematchRequestLapsesWhenTheAskedPlayerStartsSomethingElse() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts (issue #24)
        h.send(2, "LEAVE")
        h.send(2, "REMATCH")
        _ = h.drain()
        // alice hosts a private game instead, then closes it: bob's request has lapsed, and bob hears so.
        h.send(1, "NEW")
        #expect(h.drain()[2] == ["CANCELLED id=1 player=bob kind=rematch"])
        h.send(1, "LEAVE")
        _ = h.drain()
        h.send(1, "REMATCH")
        #expect(h.drain() == [1: ["ERR no-rematch no finished game against an opponent who is still here and free"]])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func rematchRequestLapsesWhenEitherPlayerLeaves() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "p")   // a move first: LEAVE before any aborts (issue #24)
        h.send(2, "LEAVE")
        h.send(1, "REMATCH")
        _ = h.drain()
        // bob, who was asked, disconnects: alice hears that her request lapsed.
        h.disconnect(2)
        #expect(h.drain() == [1: ["CANCELLED id=1 player=alice kind=rematch"]])
        // No request pending: nothing to tell.
        let g = try Harness()
        try g.pairAliceAndBob()
        g.send(1, "p")   // a move first: LEAVE before any aborts (issue #24)
        g.send(2, "LEAVE")
        _ = g.drain()
        g.disconnect(2)
        g.send(1, "NAME alice2")
        #expect(g.drain() == [1: ["OK NAME name=alice2 lang=en"]])
    }

    // MARK: Names and scores

    @Test func namesListsTheMostRecentFirstBoundedWithAPrefixSearch() throws {
        var settings = Lobby.Settings()
        settings.newNamesPerMinute = 0
        let h = try Harness(settings: settings)
        h.connect(9)
        h.send(9, "NAMES")
        #expect(h.drain() == [9: ["HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl", "OK NAMES count=0 more=no"]])
        for (id, name) in [(1, "alice"), (2, "Zoe"), (3, "bob")] {
            h.named(ConnectionID(id), name)
            h.clock.advance(1)
        }
        h.disconnect(1)
        // A second spelling of a known name is the same name, and now the most recent.
        h.named(4, "ALICE")
        h.send(9, "NAMES")
        #expect(h.drain() == [9: ["NAME name=alice", "NAME name=bob", "NAME name=Zoe", "OK NAMES count=3 more=no"]])
        h.send(9, "NAMES 2")
        #expect(h.drain() == [9: ["NAME name=alice", "NAME name=bob", "OK NAMES count=2 more=yes"]])
        h.send(9, "NAMES prefix=Z")
        #expect(h.drain() == [9: ["NAME name=Zoe", "OK NAMES count=1 more=no"]])
        // `_` and `-` in a prefix are themselves, not patterns.
        h.named(5, "a_b")
        h.named(6, "axb")
        h.send(9, "NAMES prefix=a_")
        #expect(h.drain() == [9: ["NAME name=a_b", "OK NAMES count=1 more=no"]])
        // Many names: one reply holds at most 100, 20 unless asked.
        for i in 0..<120 { h.named(ConnectionID(100 + i), "u\(i)") }
        h.send(9, "NAMES")
        let twenty = h.drain()[9] ?? []
        #expect(twenty.count == 21 && twenty.last == "OK NAMES count=20 more=yes", "\(twenty)")
        h.send(9, "NAMES 100")
        #expect(h.drain()[9]?.last == "OK NAMES count=100 more=yes")
        h.send(9, "NAMES prefix=u11 100")
        // All in the same second: the tie goes by name.
        #expect(h.drain()[9] == ["NAME name=u11"] + (110..<120).map { "NAME name=u\($0)" } + ["OK NAMES count=11 more=no"])
        h.send(9, "names x")
        #expect(isErr(h.drain()[9]?.first, .badArguments))
    }

    @Test func newNamesAreLimitedPerAddressKnownOnesNever() throws {
        var settings = Lobby.Settings()
        settings.newNamesPerMinute = 6     // one every 10 s
        settings.newNameBurst = 3
        let h = try Harness(settings: settings)
        h.connect(1, address: "10.0.0.1")
        _ = h.drain()
        for name in ["n1", "n2", "n3"] {
            h.send(1, "NAME \(name)")
            #expect(h.drain() == [1: ["OK NAME name=\(name) lang=en"]])
        }
        h.send(1, "NAME n4")
        #expect(h.drain() == [1: ["ERR too-many-names too many new names from your address; try again in 10 s, or use a name you have used before"]])
        // Nothing changed: still n3; a name used before is never limited.
        h.send(1, "NAME N1")
        #expect(h.drain() == [1: ["OK NAME name=N1 lang=en"]])
        h.send(1, "NAMES")
        #expect(h.drain() == [1: ["NAME name=n1", "NAME name=n2", "NAME name=n3", "OK NAMES count=3 more=no"]])
        // Another address has its own allowance.
        h.connect(2, address: "10.0.0.2")
        h.send(2, "NAME other")
        #expect(h.drain()[2]?.last == "OK NAME name=other lang=en")
        // Ten seconds later there is one more.
        h.clock.advance(4)
        h.send(1, "NAME n4")
        #expect(h.drain() == [1: ["ERR too-many-names too many new names from your address; try again in 6 s, or use a name you have used before"]])
        h.clock.advance(6)
        h.send(1, "NAME n4")
        #expect(h.drain() == [1: ["OK NAME name=n4 lang=en"]])
        h.send(1, "NAME n5")
        #expect(isErr(h.drain()[1]?.first, .tooManyNames))
    }

    @Test func scoresRankByWinsWithTies() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.named(3, "carol")
        h.named(4, "dave")
        h.send(1, "SCORES")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=game"]])
        h.quickGame(winner: 1, loser: 2)
        h.send(3, "SEEK")
        h.send(4, "SEEK")
        h.send(3, "p")   // a move first: LEAVE before any aborts (issue #24)
        h.send(4, "LEAVE")
        #expect(h.drain()[3]?.suffix(2) == ["RANK name=carol rank=1 wins=1", "RANK name=dave rank=3 wins=0"])
        h.send(1, "SCORES")
        #expect(h.drain() == [1: [
            "SCORE rank=1 name=alice wins=1 played=1",
            "SCORE rank=1 name=carol wins=1 played=1",
            "SCORE rank=3 name=bob wins=0 played=1",
            "SCORE rank=3 name=dave wins=0 played=1",
            "OK SCORES count=4 board=game",
        ]])
        h.quickGame(winner: 2, loser: 4)
        h.quickGame(winner: 1, loser: 3)
        // alice 2/2, bob 1/2, carol 1/2, dave 0/2.
        h.send(2, "SCORES 3")
        #expect(h.drain() == [2: [
            "SCORE rank=1 name=alice wins=2 played=2",
            "SCORE rank=2 name=bob wins=1 played=2",
            "SCORE rank=2 name=carol wins=1 played=2",
            "OK SCORES count=3 board=game",
        ]])
        h.send(2, "SCORES 0")
        #expect(isErr(h.drain()[2]?.first, .badArguments))
        // Anyone may look, even without a name.
        h.connect(5)
        h.send(5, "SCORES 1")
        #expect(h.drain()[5]?.suffix(2) == ["SCORE rank=1 name=alice wins=2 played=2", "OK SCORES count=1 board=game"])
    }

    @Test func languagePreferencePersistsPerName() throws {
        let h = try Harness()
        h.connect(1)
        h.send(1, "NAME bob")
        h.send(1, "LANG nl")
        #expect(h.drain()[1] == ["HELLO ghostd/\(Lobby.version) protocol=2 languages=en,nl",
                                 "OK NAME name=bob lang=en", "OK LANG lang=nl"])
        h.disconnect(1)
        h.connect(2)
        _ = h.drain()
        h.send(2, "NAME bob")
        #expect(h.drain() == [2: ["OK NAME name=bob lang=nl"]])
        h.send(2, "SEEK")
        #expect(h.drain()[2]?.first == "OK SEEK lang=nl")
        #expect(try h.store.preference(.language, for: "bob") == "nl")
        // Any spelling of the name finds the preference.
        h.connect(3)
        _ = h.drain()
        h.send(3, "NAME BOB")
        #expect(isErr(h.drain()[3]?.first, .nameTaken))
        h.disconnect(2)
        h.send(3, "NAME BOB")
        #expect(h.drain() == [3: ["OK NAME name=BOB lang=nl"]])
        // Another name keeps the default.
        h.send(3, "NAME carol")
        #expect(h.drain() == [3: ["OK NAME name=carol lang=en"]])
    }

    @Test func languageChosenBeforeTheNameBecomesItsPreference() throws {
        let h = try Harness()
        h.connect(1)
        h.send(1, "LANG nl")
        h.send(1, "NAME dora")
        #expect(h.drain()[1]?.suffix(2) == ["OK LANG lang=nl", "OK NAME name=dora lang=nl"])
        h.disconnect(1)
        h.connect(2)
        h.send(2, "NAME dora")
        #expect(h.drain()[2]?.last == "OK NAME name=dora lang=nl")
    }

    // MARK: Settings (this catalog's kinds have none: only lang; see LobbyKindTests for a kind's)

    @Test func setLangIsLangSavedPerName() throws {
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        // Before NAME, as LANG: kept on the connection, saved at NAME.
        h.send(1, "SETTINGS")
        #expect(h.drain() == [1: ["SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=lang value=en default=en", "OK SETTINGS"]])
        h.send(1, "SET LANG NL")
        h.send(1, "NAME dora")
        h.send(1, "SETTINGS")
        #expect(h.drain() == [1: ["OK SET key=lang value=nl", "OK NAME name=dora lang=nl",
                                  "SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=lang value=nl default=en", "OK SETTINGS"]])
        #expect(try h.store.preference(.language, for: "dora") == "nl")
        h.send(1, "SET lang en")
        #expect(h.drain() == [1: ["OK SET key=lang value=en"]])
        #expect(try h.store.preference(.language, for: "dora") == "en")
        // Refused, and nothing changes.
        h.send(1, "SET lang de")
        h.send(1, "SET colour red")
        h.send(1, "SET lang")
        #expect(h.drain() == [1: ["ERR unknown-language languages here: en,nl",
                                  "ERR bad-arguments no setting colour; settings: hangman-mode,hangman-length,hangman-misses,lang",
                                  "ERR bad-arguments usage: SET <key> <value>"]])
        h.send(1, "SETTINGS")
        #expect(h.drain() == [1: ["SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=lang value=en default=en", "OK SETTINGS"]])
        // Seeking, like LANG: busy.
        h.send(1, "SEEK")
        _ = h.drain()
        h.send(1, "SET lang nl")
        #expect(isErr(h.drain()[1]?.first, .busy))
    }

    /// In a game, SET lang saves the language for the next games: the game
    /// in progress is not offered a switch and goes on in its language.
    @Test func setLangInAGameAppliesToTheNextGame() throws {
        let h = try Harness()
        try h.pairAliceAndBob()
        h.send(1, "SET lang nl")
        #expect(h.drain() == [1: ["OK SET key=lang value=nl"]])
        h.send(1, "p")
        #expect(h.drain()[2]?.first == "MOVE id=1 player=alice letter=p fragment=p")
        h.send(2, "LEAVE")
        _ = h.drain()
        h.send(1, "SEEK")
        #expect(h.drain()[1]?.first == "OK SEEK lang=nl")
        // A new lobby on the same store (a restart) has it saved.
        let again = try Harness(directory: h.directory)
        again.named(5, "alice")
        again.send(5, "SETTINGS")
        #expect(again.drain() == [5: ["SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=lang value=nl default=en", "OK SETTINGS"]])
        withExtendedLifetime(h) {}
    }

    @Test func scoresOfAKindWithoutAList() throws {
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        h.send(1, "SCORES game=chess")
        h.send(1, "SCORES game=ghost 3")
        #expect(h.drain() == [1: ["ERR bad-arguments no such high-score list: game=chess", "OK SCORES count=0 board=game"]])
    }

    // MARK: Restarting the server

    @Test func aSecondLobbyRestoresAnActiveGame() throws {
        let first = try Harness()
        let t = try first.pairAliceAndBob()
        first.send(1, "p")
        first.send(2, "e")
        _ = first.drain()

        // The server restarts: a new lobby on the same store. A game without
        // a clock is not loaded at start, only on RESUME (Lifecycle.swift).
        let h = try Harness(directory: first.directory)
        #expect(h.lobby.activeGames == 0)
        #expect(h.lobby.connectionCount == 0)
        #expect(h.lobby.nextDeadline == nil)
        h.connect(1)
        _ = h.drain()
        h.send(1, "RESUME \(t.alice)")
        #expect(h.drain() == [1: ["OK RESUME id=1", game(1, "alice,bob", t.alice), "ADJOURNED id=1 player=bob grace=60",
                                  "TURN id=1 player=alice fragment=pe last=bob"]])
        #expect(h.lobby.activeGames == 1)
        h.connect(2)
        _ = h.drain()
        h.send(2, "RESUME \(t.bob)")
        #expect(h.drain() == [
            1: ["RETURNED id=1 player=bob"],
            2: ["OK RESUME id=1", game(1, "alice,bob", t.bob), "TURN id=1 player=alice fragment=pe last=bob"],
        ])
        h.send(1, "a")
        h.send(2, "r")
        let over = try #require(h.drain()[1])
        #expect(over.contains("OVER id=1 winner=alice loser=bob reason=word fragment=pear"))
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["p", "e", "a", "r"])
        // New games get new ids.
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        #expect(h.drain()[2]?.contains { $0.hasPrefix("GAME id=2 ") } == true)
    }

    @Test func aSecondLobbyRestoresRoundLanguageAndOffer() throws {
        let first = try Harness()
        let t = try first.pairAliceAndBob()
        first.send(1, "p")
        first.send(1, "LANG nl")
        first.send(2, "ACCEPT")
        first.send(1, "h")
        first.send(1, "RESTART")
        first.disconnect(1)
        _ = first.drain()

        let h = try Harness(directory: first.directory)
        #expect(h.lobby.activeGames == 0)   // loaded on RESUME
        h.connect(2)
        _ = h.drain()
        h.send(2, "RESUME \(t.bob)")
        #expect(h.drain() == [2: ["OK RESUME id=1", game(1, "alice,bob", t.bob, round: 2, lang: "nl"),
                                  "OFFER id=1 player=alice kind=restart", "ADJOURNED id=1 player=alice grace=60",
                                  "TURN id=1 player=bob fragment=h last=alice"]])
        // alice's offer survived the restart and can be accepted.
        h.send(2, "ACCEPT")
        #expect(h.drain() == [2: ["OK ACCEPT", "ACCEPTED id=1 player=bob kind=restart",
                                  game(1, "alice,bob", t.bob, round: 3, lang: "nl"),
                                  "ADJOURNED id=1 player=alice grace=60", "TURN id=1 player=alice fragment="]])
    }

    @Test func tooLongFrame() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.lobby.received(.tooLong, from: 1)
        let d = h.drain()
        #expect(d.keys.sorted() == [1])
        #expect(d[1]?.count == 1)
        #expect(isErr(d[1]?.first, .lineTooLong))
    }

    @Test func parseErrorsAreReported() throws {
        let h = try Harness()
        h.named(1, "alice")
        let cases: [([UInt8], ErrorCode)] = [
            (Array("LETTER ab".utf8), .notALetter),
            ([0xFF, 0xFE], .badEncoding),
            (Array("\u{1B}[31m".utf8), .badCharacter),
            (Array("FROB".utf8), .unknownCommand),
            (Array("PING x".utf8), .badArguments),
            (Array("SCORES 101".utf8), .badArguments),
            (Array("SCORES x".utf8), .badArguments),
        ]
        for (bytes, code) in cases {
            h.lobby.received(.line(bytes), from: 1)
            let d = h.drain()
            #expect(d[1]?.count == 1)
            #expect(isErr(d[1]?.first, code), "\(bytes)")
        }
    }
}
