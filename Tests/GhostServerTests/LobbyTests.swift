import Foundation
import Testing
import TestSupport
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore


@Suite(.ownThread) struct LobbyTests {
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
        // then one per game kind, as the kind declares it, then each kind's moves.
        let kinds = [
            "HELP NEW [game=ghost] [bot=easy|medium|hard [first=bot]] [variant=super|challenge] [rounds=ghost] - Ghost (the default game): add a letter without making a word; variant=super adds at either end, variant=challenge lets you bluff",
            "HELP NEW game=hangman [mode=evil|fair|phrase|duel] [length=<n>|any] [misses=<n>] [bot=guesser] - Hangman: guess the word letter by letter; mode=evil|fair|phrase against the computer, mode=duel between two",
        ]
        let moves = [
            "HELP LETTER <c> [front] - game=ghost: play a letter at the end; variant=super: front puts it at the front; a line holding just one letter plays it at the end",
            "HELP WORD <word> - game=ghost: variant=challenge: answer a challenge with a word that starts with the fragment",
            "HELP CHALLENGE - game=ghost: variant=challenge, on your turn: say no word starts with the fragment; the previous player must answer WORD <word> or CONCEDE",
            "HELP CONCEDE - game=ghost: variant=challenge: give up when challenged (you have no word): you lose",
            "HELP LETTER <c> - game=hangman: guess a letter",
            "HELP SOLVE <answer> - game=hangman: guess the whole answer (a phrase with / between its words); a wrong answer costs a miss",
            "HELP WORD <word> - game=hangman: mode=duel: as the setter, choose the word to guess (a word of the game's dictionary)",
        ]
        #expect(lines == CommandTable.specs.map { "HELP \($0.synopsis) - \($0.help)" } + kinds + moves + ["OK HELP"])
        #expect(lines.contains("HELP NEW [game=<kind>] [<the kind's options>] [bot=<level> [first=bot|me]] [clock=<seconds>] [watch=no] [rated=yes|no] - "
                               + "open a private game (the reply carries its join code), or play the computer at once (bot=, or a kind that always plays it); "
                               + "each kind's options and levels are on its HELP NEW line; clock= gives each move that many seconds; watch=no keeps watchers out; "
                               + "rated between registered names unless rated=no, never against the computer"))
        #expect(lines.contains("HELP SCORES [game=<kind>] [mode=<list>] [bot=<level>] [n] - a high-score list, top n (1-100, default 10): a kind that ranks players by wins, by wins (mode=game|match, bot=<level>), another its best games (mode=<its list>)"))
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
        #expect(h.drain()[1] == ["ERR bad-arguments usage: SEEK [game=<kind>] [<the kind's options>] [clock=<seconds>] [rated=yes|no] [range=<low>-<high>]"])
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
}
