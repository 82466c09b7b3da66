import Foundation
import Testing
@testable import GhostStore

/// Games' starts in the move journal (JournalStart.swift): a start made
/// outside a transaction is appended as a line and its row inserted by a
/// later transaction (its end: in one INSERT); reads see it meanwhile; a
/// crash leaves the line, which the next open inserts.
@Suite struct JournalStartTests {
    /// A game with tokens of the new form (as the server makes them).
    private func start(_ store: Store, players: [String] = ["ann", "ben"], networks: [String]? = ["10.0.0.1", "10.0.0.2"],
                       now: Int = t0) throws -> (id: Int, tokens: [String]) {
        let id = try store.nextGameID()
        let tokens = [ResumeTokens.new(game: id, seat: 0), ResumeTokens.new(game: id, seat: 1)]
        let made = try store.createGame(NewGame(kind: "ghost", variant: "super", settings: "a b%c", seed: UInt64.max - 4, lang: "nl",
                                                players: players, tokens: tokens, bots: [nil, "hard"], clock: 30),
                                        networks: networks, now: now)
        #expect(made == id)
        return (id, tokens)
    }

    private func rows(_ dir: TempDir) throws -> [String] {
        let db = try raw(dir)
        defer { db.close() }
        return try db.query("""
            SELECT id || ' ' || status || ' ' || player0 || ' ' || player1 || ' ' || coalesce(bot1, '-') || ' ' || settings || ' '
                   || seed || ' ' || net0 || ' ' || last_active || ' ' || coalesce(winner, '-') || ' ' || substr(token0, 1, 1)
            FROM games ORDER BY id
            """) { $0.text(0) }
    }

    private func journalLines(_ dir: TempDir) throws -> [Substring] {
        try journalBody(dir).split(separator: "\n")
    }

    @Test func aLineKeepsEveryFieldAndRefusesAnyChangedByte() throws {
        let s = JournalStart(id: 41, kind: "hangman", variant: "", settings: "length=any misses=8 %\n\u{1B}[2J é",
                             seed: Int(Int64.min), lang: "en", player0: "ann", player1: "Bén", token0: "~0123456789abcdef0123",
                             token1: "", bot0: nil, bot1: "hard", rounds: 3, starter: 1, startedAt: t0, clock: 0, watch: false,
                             lastActive: 0, net0: "", net1: "2001:db8::")
        var bytes: [UInt8] = []
        s.appendLine(to: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("start "))
        #expect(text.hasSuffix(" =2001:db8::\n"))
        #expect(text.filter { $0 == "\n" }.count == 1)
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains(" =hangman = =length=any%20misses=8%20%25%0a%1b[2J%20é =en =ann =Bén =~0123456789abcdef0123 = - =hard = "))
        #expect(JournalStart.parseLine(bytes.dropLast()) == s)
        for i in 0..<(bytes.count - 1) {
            var bad = bytes
            bad[i] = bad[i] == 0x31 ? 0x32 : 0x31
            #expect(JournalStart.parseLine(bad.dropLast()) == nil, "byte \(i)")
        }
        #expect(JournalStart.parseLine(bytes.prefix(30)) == nil)
    }

    @Test func aStartAloneIsAppendedAndReadsSeeItWithNoRow() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        let (id, tokens) = try start(store)
        #expect(store.hasPendingWrites)
        try store.commit()
        #expect(store.lastCommitWrote == .journal)
        #expect(try rows(dir) == [])
        #expect(try journalLines(dir).map { $0.prefix(6) } == ["start "])
        try store.recordMove(game: id, round: 1, ply: 1, seat: 0, move: "q", now: t0 + 5)
        try store.commit()

        let game = try #require(try store.activeGame(token: tokens[1]))
        #expect(game.id == id && game.players == ["ann", "ben"] && game.tokens == tokens && game.bots == [nil, "hard"])
        #expect(game.settings == "a b%c" && game.seed == UInt64.max - 4 && game.lang == "nl" && game.clock == 30)
        #expect(game.moves.map(\.move) == ["q"])
        #expect(try store.activeGames().map(\.id) == [id])
        let wrong = tokens[0].dropLast() + (tokens[0].hasSuffix("0") ? "1" : "0")
        #expect(try store.activeGame(token: String(wrong)) == nil)
        #expect(try store.replayedGame(id: id)?.players == ["ann", "ben"])
        #expect(try store.untouchedGames(before: t0 + 1, limit: 5).map(\.id) == [id])
        #expect(try store.untouchedGames(before: t0, limit: 5).isEmpty)
        #expect(try store.nextGameID() == id + 1)
    }

    @Test func itsEndInsertsTheFinishedRowInOneInsert() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        let (id, _) = try start(store)
        try store.commit()
        try store.recordMove(game: id, round: 1, ply: 1, seat: 0, move: "q", now: t0 + 1)
        try store.commit()
        let before = store.db.totalChanges
        try store.finishGame(game: id, winner: "ann", loser: "ben", reason: "word", finalState: "fragment=qua", board: "game", people: [], now: t0 + 9)
        #expect(store.db.totalChanges - before == 1)   // the row alone: no INSERT then UPDATE
        try store.commit()
        #expect(store.lastCommitWrote == .database)
        #expect(try rows(dir) == ["\(id) over ann ben hard a b%c \(Int64(bitPattern: UInt64.max - 4)) 10.0.0.1 \(t0) ann ~"])
        #expect(try store.moves(game: id, round: 1).map(\.move) == ["q"])
        #expect(try store.activeGames().isEmpty)
        #expect(try store.result(game: id)?.winner == "ann")
    }

    @Test func aWriteToAWaitingGameInsertsItsRowFirstAndAnUndoneCommandLeavesItWaiting() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        let (id, tokens) = try start(store)
        try store.commit()
        store.beginCommand()
        try store.setOffer(game: id, offer: .init(seat: 0, kind: "restart", lang: nil), spent: [true, false])
        #expect(store.rollbackCommand())
        #expect(try store.activeGame(token: tokens[0])?.offer == nil)
        store.beginCommand()
        try store.setOffer(game: id, offer: .init(seat: 1, kind: "restart", lang: nil), spent: [false, true])
        try store.endCommand()
        #expect(try store.activeGame(token: tokens[0])?.offer?.seat == 1)
        try store.commit()
        #expect(try rows(dir).count == 1)
        #expect(try store.activeGame(token: tokens[0])?.offer?.seat == 1)
        #expect(try store.activeGame(token: tokens[0])?.tokens == tokens)
    }

    @Test func aCrashLeavesTheLineAndTheNextOpenInsertsTheRow() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        var made: (id: Int, tokens: [String]) = (0, [])
        do {
            let store = try Store(directory: dir.path, durability: .normal)   // never closed: the process dies
            made = try start(store)
            try store.commit()
            try store.recordMove(game: made.id, round: 1, ply: 1, seat: 0, move: "x", now: t0 + 1)
            try store.commit()
            #expect(try rows(dir) == [])
        }
        let again = try Store(directory: dir.path, durability: .normal)
        defer { again.close() }
        #expect(try rows(dir) == ["\(made.id) active ann ben hard a b%c \(Int64(bitPattern: UInt64.max - 4)) 10.0.0.1 \(t0) - ~"])
        #expect(try journalLines(dir) == [])
        #expect(try again.activeGame(token: made.tokens[0])?.moves.map(\.move) == ["x"])
        #expect(try again.activeGameCount(player: "ann", limit: 9) == 1)
        #expect(try again.nextGameID() == made.id + 1)
    }

    @Test func aRolledBackTurnDropsItsStartAndAnotherTransactionFoldsTheWaitingOnes() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        let (first, _) = try start(store)
        try store.commit()
        let (second, _) = try start(store, players: ["cat", "dan"])
        #expect(second == first + 1)
        store.rollback()
        #expect(try store.activeGames().map(\.id) == [first])
        #expect(try journalLines(dir).count == 1)
        let (third, _) = try start(store, players: ["eve", "fay"])
        #expect(third == first + 1)   // the rolled-back id, given again; never a waiting game's
        _ = try store.registerName("gus", now: t0)   // a transaction: both starts go in
        try store.commit()
        #expect(try rows(dir).map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == ["\(first) active ann", "\(third) active eve"])
        #expect(store.journal.starts.isEmpty)
    }

    @Test func aStartWithATokenOfAnotherFormIsInsertedAtOnce() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try Store(directory: dir.path, durability: .normal)
        defer { store.close() }
        let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["ann", "ben"], tokens: freshTokens()), now: t0)
        try store.commit()
        #expect(store.lastCommitWrote == .database)
        #expect(try rows(dir).count == 1 && id == 1)
    }
}
