import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import HangmanCore
@testable import GhostServer
import WordLists

/// Fair and phrase Hangman: a new round is a new word. RESTART
/// against the computer was free and kept the word, so a player learnt it
/// over a few rounds and then topped the best-games list with 0 mistakes.
@Suite(.ownThread) struct LobbyHangmanRestartTests {
    /// The lobby's lists' Hangman, to work out the words a seed gives.
    private let kind = HangmanKind(dictionaries: Dictionaries(lists: lobbyLists), phrases: [:])

    private func word(seed: UInt64, round: Int) -> String? {
        kind.game(language: "en", mode: .fair, length: 4, seed: GamePlay.roundSeed(seed, round: round))?.answer
    }

    @Test("Round seeds: the game's own for round 1, another for each later round, the same every time")
    func roundSeeds() {
        #expect(GamePlay.roundSeed(42, round: 1) == 42)
        #expect(GamePlay.roundSeed(42, round: 2) == GamePlay.roundSeed(42, round: 2))
        #expect(Set((1...50).map { GamePlay.roundSeed(42, round: $0) }).count == 50)
        // With this seed, round 2 of a fair game of 4 letters (pear, cats, dogs) has another word.
        let seed = (0..<100 as Range<UInt64>).first { word(seed: $0, round: 1) != word(seed: $0, round: 2) }
        #expect(seed != nil)
    }

    @Test("RESTART of fair Hangman after a guess draws the round's own word, kept across a restart of the server; solved, it is not ranked")
    func restartIsANewWordAndUnranked() throws {
        let h = try Harness()
        h.named(1, "carol")
        // A game whose restarted word differs from its first (two in three do).
        var gameID = 0, seed: UInt64 = 0
        for _ in 0..<30 {
            h.send(1, "NEW game=hangman mode=fair length=4")
            gameID += 1
            let stored = try #require(try h.store.activeGame(id: gameID))
            seed = stored.seed
            if word(seed: seed, round: 1) != word(seed: seed, round: 2) { break }
            h.send(1, "LEAVE")
        }
        let first = try #require(word(seed: seed, round: 1)), second = try #require(word(seed: seed, round: 2))
        #expect(first != second)
        h.send(1, "z")
        h.send(1, "RESTART")
        _ = h.drain()
        // The server restarts: the round is replayed from the same seed.
        h.disconnect(1)
        let again = try Harness(directory: h.directory)
        again.connect(1)
        let token = try #require(try again.store.activeGame(id: gameID)?.tokens[1])
        again.send(1, "RESUME \(token)")
        _ = again.drain()
        again.send(1, "SOLVE \(second)")
        let solved = again.drain()[1] ?? []
        #expect(solved.first == "OK SOLVE word=\(second) hit=yes pattern=\(second) missed=- left=8", "\(solved)")
        #expect(solved.contains { $0.hasPrefix("OVER id=\(gameID) winner=carol loser=bot-hangman reason=solved") })
        #expect(!solved.contains { $0.contains("board=hangman-fair") })
        again.send(1, "SCORES game=hangman mode=fair")
        #expect(again.drain()[1] == ["OK SCORES count=0 board=hangman-fair"])
        // The same without a restart is ranked.
        again.send(1, "NEW game=hangman mode=fair length=4")
        let next = try #require(try again.store.activeGame(id: gameID + 1))
        let answer = try #require(word(seed: next.seed, round: 1))
        again.send(1, "SOLVE \(answer)")
        _ = again.drain()
        again.send(1, "SCORES game=hangman mode=fair")
        #expect(again.drain()[1]?.last == "OK SCORES count=1 board=hangman-fair")
    }
}
