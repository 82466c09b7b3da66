import Testing
import GhostCore
import GhostProtocol
import GhostServer

/// Records what the lobby sends, per connection, in order.
final class RecordingOutbox: Outbox {
    private(set) var sent: [(id: ConnectionID, line: String)] = []
    private(set) var closed: [ConnectionID] = []
    private var cursor = 0

    func send(_ line: ServerLine, to id: ConnectionID) { sent.append((id, line.rendered)) }
    func close(_ id: ConnectionID) { closed.append(id) }

    /// Lines sent since the last drain, grouped by connection.
    func drain() -> [ConnectionID: [String]] {
        var out: [ConnectionID: [String]] = [:]
        for (id, line) in sent[cursor...] { out[id, default: []].append(line) }
        cursor = sent.count
        return out
    }
}

private let lobbyLists: [String: WordList] = [
    "en": WordList(words: ["pea", "pear", "peach", "cat", "cats", "dog", "dogs"]),
    "nl": WordList(words: ["huis", "huisje", "kat", "katten"]),
]

/// A lobby with a recording outbox. Connection 1 is alice, 2 is bob, 3 is carol.
private final class Harness {
    let outbox = RecordingOutbox()
    let lobby: Lobby

    init() {
        lobby = Lobby(dictionaries: Dictionaries(lists: lobbyLists), outbox: outbox)
    }

    func connect(_ id: ConnectionID) { lobby.connected(id) }

    func send(_ id: ConnectionID, _ line: String) {
        lobby.received(.line(Array(line.utf8)), from: id)
    }

    func drain() -> [ConnectionID: [String]] { outbox.drain() }

    /// Connects and names the connection; drops what that sent.
    func named(_ id: ConnectionID, _ name: String) {
        connect(id)
        send(id, "NAME \(name)")
        _ = drain()
    }

    /// alice (1) and bob (2) paired by SEEK in English: game 1, alice to move.
    func pairAliceAndBob() {
        named(1, "alice")
        named(2, "bob")
        send(1, "SEEK")
        send(2, "SEEK")
        _ = drain()
    }
}

/// Checks one connection's lines: an exact first word and code, loose text.
private func isErr(_ line: String?, _ code: ErrorCode) -> Bool {
    line?.hasPrefix("ERR \(code.rawValue) ") ?? false
}

@Suite struct LobbyTests {
    @Test func helloOnConnect() {
        let h = Harness()
        h.connect(1)
        #expect(h.drain() == [1: ["HELLO ghostd/\(Lobby.version) protocol=1 languages=en,nl"]])
        #expect(h.lobby.connectionCount == 1)
        #expect(Lobby.protocolVersion == 1)
    }

    @Test func nameAndPing() {
        let h = Harness()
        h.connect(1)
        _ = h.drain()
        h.send(1, "NAME alice")
        #expect(h.drain() == [1: ["OK NAME name=alice"]])
        h.send(1, "PING")
        #expect(h.drain() == [1: ["OK PING"]])
        h.send(1, "")
        h.send(1, "   ")
        #expect(h.drain() == [:])
    }

    @Test func help() throws {
        let h = Harness()
        h.named(1, "alice")
        h.send(1, "HELP")
        let lines = try #require(h.drain()[1])
        #expect(lines.count == Command.helpLines.count + 1)
        #expect(lines.last == "OK HELP")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("INFO ") })
    }

    @Test func seekPairsFirstSeekerMovesFirst() {
        let h = Harness()
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
        #expect(h.drain() == [
            1: ["GAME id=1 lang=en players=alice,bob", "TURN id=1 player=alice fragment="],
            2: ["OK SEEK lang=en", "GAME id=1 lang=en players=alice,bob", "TURN id=1 player=alice fragment="],
        ])
        #expect(h.lobby.activeGames == 1)
    }

    @Test func fullGameToWordLoss() {
        let h = Harness()
        h.pairAliceAndBob()
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
        #expect(h.drain() == [
            1: ["MOVE id=1 player=bob letter=r fragment=pear", over, info],
            2: ["OK LETTER letter=r fragment=pear", "MOVE id=1 player=bob letter=r fragment=pear", over, info],
        ])
        #expect(h.lobby.activeGames == 0)
        // Both are back in the lobby: no game, and free to seek again.
        h.send(1, "s")
        let after = h.drain()
        #expect(after.keys.sorted() == [1])
        #expect(isErr(after[1]?.first, .notInGame))
        h.send(2, "SEEK")
        h.send(1, "SEEK")
        #expect(h.drain() == [
            1: ["OK SEEK lang=en", "GAME id=2 lang=en players=bob,alice", "TURN id=2 player=bob fragment="],
            2: ["OK SEEK lang=en", "INFO Waiting for another player who seeks a game in en.",
                "GAME id=2 lang=en players=bob,alice", "TURN id=2 player=bob fragment="],
        ])
    }

    @Test func fullGameToDeadLoss() {
        let h = Harness()
        h.pairAliceAndBob()
        h.send(1, "p")
        _ = h.drain()
        h.send(2, "x")
        let over = "OVER id=1 winner=alice loser=bob reason=dead fragment=px"
        let info = "INFO No word starts with \"px\", so bob loses."
        #expect(h.drain() == [
            1: ["MOVE id=1 player=bob letter=x fragment=px", over, info],
            2: ["OK LETTER letter=x fragment=px", "MOVE id=1 player=bob letter=x fragment=px", over, info],
        ])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func deadLossOnAShortWord() {
        let h = Harness()
        h.pairAliceAndBob()
        h.send(1, "d")
        h.send(2, "o")
        h.send(1, "g")
        _ = h.drain()
        // "dog" is extended by "dogs", so alive; "dogs" is a word of 4.
        h.send(2, "s")
        let d = h.drain()
        #expect(d[1]?.suffix(2) == ["OVER id=1 winner=alice loser=bob reason=word fragment=dogs",
                                    "INFO \"dogs\" is a word longer than 3 letters, so bob loses."])
    }

    @Test func outOfTurnLetterIsRefusedAndChangesNothing() {
        let h = Harness()
        h.pairAliceAndBob()
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

    @Test func letterOutsideAGame() {
        let h = Harness()
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

    @Test func seekOrNewBeforeName() {
        let h = Harness()
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
        let h = Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW")
        let hosted = h.drain()
        let ok = try #require(hosted[1]?.first)
        let msg = try #require(Message.parse(ok))
        let code = try #require(msg["code"])
        #expect(ok == "OK NEW code=\(code) lang=en")
        #expect(code.count == 5)
        #expect(code.allSatisfy { "ABCDEFGHJKMNPQRSTUVWXYZ23456789".contains($0) })
        #expect(hosted[1]?.count == 2)
        #expect(hosted[1]?.last?.hasPrefix("INFO ") == true)
        #expect(h.lobby.activeGames == 0)

        h.send(2, "JOIN \(code.lowercased())")
        #expect(h.drain() == [
            1: ["GAME id=1 lang=en players=alice,bob", "TURN id=1 player=alice fragment="],
            2: ["OK JOIN code=\(code) lang=en", "GAME id=1 lang=en players=alice,bob", "TURN id=1 player=alice fragment="],
        ])
        #expect(h.lobby.activeGames == 1)
        // The code is used up.
        h.named(3, "carol")
        h.send(3, "JOIN \(code)")
        #expect(isErr(h.drain()[3]?.first, .noSuchGame))
    }

    @Test func joinOwnCode() throws {
        let h = Harness()
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

    @Test func joinBadCode() {
        let h = Harness()
        h.named(2, "bob")
        h.send(2, "JOIN ZZZZZ")
        let d = h.drain()
        #expect(d[2]?.count == 1)
        #expect(isErr(d[2]?.first, .noSuchGame))
    }

    @Test func leaveClosesAHostedGame() throws {
        let h = Harness()
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

    @Test func nameTakenIsCaseInsensitiveAndFreedOnDisconnect() {
        let h = Harness()
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
        #expect(h.drain() == [1: ["OK NAME name=ALICE"]])
        h.lobby.disconnected(1)
        #expect(h.lobby.connectionCount == 1)
        #expect(h.drain() == [:])
        h.send(2, "NAME alice")
        #expect(h.drain() == [2: ["OK NAME name=alice"]])
    }

    @Test func renamingFreesTheOldName() {
        let h = Harness()
        h.named(1, "alice")
        h.send(1, "NAME alicia")
        #expect(h.drain() == [1: ["OK NAME name=alicia"]])
        h.connect(2)
        _ = h.drain()
        h.send(2, "NAME alice")
        #expect(h.drain() == [2: ["OK NAME name=alice"]])
    }

    @Test func languagesPairSeparately() {
        let h = Harness()
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
        #expect(h.drain() == [
            1: ["GAME id=1 lang=nl players=alice,carol", "TURN id=1 player=alice fragment="],
            3: ["OK SEEK lang=nl", "GAME id=1 lang=nl players=alice,carol", "TURN id=1 player=alice fragment="],
        ])
        // The Dutch game uses the Dutch list: "huis" loses for carol.
        h.send(1, "h")
        h.send(3, "u")
        h.send(1, "i")
        _ = h.drain()
        h.send(3, "s")
        #expect(h.drain()[1] == ["MOVE id=1 player=carol letter=s fragment=huis",
                                 "OVER id=1 winner=alice loser=carol reason=word fragment=huis",
                                 "INFO \"huis\" is a word longer than 3 letters, so carol loses."])
    }

    @Test func unknownLanguage() {
        let h = Harness()
        h.named(1, "alice")
        h.send(1, "LANG xx")
        let d = h.drain()
        #expect(d[1]?.count == 1)
        #expect(isErr(d[1]?.first, .unknownLanguage))
        // The language did not change.
        h.send(1, "SEEK")
        #expect(h.drain()[1]?.first == "OK SEEK lang=en")
    }

    @Test func disconnectMidGameLosesForTheLeaver() {
        let h = Harness()
        h.pairAliceAndBob()
        h.send(1, "p")
        _ = h.drain()
        h.lobby.disconnected(1)
        let d = h.drain()
        #expect(d[2] == ["OVER id=1 winner=bob loser=alice reason=left fragment=p", "INFO alice left the game."])
        #expect(h.lobby.activeGames == 0)
        #expect(h.lobby.connectionCount == 1)
        // bob is back in the lobby.
        h.send(2, "p")
        #expect(isErr(h.drain()[2]?.first, .notInGame))
    }

    @Test func leaveMidGameLoses() {
        let h = Harness()
        h.pairAliceAndBob()
        h.send(2, "LEAVE")
        let over = "OVER id=1 winner=alice loser=bob reason=left fragment="
        let info = "INFO bob left the game."
        #expect(h.drain() == [
            1: [over, info],
            2: ["OK LEAVE", over, info],
        ])
        #expect(h.lobby.activeGames == 0)
        h.send(2, "LEAVE")
        #expect(isErr(h.drain()[2]?.first, .notInGame))
    }

    @Test func leaveWhileSeekingCancels() {
        let h = Harness()
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

    @Test func disconnectWhileSeekingCancels() {
        let h = Harness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SEEK")
        h.lobby.disconnected(1)
        _ = h.drain()
        h.send(2, "SEEK")
        #expect(h.drain().keys.sorted() == [2])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func busyWhileSeekingOrPlaying() {
        let h = Harness()
        h.named(1, "alice")
        h.send(1, "SEEK")
        _ = h.drain()
        for line in ["SEEK", "NEW", "NAME alicia", "LANG nl"] {
            h.send(1, line)
            let d = h.drain()
            #expect(d[1]?.count == 1)
            #expect(isErr(d[1]?.first, .busy), "\(line)")
        }
    }

    @Test func quitSendsOKAndCloses() {
        let h = Harness()
        h.named(1, "alice")
        h.send(1, "QUIT")
        #expect(h.drain() == [1: ["OK QUIT"]])
        #expect(h.outbox.closed == [1])
    }

    @Test func quitMidGameLoses() {
        let h = Harness()
        h.pairAliceAndBob()
        h.send(1, "QUIT")
        let over = "OVER id=1 winner=bob loser=alice reason=left fragment="
        let d = h.drain()
        #expect(d[2] == [over, "INFO alice left the game."])
        // The command's own reply comes before the events it causes.
        #expect(d[1] == ["OK QUIT", over, "INFO alice left the game."])
        #expect(h.outbox.closed == [1])
        #expect(h.lobby.activeGames == 0)
    }

    @Test func tooLongFrame() {
        let h = Harness()
        h.named(1, "alice")
        h.lobby.received(.tooLong, from: 1)
        let d = h.drain()
        #expect(d.keys.sorted() == [1])
        #expect(d[1]?.count == 1)
        #expect(isErr(d[1]?.first, .lineTooLong))
    }

    @Test func parseErrorsAreReported() {
        let h = Harness()
        h.named(1, "alice")
        let cases: [([UInt8], ErrorCode)] = [
            (Array("LETTER ab".utf8), .notALetter),
            ([0xFF, 0xFE], .badEncoding),
            (Array("\u{1B}[31m".utf8), .badCharacter),
            (Array("FROB".utf8), .unknownCommand),
            (Array("PING x".utf8), .badArguments),
        ]
        for (bytes, code) in cases {
            h.lobby.received(.line(bytes), from: 1)
            let d = h.drain()
            #expect(d[1]?.count == 1)
            #expect(isErr(d[1]?.first, code), "\(bytes)")
        }
    }
}
