import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

// The harness and the lines: Support/BotHarness.swift. Matches: LobbyMatchTests.swift.

@Suite(.ownThread) struct LobbyComputerTests {
    // MARK: A game against the computer

    @Test func newBotHardPlaysAtOnceAndWins() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.send(1, "NEW bot=hard")
        let start = h.drain()
        let t = try tokenIn(start[1])
        #expect(start == [1: ["OK NEW bot=hard lang=en",
                              gameLine("alice,bot-hard", t, bot: "hard"),
                              turn("alice", "")]])
        #expect(h.lobby.activeGames == 1)
        #expect(h.lobby.nextDeadline == nil)   // no first-move limit in this lobby (the daemon's: LobbyLifecycleTests)

        // The computer's letter and the next TURN come with the reply, at once.
        h.send(1, "p")
        #expect(h.drain() == [1: ["OK LETTER letter=p fragment=p", move("alice", "p", "p"), turn("bot-hard", "p"),
                                  move("bot-hard", "e", "pe"), turn("alice", "pe")]])
        h.send(1, "a")
        // r would make "pear" on the computer: it plays c.
        #expect(h.drain() == [1: ["OK LETTER letter=a fragment=pea", move("alice", "a", "pea"), turn("bot-hard", "pea"),
                                  move("bot-hard", "c", "peac"), turn("alice", "peac")]])
        h.send(1, "h")
        // One RANK line: the person's, on the board of games against Hard.
        #expect(h.drain() == [1: ["OK LETTER letter=h fragment=peach", move("alice", "h", "peach"),
                                  "OVER id=1 winner=bot-hard loser=alice reason=word fragment=peach",
                                  "INFO \"peach\" is a word longer than 3 letters, so alice loses.",
                                  "RANK name=alice rank=1 wins=0"]])
        #expect(h.lobby.activeGames == 0)
        let result = try #require(try h.store.result(game: 1))
        #expect(result.winner == "bot-hard" && result.loser == "alice" && result.reason == "word" && result.finalState == "fragment=peach")
        #expect(try h.store.moves(game: 1, round: 1).map(\.move) == ["p", "e", "a", "c", "h"])

        // The scores: on board hard, nowhere else; the computer is not a player.
        h.send(1, "SCORES bot=hard")
        #expect(h.drain() == [1: ["SCORE rank=1 name=alice wins=0 played=1", "OK SCORES count=1 board=hard"]])
        h.send(1, "SCORES")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=game"]])
        h.send(1, "SCORES bot=easy")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=easy"]])
        h.send(1, "SCORES bot=hard mode=match")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=hard-match"]])
        h.send(1, "NAMES")
        #expect(h.drain() == [1: ["NAME name=alice", "OK NAMES count=1 more=no"]])
        // No rematch against the computer; alice is free again.
        h.send(1, "REMATCH")
        #expect(h.drain()[1]?.first?.hasPrefix("ERR no-rematch ") == true)
        h.send(1, "NEW bot=easy")
        #expect(h.drain()[1]?.first == "OK NEW bot=easy lang=en")
    }

    @Test func personBeatsHard() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.send(1, "NEW bot=hard")
        _ = h.drain()
        h.send(1, "c")
        #expect(h.drain() == [1: ["OK LETTER letter=c fragment=c", move("alice", "c", "c"), turn("bot-hard", "c"),
                                  move("bot-hard", "a", "ca"), turn("alice", "ca")]])
        h.send(1, "t")
        // At "cat" every letter loses for the computer: s makes "cats", anything else is dead.
        let lines = try #require(h.drain()[1])
        try #require(lines.count == 7, "\(lines)")
        #expect(Array(lines[0...2]) == ["OK LETTER letter=t fragment=cat", move("alice", "t", "cat"), turn("bot-hard", "cat")])
        let bot = try #require(Message.parse(lines[3]))
        let letter = try #require(bot["letter"]?.first)
        let fragment = "cat" + String(letter)
        #expect(lines[3] == move("bot-hard", letter, fragment))
        // A dead fragment names the word "cat" could have led to.
        #expect(lines[4] == "OVER id=1 winner=alice loser=bot-hard reason=\(letter == "s" ? "word" : "dead") fragment=\(fragment)"
                            + (letter == "s" ? "" : " word=cats"))
        #expect(lines[5] == (letter == "s" ? "INFO \"cats\" is a word longer than 3 letters, so bot-hard loses."
                                           : "INFO No word starts with \"\(fragment)\", so bot-hard loses; \"cat\" could have led to \"cats\"."))
        #expect(lines[6] == "RANK name=alice rank=1 wins=1")
        h.send(1, "SCORES 5 bot=hard")
        #expect(h.drain() == [1: ["SCORE rank=1 name=alice wins=1 played=1", "OK SCORES count=1 board=hard"]])
    }

    @Test func firstBotMakesTheComputerStart() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.send(1, "NEW bot=hard first=bot")
        let lines = try #require(h.drain()[1])
        let t = try tokenIn(lines)
        try #require(lines.count == 5, "\(lines)")
        #expect(Array(lines[0...2]) == ["OK NEW bot=hard lang=en", gameLine("bot-hard,alice", t, bot: "hard"), turn("bot-hard", "")])
        // The computer starts with a winning letter: c or d (p loses).
        let first = try #require(Message.parse(lines[3])?["letter"]?.first)
        #expect(first == "c" || first == "d", "\(lines[3])")
        #expect(lines[3] == move("bot-hard", first, String(first)))
        #expect(lines[4] == turn("alice", String(first)))
        // Everything else is forced: cats or dogs, made by alice.
        let word = first == "c" ? Array("cats") : Array("dogs")
        h.send(1, String(word[1]))
        #expect(h.drain() == [1: ["OK LETTER letter=\(word[1]) fragment=\(String(word[0...1]))",
                                  move("alice", word[1], String(word[0...1])), turn("bot-hard", String(word[0...1])),
                                  move("bot-hard", word[2], String(word[0...2])), turn("alice", String(word[0...2]))]])
        h.send(1, String(word[3]))
        #expect(h.drain() == [1: ["OK LETTER letter=\(word[3]) fragment=\(String(word))", move("alice", word[3], String(word)),
                                  "OVER id=1 winner=bot-hard loser=alice reason=word fragment=\(String(word))",
                                  "INFO \"\(String(word))\" is a word longer than 3 letters, so alice loses.",
                                  "RANK name=alice rank=1 wins=0"]])

        // first=me is the default made explicit.
        h.send(1, "NEW bot=medium first=me")
        let me = try #require(h.drain()[1])
        let t2 = try tokenIn(me)
        #expect(me == ["OK NEW bot=medium lang=en", "GAME id=2 game=ghost lang=en players=alice,bot-medium token=\(t2) round=1 bot=medium",
                       turn("alice", "", id: 2)])
    }

    @Test func computerNamesAreReserved() throws {
        let h = try BotHarness()
        h.connect(1)
        _ = h.drain()
        for name in ["bot-hard", "bot-easy", "BOT-Medium", "bot-x", "Bot-"] {
            h.send(1, "NAME \(name)")
            #expect(h.drain() == [1: ["ERR bad-name names starting with bot- are kept for the computer"]], "\(name)")
        }
        h.send(1, "NAME botany")
        #expect(h.drain() == [1: ["OK NAME name=botany lang=en"]])
        h.send(1, "NAMES")
        #expect(h.drain() == [1: ["NAME name=botany", "OK NAMES count=1 more=no"]])
    }

    // MARK: Hints

    @Test func hintOnlyAgainstEasy() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "HINT")   // not in a game
        #expect(h.drain() == [1: [noHints]])

        // Against Easy, on your turn: winning at the start (c or d win).
        h.send(1, "NEW bot=easy")
        _ = h.drain()
        h.send(1, "HINT")
        let hint = try #require(h.drain()[1])
        try #require(hint.count == 2, "\(hint)")
        let letter = try #require(Message.parse(hint[0])?["letter"])
        #expect(letter == "c" || letter == "d", "\(hint)")
        #expect(hint == ["OK HINT winning=yes letter=\(letter)", "INFO You can force a win from here: try \(letter)."])
        // A hint changes nothing: alice plays the losing p anyway; Easy's only safe reply is e.
        h.send(1, "p")
        #expect(h.drain() == [1: ["OK LETTER letter=p fragment=p", move("alice", "p", "p"), turn("bot-easy", "p"),
                                  move("bot-easy", "e", "pe"), turn("alice", "pe")]])
        h.send(1, "HINT")
        #expect(h.drain() == [1: ["OK HINT winning=no letter=a",
                                  "INFO With perfect play you lose from here; a gives your opponent the most chances to go wrong."]])
        h.send(1, "a")
        // Easy avoids "pear" (a word at once): c.
        #expect(h.drain()[1]?.suffix(2) == [move("bot-easy", "c", "peac"), turn("alice", "peac")])
        h.send(1, "h")
        #expect(h.drain()[1]?.suffix(3) == ["OVER id=1 winner=bot-easy loser=alice reason=word fragment=peach",
                                            "INFO \"peach\" is a word longer than 3 letters, so alice loses.",
                                            "RANK name=alice rank=1 wins=0"])
        h.send(1, "SCORES bot=easy")
        #expect(h.drain() == [1: ["SCORE rank=1 name=alice wins=0 played=1", "OK SCORES count=1 board=easy"]])

        // Against Hard and Medium: no hints.
        for level in ["hard", "medium"] {
            h.send(1, "NEW bot=\(level)")
            _ = h.drain()
            h.send(1, "HINT")
            #expect(h.drain() == [1: [noHints]], "\(level)")
            h.send(1, "LEAVE")
            _ = h.drain()
        }
        // Between people: no hints for either.
        h.send(1, "SEEK")
        h.send(2, "SEEK")
        _ = h.drain()
        h.send(1, "HINT")
        h.send(2, "HINT")
        #expect(h.drain() == [1: [noHints], 2: [noHints]])
    }

    @Test func hintAndLetterWhenItIsTheComputersTurn() throws {
        let h = try BotHarness(botDelay: 0.6)
        h.named(1, "alice")
        h.send(1, "NEW bot=easy first=bot")
        let lines = try #require(h.drain()[1])
        #expect(lines == ["OK NEW bot=easy lang=en", gameLine("bot-easy,alice", try tokenIn(lines), bot: "easy"), turn("bot-easy", "")])
        h.send(1, "HINT")
        #expect(h.drain() == [1: ["ERR not-your-turn hints are for your turn"]])
        h.send(1, "p")
        #expect(h.drain() == [1: ["ERR not-your-turn it is bot-easy's turn"]])
        h.send(1, "CLAIM")
        #expect(h.drain() == [1: ["ERR not-claimable the computer never leaves"]])
    }

    // MARK: Restart, language, claim

    @Test func restartAndLangAgainstTheComputerApplyAtOnce() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.send(1, "NEW bot=hard")
        let t = try tokenIn(h.drain()[1])
        // Before a letter: at once, same round.
        h.send(1, "RESTART")
        #expect(h.drain() == [1: ["OK RESTART status=done", gameLine("alice,bot-hard", t, bot: "hard"), turn("alice", "")]])
        h.send(1, "p")
        _ = h.drain()
        // After letters: still at once (the computer agrees), as a new round.
        h.send(1, "RESTART")
        #expect(h.drain() == [1: ["OK RESTART status=done", gameLine("alice,bot-hard", t, round: 2, bot: "hard"), turn("alice", "")]])
        h.send(1, "c")
        #expect(h.drain()[1]?.suffix(2) == [move("bot-hard", "a", "ca"), turn("alice", "ca")])
        h.send(1, "LANG nl")
        #expect(h.drain() == [1: ["OK LANG lang=nl status=done", gameLine("alice,bot-hard", t, round: 3, lang: "nl", bot: "hard"),
                                  turn("alice", "")]])
        h.send(1, "k")
        #expect(h.drain() == [1: ["OK LETTER letter=k fragment=k", move("alice", "k", "k"), turn("bot-hard", "k"),
                                  move("bot-hard", "a", "ka"), turn("alice", "ka")]])
        let stored = try #require(try h.store.activeGames().first)
        #expect(stored.lang == "nl" && stored.round == 3 && stored.fragment == "ka" && stored.toMove == 0)
        #expect(stored.bots == [nil, "hard"])
        #expect(try h.store.moves(game: 1, round: 3).map(\.move) == ["k", "a"])
        // No offer was made, so nothing is pending.
        h.send(1, "ACCEPT")
        #expect(h.drain()[1]?.first?.hasPrefix("ERR no-offer ") == true)
        h.send(1, "CLAIM")
        #expect(h.drain() == [1: ["ERR not-claimable the computer never leaves"]])
    }

    @Test func restartWhenTheComputerStartsReplaysItsFirstLetter() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.send(1, "NEW bot=hard first=bot")
        let t = try tokenIn(h.drain()[1])
        h.send(1, "RESTART")
        let lines = try #require(h.drain()[1])
        try #require(lines.count == 5, "\(lines)")
        #expect(Array(lines[0...2]) == ["OK RESTART status=done", gameLine("bot-hard,alice", t, round: 2, bot: "hard"), turn("bot-hard", "")])
        let first = try #require(Message.parse(lines[3])?["letter"]?.first)
        #expect(first == "c" || first == "d")
        #expect(Array(lines[3...]) == [move("bot-hard", first, String(first)), turn("alice", String(first))])
    }

    // MARK: Away and back

    @Test func disconnectAdjournsAComputerGameAndResumeWorks() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.send(1, "NEW bot=hard")
        let t = try tokenIn(h.drain()[1])
        h.send(1, "p")
        _ = h.drain()
        h.disconnect(1)
        #expect(h.drain() == [:])
        #expect(h.lobby.activeGames == 1)
        // Nobody can claim against an absent person here; nobody is at the
        // game, so it leaves memory a minute later (Lifecycle.swift).
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 60)
        h.connect(2)
        _ = h.drain()
        h.send(2, "RESUME \(t)")
        #expect(h.drain() == [2: ["OK RESUME id=1", gameLine("alice,bot-hard", t, bot: "hard"), turn("alice", "pe", last: "bot-hard")]])
        h.send(2, "a")
        #expect(h.drain()[2]?.suffix(2) == [move("bot-hard", "c", "peac"), turn("alice", "peac")])

        // The server restarts: the game is restored with its computer seat.
        h.disconnect(2)
        let h2 = try BotHarness(directory: h.directory)
        #expect(h2.lobby.activeGames == 0)   // loaded on RESUME, not at start
        h2.connect(1)
        _ = h2.drain()
        h2.send(1, "RESUME \(t)")
        #expect(h2.drain() == [1: ["OK RESUME id=1", gameLine("alice,bot-hard", t, bot: "hard"), turn("alice", "peac", last: "bot-hard")]])
        h2.send(1, "h")
        #expect(h2.drain()[1]?.suffix(3) == ["OVER id=1 winner=bot-hard loser=alice reason=word fragment=peach",
                                             "INFO \"peach\" is a word longer than 3 letters, so alice loses.",
                                             "RANK name=alice rank=1 wins=0"])
    }

    // MARK: The computer with a delay

    @Test func withADelayTheComputerPlaysOnTick() throws {
        let h = try BotHarness(botDelay: 0.6)
        h.named(1, "alice")
        h.send(1, "NEW bot=hard")
        _ = h.drain()
        #expect(h.lobby.nextDeadline == nil)   // no first-move limit in this lobby (the daemon's: LobbyLifecycleTests)
        h.send(1, "p")
        #expect(h.drain() == [1: ["OK LETTER letter=p fragment=p", move("alice", "p", "p"), turn("bot-hard", "p")]])
        let due = try #require(h.lobby.nextDeadline)
        let now = h.clock.monotonic
        // About 0.6 s: 0.6 × 0.6…1.4.
        #expect(due >= now + 0.36 - 1e-9 && due <= now + 0.84 + 1e-9, "\(due - now)")
        h.tick()
        #expect(h.drain() == [:])
        h.clock.advance(due - now - 0.01)
        h.tick()
        #expect(h.drain() == [:])
        h.send(1, "e")
        #expect(h.drain() == [1: ["ERR not-your-turn it is bot-hard's turn"]])
        h.clock.advance(0.01)
        h.tick()
        #expect(h.drain() == [1: [move("bot-hard", "e", "pe"), turn("alice", "pe")]])
        #expect(h.lobby.nextDeadline == nil)
        // A restart while the computer is due cancels its move.
        h.send(1, "a")
        _ = h.drain()
        #expect(h.lobby.nextDeadline != nil)
        h.send(1, "RESTART")
        #expect(h.drain()[1]?.first == "OK RESTART status=done")
        #expect(h.lobby.nextDeadline == nil)
        h.clock.advance(5)
        h.tick()
        #expect(h.drain() == [:])
    }

    @Test func withADelayARestoredGameWhereTheComputerIsToMovePlaysOnTick() throws {
        let h = try BotHarness(botDelay: 0.6)
        h.named(1, "alice")
        h.send(1, "NEW bot=hard first=bot")
        let t = try tokenIn(h.drain()[1])
        #expect(h.lobby.nextDeadline != nil)
        // The server stops before the computer plays; on restart the game is
        // not loaded (no clock), and RESUME schedules the computer again.
        let h2 = try BotHarness(directory: h.directory, botDelay: 0.6)
        #expect(h2.lobby.nextDeadline == nil)
        h2.connect(1)
        _ = h2.drain()
        h2.send(1, "RESUME \(t)")
        #expect(h2.drain() == [1: ["OK RESUME id=1", gameLine("bot-hard,alice", t, bot: "hard"), turn("bot-hard", "")]])
        // (A RESUME schedules the computer afresh.)
        let due = try #require(h2.lobby.nextDeadline)
        h2.clock.advance(due - h2.clock.monotonic)
        h2.tick()
        let lines = try #require(h2.drain()[1])
        try #require(lines.count == 2, "\(lines)")
        let first = try #require(Message.parse(lines[0])?["letter"]?.first)
        #expect(lines == [move("bot-hard", first, String(first)), turn("alice", String(first))])
        #expect(first == "c" || first == "d")
    }

    @Test func withoutADelayARestoredGameWhereTheComputerIsToMovePlaysOnResume() throws {
        let h = try BotHarness(botDelay: 0.6)
        h.named(1, "alice")
        h.send(1, "NEW bot=hard first=bot")
        let t = try tokenIn(h.drain()[1])
        // Restarted with --bot-delay 0: the game is not loaded at start (no
        // clock); the computer plays as soon as RESUME loads it.
        let h2 = try BotHarness(directory: h.directory)
        #expect(h2.lobby.nextDeadline == nil)
        #expect(try h2.store.activeGames().first?.moves == [])
        h2.connect(1)
        _ = h2.drain()
        h2.send(1, "RESUME \(t)")
        let lines = try #require(h2.drain()[1])
        try #require(lines.count == 5, "\(lines)")
        let first = try #require(Message.parse(lines[3])?["letter"]?.first)
        #expect(first == "c" || first == "d")
        #expect(lines == ["OK RESUME id=1", gameLine("bot-hard,alice", t, bot: "hard"), turn("bot-hard", ""),
                          move("bot-hard", first, String(first)), turn("alice", String(first))])
        let stored = try #require(try h2.store.activeGames().first)
        #expect(stored.fragment == String(first) && stored.toMove == 1)
    }

    // MARK: A match against the computer

    /// alice starts odd rounds and loses them with p e a c h; the computer starts even
    /// rounds with c or d and alice loses with s. Five rounds, one match on hard-match.
    @Test func matchAgainstHardToGhost() throws {
        let h = try BotHarness()
        h.named(1, "alice")
        h.send(1, "NEW bot=hard rounds=ghost")
        let start = try #require(h.drain()[1])
        let t = try tokenIn(start)
        #expect(start == ["OK NEW bot=hard lang=en rounds=ghost", gameLine("alice,bot-hard", t, bot: "hard", ghost: ","),
                          turn("alice", "", ghost: ",")])
        let ghosts = ["", "G", "GH", "GHO", "GHOS", "GHOST"]
        var pending: [String] = []   // lines of the new round already received
        for round in 1...5 {
            let g = ghosts[round - 1] + ","
            let next = ghosts[round] + ","
            var word: [Character]
            if round % 2 == 1 {
                // alice starts: p, e, a, c, h.
                word = Array("peach")
                #expect(pending.isEmpty)
                h.send(1, "p")
                #expect(h.drain() == [1: ["OK LETTER letter=p fragment=p", move("alice", "p", "p"), turn("bot-hard", "p", ghost: g),
                                          move("bot-hard", "e", "pe"), turn("alice", "pe", ghost: g)]], "round \(round)")
                h.send(1, "a")
                #expect(h.drain()[1]?.suffix(2) == [move("bot-hard", "c", "peac"), turn("alice", "peac", ghost: g)], "round \(round)")
            } else {
                // The computer started: c or d, then alice, the computer, alice (s loses).
                try #require(pending.count == 2, "round \(round): \(pending)")
                let first = try #require(Message.parse(pending[0])?["letter"]?.first)
                word = first == "c" ? Array("cats") : Array("dogs")
                #expect(pending == [move("bot-hard", first, String(first)), turn("alice", String(first), ghost: g)])
                h.send(1, String(word[1]))
                #expect(h.drain()[1]?.suffix(2) == [move("bot-hard", word[2], String(word[0...2])),
                                                    turn("alice", String(word[0...2]), ghost: g)], "round \(round)")
            }
            let last = word.last!
            h.send(1, String(last))
            let lines = try #require(h.drain()[1])
            let w = String(word)
            let over = "OVER id=1 winner=bot-hard loser=alice reason=word fragment=\(w) ghost=\(next)"
            let why = "INFO \"\(w)\" is a word longer than 3 letters, so alice loses."
            if round < 5 {
                let starter = round % 2 == 1 ? "bot-hard" : "alice"
                let expected = ["OK LETTER letter=\(last) fragment=\(w)", move("alice", last, w), over,
                                why + " alice earns the letter \(Array("GHOST")[round - 1]).",
                                gameLine("alice,bot-hard", t, round: round + 1, bot: "hard", ghost: next),
                                turn(starter, "", ghost: next)]
                try #require(lines.count >= expected.count, "round \(round): \(lines)")
                #expect(Array(lines.prefix(expected.count)) == expected, "round \(round)")
                pending = Array(lines.dropFirst(expected.count))
                #expect(pending.count == (starter == "bot-hard" ? 2 : 0), "round \(round): \(pending)")
            } else {
                #expect(lines == ["OK LETTER letter=\(last) fragment=\(w)", move("alice", last, w), over, why,
                                  "MATCH id=1 winner=bot-hard loser=alice ghost=GHOST,",
                                  "INFO alice spelled GHOST: bot-hard wins the match.",
                                  "RANK name=alice rank=1 wins=0"])
            }
        }
        #expect(h.lobby.activeGames == 0)
        h.send(1, "SCORES bot=hard mode=match")
        #expect(h.drain() == [1: ["SCORE rank=1 name=alice wins=0 played=1", "OK SCORES count=1 board=hard-match"]])
        h.send(1, "SCORES bot=hard")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=hard"]])
        h.send(1, "SCORES mode=match")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=match"]])
    }
}
