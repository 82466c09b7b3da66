import Foundation
import Testing
@testable import GhostStore

/// Resume tokens that name their game (schema 14, ResumeTokens.swift): 12
/// hex digits of `id * 2 + seat`, then an 80-bit secret; the row keeps `~`
/// and the secret, out of the token indexes, and RESUME reads it by its id.
@Suite("Store: resume tokens that name their game and seat")
struct ResumeTokenTests {
    /// A token of the new form for `game`'s `seat`, with `secret` (20 hex digits).
    private func token(_ game: Int, _ seat: Int, _ secret: String) throws -> String {
        try #require(ResumeTokens.prefix(game: game, seat: seat)) + secret
    }

    private let secrets = ["0123456789abcdef0123", "fedcba9876543210fedc"]

    /// A game created with tokens for the id the store gives it next.
    private func newGame(_ store: Store, players: [String] = ["alice", "bob"], secrets given: [String]? = nil) throws -> (id: Int, tokens: [String]) {
        let next = try store.nextGameID()
        let secrets = given ?? self.secrets
        let tokens = [try token(next, 0, secrets[0]), try token(next, 1, secrets[1])]
        let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: players, tokens: tokens), now: t0)
        #expect(id == next)
        return (id, tokens)
    }

    @Test func theTokenNamesTheGameAndSeat() throws {
        #expect(ResumeTokens.prefix(game: 1, seat: 0) == "000000000002")
        #expect(ResumeTokens.prefix(game: 1, seat: 1) == "000000000003")
        #expect(ResumeTokens.prefix(game: 0x1234, seat: 1) == "000000002469")
        #expect(ResumeTokens.prefix(game: ResumeTokens.maxGame, seat: 1) == "ffffffffffff")
        // Past 12 digits of id * 2 + seat: no prefix (such a game's tokens are 128 random bits).
        #expect(ResumeTokens.prefix(game: ResumeTokens.maxGame + 1, seat: 0) == nil)
        #expect(ResumeTokens.prefix(game: 0, seat: 0) == nil)
        #expect(ResumeTokens.prefix(game: 1, seat: 2) == nil)
    }

    @Test func aNewTokenIsStoredAsItsSecretAndFoundByItsId() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        try store.registerName("alice", now: t0)
        try store.registerName("bob", now: t0)
        let (id, tokens) = try newGame(store)
        try store.commit()
        // The row keeps `~` and the secret: no token index holds it.
        let stored = try store.db.query("SELECT token0, token1 FROM games WHERE id = ?", .of(id)) { [$0.text(0), $0.text(1)] }
        #expect(stored == [["~" + secrets[0], "~" + secrets[1]]])
        let indexed = try store.db.query("SELECT count(*) FROM games INDEXED BY games_token0 WHERE token0 <> '' AND token0 < '~'") { $0.int(0) }
        #expect(indexed == [0])
        // Found by either seat's token, with the tokens as they were given.
        for seat in 0..<2 {
            let game = try #require(try store.activeGame(token: tokens[seat]))
            #expect(game.id == id)
            #expect(game.tokens == tokens)
        }
        #expect(try store.activeGame(id: id)?.tokens == tokens)
        #expect(try store.finishedGame(token: tokens[0]) == nil)
        // Once over, RESUME finds how it ended.
        try store.finishGame(game: id, winner: "alice", loser: "bob", reason: "word", finalState: "fragment=pear", board: "game", now: t0 + 5)
        try store.commit()
        #expect(try store.activeGame(token: tokens[1]) == nil)
        #expect(try store.finishedGame(token: tokens[1])?.id == id)
        #expect(try store.finishedGame(token: tokens[0])?.winner == "alice")
    }

    @Test func aTokenThatDiffersInAnyWayFindsNothing() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        let (id, tokens) = try newGame(store)
        let (other, otherTokens) = try newGame(store, players: ["carol", "dave"], secrets: ["11111111112222222222", "33333333334444444444"])
        try store.commit()
        var wrong: [String] = []
        // One digit of the secret changed, at each place.
        for i in 12..<32 {
            var bytes = Array(tokens[0].utf8)
            bytes[i] = bytes[i] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            wrong.append(String(decoding: bytes, as: UTF8.self))
        }
        // The other seat's, or the other game's, id with this secret.
        wrong.append(try token(id, 1, secrets[0]))
        wrong.append(try token(other, 0, secrets[0]))
        wrong.append(try token(id + 5, 0, secrets[0]))
        // Malformed: uppercase, too short or long, not hex, no game 0.
        wrong += [tokens[0].uppercased(), String(tokens[0].dropLast()), tokens[0] + "0", String(tokens[0].dropLast()) + "g",
                  "000000000000" + secrets[0], "000000000001" + secrets[0], "~" + secrets[0], secrets[0], "", "no-such-token"]
        for bad in wrong {
            #expect(try store.activeGame(token: bad) == nil, "\(bad)")
            #expect(try store.finishedGame(token: bad) == nil, "\(bad)")
        }
        #expect(try store.activeGame(token: tokens[0])?.id == id)
        #expect(try store.activeGame(token: otherTokens[1])?.id == other)
    }

    @Test func anyOtherTokenIsStoredAsGivenAndFoundThroughItsIndex() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        let next = try store.nextGameID()
        // 128 random bits; and a token of the new form naming another game.
        let tokens = ["0123456789abcdef0123456789abcdef", try token(next + 1, 1, secrets[1])]
        let id = try store.createGame(NewGame(kind: "ghost", lang: "en", players: ["alice", "bob"], tokens: tokens), now: t0)
        try store.commit()
        let stored = try store.db.query("SELECT token0, token1 FROM games WHERE id = ?", .of(id)) { [$0.text(0), $0.text(1)] }
        #expect(stored == [tokens])
        #expect(try store.activeGame(token: tokens[0])?.tokens == tokens)
        #expect(try store.activeGame(token: tokens[1])?.id == id)
    }

    @Test func aRolledBackGameGivesItsIdBack() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let store = try openStore(dir.path)
        defer { store.close() }
        let (first, _) = try newGame(store)
        try store.commit()
        let (second, _) = try newGame(store)
        #expect(second == first + 1)
        store.rollback()
        // The id is given again, with tokens that name it.
        let (again, tokens) = try newGame(store)
        #expect(again == second)
        try store.commit()
        #expect(try store.activeGame(token: tokens[1])?.id == again)
        // The same with a command's rollback.
        store.beginCommand()
        let (third, _) = try newGame(store)
        store.rollbackCommand()
        #expect(try store.nextGameID() == third)
    }

    @Test func secretsAreComparedWhole() {
        #expect(ResumeTokens.matches(stored: "~abc", secret: "abc"))
        #expect(!ResumeTokens.matches(stored: "~abd", secret: "abc"))
        #expect(!ResumeTokens.matches(stored: "~abc", secret: "abcd"))
        #expect(!ResumeTokens.matches(stored: "abc", secret: "abc"))
        #expect(!ResumeTokens.matches(stored: "~abc", secret: "ab"))
        #expect(!ResumeTokens.matches(stored: "", secret: ""))
    }

    @Test("A new token is its prefix and 20 lowercase hex digits (all 16 seen), or 32 random ones past maxGame")
    func newTokensHaveTheirForm() {
        let hex = Set("0123456789abcdef")
        var seen = Set<Character>()
        for game in [1, 2, 9, 10, 0xABCDE, 0x7FFF_FFFF, ResumeTokens.maxGame] {
            for seat in 0...1 {
                let padded = String(repeating: "0", count: 12) + String(game * 2 + seat, radix: 16)
                let prefix = String(padded.suffix(12))
                for _ in 0..<20 {
                    let token = ResumeTokens.new(game: game, seat: seat)
                    #expect(token.count == 32 && token.allSatisfy(hex.contains))
                    #expect(token.hasPrefix(prefix), "\(token) for \(game)/\(seat)")
                    #expect(ResumeTokens.parse(token).map { [$0.game, $0.seat] } == [game, seat])
                    seen.formUnion(token.dropFirst(12))
                }
            }
        }
        #expect(seen == hex)
        let past = ResumeTokens.new(game: ResumeTokens.maxGame + 1, seat: 0)
        #expect(past.count == 32 && past.allSatisfy(hex.contains))
        #expect(ResumeTokens.new(game: 1, seat: 0) != ResumeTokens.new(game: 1, seat: 0))
    }

    @Test("Eight hex digits a word, most significant first in memory")
    func hexWordSpellsItsNumber() {
        for x: UInt32 in [0, 1, 9, 10, 15, 16, 0xDEAD_BEEF, 0x0123_ABCD, .max, 0xA0A0_9F9F] {
            let word = ResumeTokens.hexWord(x)
            let text = withUnsafeBytes(of: word) { String(decoding: $0, as: UTF8.self) }
            let padded = String(repeating: "0", count: 8) + String(x, radix: 16)
            #expect(text == String(padded.suffix(8)))
        }
    }
}
