import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
@testable import GhostStore
import WordLists

/// A lobby over a real store whose writes the test makes fail: triggers added
/// through a second connection to the same database file either abort one
/// statement (`RAISE(ABORT)`, as a full disk does to the write that needs a
/// page) or make the turn's COMMIT fail (a deferred foreign key that is
/// broken, as a WAL that cannot grow does to the commit). The harness plays
/// the event loop: it commits after each turn and, when the commit fails,
/// withdraws the turn's lines and lets the lobby recover.
/// Connection 1 is alice, 2 is bob, 3 is carol, 4 is dave.
private final class FaultHarness {
    let outbox = RecordingOutbox()
    let clock = ManualClock()
    let directory: String
    let store: Store
    let lobby: Lobby
    /// A second connection, for triggers and for looking at what is stored.
    let raw: SQLiteDatabase
    /// Lines sent before the current turn (what a lost turn keeps).
    private var turnStart = 0
    /// Commands sent during the current turn, per connection.
    private var commands: [ConnectionID: Int] = [:]
    /// The last commit failed.
    private(set) var lostTurns = 0

    init(botDelay: Double = 0.6) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ghostd-recovery-\(UUID().uuidString)").path
        store = try Store(directory: directory, durability: .normal)
        raw = try SQLiteDatabase(path: store.path)
        var settings = Lobby.Settings()
        settings.botDelay = botDelay
        lobby = try Lobby(dictionaries: Dictionaries(lists: lobbyLists), store: store, outbox: outbox, clock: clock,
                          settings: settings)
    }

    deinit {
        raw.close()
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: Faults

    /// Makes every statement matching `event` (e.g. `INSERT ON moves`, with
    /// an optional `WHEN`) fail, as a full disk would.
    func failStatements(_ name: String, _ event: String) throws {
        try raw.execute("CREATE TRIGGER \(name) BEFORE \(event) BEGIN SELECT RAISE(ABORT, 'injected: disk full'); END")
    }

    /// Makes the commit of any turn with a statement matching `event` fail.
    func failCommits(_ name: String, _ event: String) throws {
        try raw.execute("CREATE TABLE IF NOT EXISTS tripwire (name TEXT REFERENCES players(name) DEFERRABLE INITIALLY DEFERRED)")
        try raw.execute("CREATE TRIGGER \(name) AFTER \(event) BEGIN INSERT INTO tripwire VALUES ('no such player'); END")
    }

    func heal(_ name: String) throws {
        try raw.execute("DROP TRIGGER \(name)")
    }

    /// Makes every append to the move journal fail (a turn of moves alone
    /// commits with one: MoveJournal.swift), or work again.
    func failJournal(_ fail: Bool = true) {
        store.journal.failWrites = fail ? ENOSPC : 0
    }

    /// Every move of game `id`'s round `round` the store has, in the table or in the journal.
    func storedMoves(_ id: Int, round: Int = 1) throws -> String {
        try store.moves(game: id, round: round).map(\.move).joined()
    }

    func storedInt(_ sql: String) throws -> Int {
        try raw.query(sql) { $0.int(0) }.first ?? -1
    }

    // MARK: The loop

    /// Ends the turn as the event loop does.
    func endTurn() {
        do {
            try store.commit()
            lobby.committed()
        } catch {
            lostTurns += 1
            let withdrawn = Set(outbox.sent[turnStart...].map(\.id)).union(commands.keys)
            outbox.withdraw(to: turnStart)
            for (id, n) in commands.sorted(by: { $0.key < $1.key }) {
                for _ in 0..<n { outbox.send(.error(.storeFailed, "the server could not store this; nothing was done"), to: id) }
            }
            lobby.recoverLostTurn(withdrawn: withdrawn)
        }
        commands = [:]
        turnStart = outbox.sent.count
    }

    func connect(_ id: ConnectionID) {
        lobby.connected(id)
        endTurn()
    }

    func disconnect(_ id: ConnectionID) {
        lobby.disconnected(id)
        endTurn()
    }

    /// One command in its own turn.
    func send(_ id: ConnectionID, _ line: String) {
        inTurn(id, line)
        endTurn()
    }

    /// One command, the turn still open.
    func inTurn(_ id: ConnectionID, _ line: String) {
        commands[id, default: 0] += 1
        lobby.received(.line(Array(line.utf8)), from: id)
    }

    func tick() {
        lobby.tick()
        endTurn()
    }

    func drain(sourceLocation: SourceLocation = #_sourceLocation) -> [ConnectionID: [String]] {
        #expect(lobby.storeError == nil, sourceLocation: sourceLocation)
        return outbox.drain()
    }

    func named(_ id: ConnectionID, _ name: String) {
        connect(id)
        send(id, "NAME \(name)")
        _ = drain()
    }

    /// carol (3) plays a letter against the computer and goes; a minute
    /// later her game (game 1) leaves memory. Returns her token.
    func leaveAGameBehind(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        named(3, "carol")
        send(3, "NEW bot=hard")
        let carol = try token(drain()[3], sourceLocation: sourceLocation)
        send(3, "p")
        disconnect(3)
        clock.advance(60)
        tick()
        #expect(lobby.activeGames == 0, sourceLocation: sourceLocation)
        return carol
    }

    /// alice (1) and bob (2) in game 1 by NEW and JOIN (options: `rounds=ghost`), alice to move.
    @discardableResult
    func pair(_ options: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        named(1, "alice")
        named(2, "bob")
        send(1, "NEW" + (options.isEmpty ? "" : " " + options))
        let ok = try #require(drain()[1]?.first, sourceLocation: sourceLocation)
        let code = try #require(Message.parse(ok)?["code"], sourceLocation: sourceLocation)
        send(2, "JOIN \(code)")
        let d = drain()
        return [try token(d[1], sourceLocation: sourceLocation), try token(d[2], sourceLocation: sourceLocation)]
    }
}

private let storeFailed = "ERR store-failed the server could not store this; nothing was done"

private func gameLine(_ id: Int, _ players: String, _ token: String, round: Int = 1, match: String? = nil) -> String {
    "GAME id=\(id) game=ghost lang=en players=\(players) token=\(token) round=\(round)" + (match.map { " rounds=ghost ghost=\($0)" } ?? "")
}

@Suite("Lobby: a write that fails is undone and answered ERR store-failed; a lost turn is recovered", .ownThread)
struct LobbyRecoveryTests {
    // MARK: A failed statement

    @Test func aNameThatCannotBeStoredIsNotTaken() throws {
        let h = try FaultHarness()
        h.named(1, "alice")
        try h.failStatements("full", "INSERT ON players WHEN NEW.name = 'dave'")
        h.connect(4)
        _ = h.drain()
        h.send(4, "NAME dave")
        #expect(h.drain() == [4: [storeFailed]])
        #expect(!h.lobby.isIdentified(4))
        // Everything else goes on: reads, other names, PING.
        h.send(1, "NAMES")
        #expect(h.drain() == [1: ["NAME name=alice", "OK NAMES count=1 more=no"]])
        h.send(4, "NAME erin")
        #expect(h.drain() == [4: ["OK NAME name=erin lang=en"]])
        h.send(4, "PING")
        #expect(h.drain() == [4: ["OK PING"]])
        try h.heal("full")
        h.send(4, "NAME dave")
        #expect(h.drain() == [4: ["OK NAME name=dave lang=en"]])
    }

    /// A letter alone commits by its append to the move journal: when that
    /// fails, the turn is lost (the letter taken back, the state sent again).
    @Test func aLetterThatCannotBeStoredIsNotPlayed() throws {
        let h = try FaultHarness()
        let t = try h.pair()
        h.failJournal()
        h.send(1, "p")
        // No OK LETTER, no MOVE to anyone: the refusal and the stored state.
        #expect(h.lostTurns == 1)
        #expect(h.drain() == [
            1: [storeFailed, gameLine(1, "alice,bob", t[0]), "TURN id=1 player=alice fragment="],
            2: [gameLine(1, "alice,bob", t[1]), "TURN id=1 player=alice fragment="],
        ])
        #expect(try h.storedMoves(1) == "")
        // The position is as it was: still alice's turn, at the empty fragment.
        h.send(2, "e")
        #expect(h.drain() == [2: ["ERR not-your-turn it is alice's turn"]])
        h.failJournal(false)
        h.send(1, "p")
        #expect(h.drain() == [
            1: ["OK LETTER letter=p fragment=p", "MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"],
            2: ["MOVE id=1 player=alice letter=p fragment=p", "TURN id=1 player=bob fragment=p"],
        ])
    }

    @Test func aLeaveThatCannotBeStoredLeavesTheGameAsItWas() throws {
        let h = try FaultHarness()
        try h.pair()
        h.send(1, "p")
        _ = h.drain()
        // finishGame writes the game row, then the scores: the second write fails.
        try h.failStatements("full", "INSERT ON scores WHEN NEW.player = 'bob'")
        h.send(1, "LEAVE")
        #expect(h.drain() == [1: [storeFailed]])
        #expect(try h.storedInt("SELECT count(*) FROM games WHERE status = 'active'") == 1)
        #expect(try h.storedInt("SELECT count(*) FROM scores") == 0)
        // The game was resigned in memory before the write; it is back in play.
        h.send(2, "e")
        #expect(h.drain() == [
            2: ["OK LETTER letter=e fragment=pe", "MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe"],
            1: ["MOVE id=1 player=bob letter=e fragment=pe", "TURN id=1 player=alice fragment=pe"],
        ])
        try h.heal("full")
        h.send(1, "LEAVE")
        let d = h.drain()
        #expect(d[1]?.first == "OK LEAVE")
        #expect(d[2]?.first == "OVER id=1 winner=bob loser=alice reason=left fragment=pe")
        #expect(try h.storedInt("SELECT count(*) FROM scores") == 2)
        // The score cache followed the rollback: the first finished game counts once.
        #expect(d[2]?.suffix(2) == ["RANK name=bob rank=1 wins=1", "RANK name=alice rank=2 wins=0"])
    }

    @Test func aRoundThatCannotBeStoredTakesItsLetterBackToo() throws {
        let h = try FaultHarness()
        let t = try h.pair("rounds=ghost")
        for (id, c) in [(1, "p"), (2, "e"), (1, "a")] { h.send(id, c) }
        _ = h.drain()
        // "pear" ends the round: the move is stored, then nextRound fails.
        try h.failStatements("full", "UPDATE ON games WHEN NEW.round = 2")
        h.send(2, "r")
        #expect(h.drain() == [2: [storeFailed]])
        #expect(try h.storedMoves(1) == "pea")
        try h.heal("full")
        h.send(2, "r")
        let d = h.drain()
        #expect(d[2]?.first == "OK LETTER letter=r fragment=pear")
        #expect(d[1]?.contains(gameLine(1, "alice,bob", t[0], round: 2, match: ",G")) == true, "\(d)")
    }

    /// A letter's move waits in the journal (no SQL): when the one write of
    /// its round's end fails, that is the letter's first SQL write, undone
    /// alone, and the turn's other writes (carol's LANG) are kept.
    @Test func aLetterWhoseRoundCannotBeStoredIsUndoneAloneInATurnWithOtherWrites() throws {
        let h = try FaultHarness()
        _ = try h.pair("rounds=ghost")
        h.named(3, "carol")
        for (id, c) in [(1, "p"), (2, "e"), (1, "a")] { h.send(id, c) }
        _ = h.drain()
        try h.failStatements("full", "UPDATE ON games WHEN NEW.round = 2")
        h.inTurn(3, "LANG nl")
        h.inTurn(2, "r")
        h.endTurn()
        #expect(h.lostTurns == 0)
        #expect(h.drain() == [2: [storeFailed], 3: ["OK LANG lang=nl"]])
        // LANG's transaction took the three waiting moves in, not the undone r.
        #expect(try h.storedInt("SELECT count(*) FROM moves") == 3)
        #expect(try h.storedInt("SELECT count(*) FROM preferences") == 1)
        try h.heal("full")
        h.send(2, "r")
        #expect(h.drain()[2]?.first == "OK LETTER letter=r fragment=pear")
    }

    /// A letter takes no savepoint: when its second SQL write fails (the
    /// scores, after the game's end), the turn's other writes (carol's LANG)
    /// cannot be kept apart from its first, and the turn is lost.
    @Test func aLetterWhoseGameEndCannotBeStoredInATurnWithOtherWritesLosesTheTurn() throws {
        let h = try FaultHarness()
        let t = try h.pair()
        h.named(3, "carol")
        for (id, c) in [(1, "p"), (2, "e"), (1, "a")] { h.send(id, c) }
        _ = h.drain()
        try h.failStatements("full", "INSERT ON scores WHEN NEW.player = 'bob'")
        h.inTurn(3, "LANG nl")
        h.inTurn(2, "r")
        h.endTurn()
        #expect(h.lostTurns == 1)
        // alice saw nothing of the turn, so she is not sent anything.
        #expect(h.drain() == [
            2: [storeFailed, gameLine(1, "alice,bob", t[1]), "TURN id=1 player=bob fragment=pea last=alice"],
            3: [storeFailed],
        ])
        #expect(try h.storedMoves(1) == "pea")
        #expect(try h.storedInt("SELECT count(*) FROM preferences") == 0)
        #expect(try h.storedInt("SELECT count(*) FROM games WHERE status = 'active'") == 1)
        h.send(3, "SEEK")
        #expect(h.drain()[3]?.first == "OK SEEK lang=en")
        try h.heal("full")
        h.send(2, "r")
        #expect(h.drain()[2]?.first == "OK LETTER letter=r fragment=pear")
    }

    @Test func aGameThatCannotBeStoredDoesNotTakeTheWaitingSeeker() throws {
        let h = try FaultHarness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.named(3, "carol")
        h.send(1, "SEEK")
        _ = h.drain()
        try h.failStatements("full", "INSERT ON games")
        // carol's LANG opens the turn's transaction, so the game's row is
        // inserted at once (not left to wait in the move journal), and fails.
        h.inTurn(3, "LANG nl")
        h.inTurn(2, "SEEK")
        h.endTurn()
        // bob gets one final line, not OK SEEK and then an error; alice hears nothing.
        #expect(h.drain() == [2: [storeFailed], 3: ["OK LANG lang=nl"]])
        try h.heal("full")
        h.send(3, "LANG en")
        _ = h.drain()
        // alice is still waiting: carol pairs with her; bob is free to seek again.
        h.send(3, "SEEK")
        let d = h.drain()
        #expect(d[3]?.first == "OK SEEK lang=en")
        let ta = try token(d[1]), tc = try token(d[3])
        #expect(d[1] == [gameLine(1, "alice,carol", ta), "TURN id=1 player=alice fragment="])
        #expect(d[3] == ["OK SEEK lang=en", gameLine(1, "alice,carol", tc), "TURN id=1 player=alice fragment="])
        h.send(2, "SEEK")
        #expect(h.drain()[2]?.first == "OK SEEK lang=en")
    }

    @Test func anOfferThatCannotBeStoredIsNotMade() throws {
        let h = try FaultHarness()
        try h.pair()
        h.send(1, "p")
        _ = h.drain()
        try h.failStatements("full", "UPDATE ON games WHEN NEW.offer_seat IS NOT NULL")
        h.send(1, "RESTART")
        #expect(h.drain() == [1: [storeFailed]])
        h.send(2, "ACCEPT")
        #expect(h.drain() == [2: ["ERR no-offer there is no offer from your opponent to answer"]])
        try h.heal("full")
        // The failed offer did not spend alice's.
        h.send(1, "RESTART")
        #expect(h.drain() == [
            1: ["OK RESTART status=offered", "OFFER id=1 player=alice kind=restart"],
            2: ["OFFER id=1 player=alice kind=restart", "INFO alice offers to restart the round: ACCEPT or DECLINE."],
        ])
    }

    @Test func theComputerTriesAgainWhenItsLetterCannotBeStored() throws {
        let h = try FaultHarness(botDelay: 0.5)
        h.named(1, "alice")
        h.send(1, "NEW bot=hard first=bot")
        let t = try token(h.drain()[1])
        h.failJournal()
        h.clock.advance(1)
        h.tick()
        // The computer's letter alone could not be appended: the turn is
        // lost, and alice is sent the stored state again.
        #expect(h.lostTurns == 1)
        #expect(h.drain() == [1: ["GAME id=1 game=ghost lang=en players=bot-hard,alice token=\(t) round=1 bot=hard",
                                  "TURN id=1 player=bot-hard fragment="]])
        let retry = try #require(h.lobby.nextDeadline)
        #expect(retry >= h.clock.monotonic + 0.99)
        h.failJournal(false)
        h.clock.advance(1)
        h.tick()
        let d = h.drain()
        #expect(d[1]?.count == 2 && d[1]?.first?.hasPrefix("MOVE id=1 player=bot-hard letter=") == true, "\(d)")
    }

    // MARK: A failed commit

    @Test func aLostTurnTakesBackItsLettersAndSendsTheStateAgain() throws {
        let h = try FaultHarness()
        let t = try h.pair()
        h.send(1, "p")
        _ = h.drain()
        h.failJournal()
        // One turn: bob's e, alice's a (whose commit fails), and a PING.
        h.inTurn(2, "e")
        h.inTurn(1, "a")
        h.inTurn(1, "PING")
        h.endTurn()
        #expect(h.lostTurns == 1)
        // Nothing of the turn went out: each command is refused, and both get the stored state.
        #expect(h.drain() == [
            1: [storeFailed, storeFailed, gameLine(1, "alice,bob", t[0]), "TURN id=1 player=bob fragment=p last=alice"],
            2: [storeFailed, gameLine(1, "alice,bob", t[1]), "TURN id=1 player=bob fragment=p last=alice"],
        ])
        #expect(try h.storedMoves(1) == "p")
        h.failJournal(false)
        h.send(2, "e")
        _ = h.drain()
        h.send(1, "a")
        #expect(h.drain()[1]?.first == "OK LETTER letter=a fragment=pea")
        #expect(try h.storedMoves(1) == "pea")
    }

    /// A lost turn reloads the games in memory, not every game
    /// stored: a game nobody is at stays out of memory, and still resumes.
    @Test func aLostTurnLeavesTheGamesNobodyIsAtInTheStore() throws {
        let h = try FaultHarness(botDelay: 0)
        let carol = try h.leaveAGameBehind()
        let t = try h.pair()
        h.send(1, "p")
        _ = h.drain()
        h.failJournal()
        h.send(2, "e")
        #expect(h.lostTurns == 1)
        #expect(h.drain()[2] == [storeFailed, gameLine(2, "alice,bob", t[1]), "TURN id=2 player=bob fragment=p last=alice"])
        // Only alice and bob's game is in memory; carol's is still stored, and resumes.
        #expect(h.lobby.activeGames == 1)
        h.failJournal(false)
        h.connect(4)
        _ = h.drain()
        h.send(4, "RESUME \(carol)")
        #expect(h.drain()[4]?.first == "OK RESUME id=1")
        #expect(h.lobby.activeGames == 2)
    }

    /// RESUME of a game that is not in memory writes nothing: it cannot fail
    /// for a full disk, and a turn whose commit fails cannot leave a
    /// connection seated by a RESUME it answered `ERR store-failed` (the
    /// lobby fuzzer found that, seed 2450503838, when the reload marked the
    /// game's last activity). The game is touched as it leaves memory.
    @Test func resumingAnUnloadedGameWritesNothing() throws {
        let h = try FaultHarness(botDelay: 0)
        let carol = try h.leaveAGameBehind()
        let touched = try h.storedInt("SELECT last_active FROM games WHERE id = 1")
        #expect(touched == h.clock.wall - 60, "the last activity is when its player left, written as it left memory a minute later")
        try h.failStatements("full", "UPDATE ON games")
        h.connect(4)
        _ = h.drain()
        h.send(4, "RESUME \(carol)")
        #expect(h.drain()[4]?.first == "OK RESUME id=1")
        #expect(h.lostTurns == 0 && h.lobby.activeGames == 1)
    }

    @Test func aLostTurnGivesBackAFinishedGameAndUndoesNamesAndNewGames() throws {
        let h = try FaultHarness()
        let t = try h.pair()
        h.send(1, "p")
        h.named(3, "carol")
        h.connect(4)
        _ = h.drain()
        try h.failCommits("trip", "UPDATE ON games WHEN NEW.status = 'over'")
        // One turn: alice resigns and opens a game against the computer; dave takes a name.
        h.inTurn(1, "LEAVE")
        h.inTurn(1, "NEW bot=easy")
        h.inTurn(4, "NAME dave")
        h.endTurn()
        let d = h.drain()
        #expect(d[1] == [storeFailed, storeFailed, gameLine(1, "alice,bob", t[0]), "TURN id=1 player=bob fragment=p last=alice"])
        #expect(d[2] == [gameLine(1, "alice,bob", t[1]), "TURN id=1 player=bob fragment=p last=alice"])
        #expect(d[4] == [storeFailed])
        #expect(d[3] == nil)
        #expect(!h.lobby.isIdentified(4))
        #expect(h.lobby.activeGames == 1)
        #expect(try h.storedInt("SELECT count(*) FROM games") == 1)
        #expect(try h.storedInt("SELECT count(*) FROM players WHERE name = 'dave'") == 0)
        try h.heal("trip")
        // The game goes on where the store has it; the names are free as before.
        h.send(2, "e")
        #expect(h.drain()[2]?.first == "OK LETTER letter=e fragment=pe")
        h.send(4, "NAME dave")
        #expect(h.drain() == [4: ["OK NAME name=dave lang=en"]])
        h.send(3, "NAME alice")
        #expect(h.drain() == [3: ["ERR name-taken another player is using that name"]])
    }

    /// A time loss (a game on a clock) that cannot be stored: nothing is
    /// sent, the game stays as it was, and the lobby tries again a second
    /// later, not at every turn of the loop; once the disk has room, it ends.
    @Test func aTimeLossThatCannotBeStoredIsTriedAgainLater() throws {
        let h = try FaultHarness()
        try h.pair("clock=10")
        _ = h.drain()
        // Its start waits in the move journal, so its end inserts the
        // finished row; the failed try's turn commits the start alone, so
        // the next try updates the row.
        try h.failStatements("full", "INSERT ON games WHEN NEW.status = 'over'")
        try h.failStatements("full2", "UPDATE ON games WHEN NEW.status = 'over'")
        h.clock.advance(10)
        h.tick()
        #expect(h.drain() == [:])
        #expect(try h.storedInt("SELECT count(*) FROM games WHERE status = 'active'") == 1)
        #expect(h.lobby.activeGames == 1)
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 1)
        h.clock.advance(1)
        h.tick()
        #expect(h.drain() == [:])
        try h.heal("full")
        try h.heal("full2")
        // With room again, the next try ends the game.
        h.clock.advance(1)
        h.tick()
        let over = "OVER id=1 winner=bob loser=alice reason=time fragment="
        let d = h.drain()
        #expect(d[1]?.first == over && d[2]?.first == over)
        #expect(h.lobby.activeGames == 0)
    }

    @Test func aLostTurnSendsPairedSeekersBackToTheLobby() throws {
        let h = try FaultHarness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK")
        _ = h.drain()
        // The game's start waits in the move journal: the turn's commit is
        // its append, which fails.
        h.failJournal()
        h.inTurn(2, "SEEK")
        h.endTurn()
        #expect(h.drain() == [
            1: ["INFO The server could not store your game, so you are not in a game now."],
            2: [storeFailed, "INFO The server could not store your game, so you are not in a game now."],
        ])
        #expect(h.lobby.activeGames == 0)
        #expect(try h.store.activeGames().isEmpty)
        h.failJournal(false)
        h.send(1, "SEEK")
        #expect(h.drain()[1]?.first == "OK SEEK lang=en")
    }
}
