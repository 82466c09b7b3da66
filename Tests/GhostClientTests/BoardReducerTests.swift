import Testing
@testable import GhostClient
import GhostProtocol
import GameKit

/// The child reducers (the client state scoped per game, as
/// TCA's `Scope`): each kind's board and a position in, the board and what
/// the table must do out, with exact values; nothing of the client around.
@Suite("Client: each kind's board reducer")
struct BoardReducerTests {
    static func ghost(_ fragment: String, superghost: Bool = false) -> GhostState {
        var g = GhostState()
        g.fragment = fragment
        g.superghost = superghost
        return g
    }

    @Test("Ghost TURN with a fragment built by moves this client missed: the board takes it, the last move is its last letter, by last=")
    func ghostTurnMissedMoves() {
        var g = Self.ghost("ca")
        let out = g.reduce(.turn(GhostLines.Position(fragment: "cat", ghost: ["G", ""], last: "bob")))
        var want = Self.ghost("cat")
        want.letters = ["G", ""]
        #expect(g == want)
        #expect(out == BoardOutcome(missedMoves: true, turnNotices: .stale, lastMove: LastMove("bob", "t")))
    }

    @Test("Ghost TURN at the fragment this client has: nothing missed; the turn's alerts go only if the turn passed")
    func ghostTurnSameFragment() {
        var g = Self.ghost("ca")
        let out = g.reduce(.turn(GhostLines.Position(fragment: "ca")))
        #expect(g == Self.ghost("ca"))
        #expect(out == BoardOutcome(turnNotices: .staleIfTheTurnPassed))
    }

    @Test("Ghost TURN challenged=yes starts an empty answer; the next TURN not challenged forgets the challenger")
    func ghostTurnChallenged() {
        var g = Self.ghost("qz")
        g.challenge = true
        g.answer = "old"
        g.challenger = "bob"
        _ = g.reduce(.turn(GhostLines.Position(fragment: "qz", challenged: true)))
        #expect(g.challenged && g.answer == "" && g.challenger == "bob")
        g.answer = "ui"
        _ = g.reduce(.turn(GhostLines.Position(fragment: "qz", challenged: false)))
        #expect(!g.challenged && g.answer == "" && g.challenger == nil)
    }

    @Test("Ghost MOVE of a letter: the fragment grows, and the table is told the letter played (shown, flashed)")
    func ghostLetter() throws {
        var g = Self.ghost("ca")
        let out = g.reduce(.letter(try #require(Letter("t")), fragment: nil))
        #expect(g == Self.ghost("cat"))
        #expect(out == BoardOutcome(played: .init(label: "t", key: "t")))
    }

    @Test("Superghost MOVE: a letter that went at the front is marked so")
    func superghostFront() throws {
        var g = Self.ghost("at", superghost: true)
        _ = g.reduce(.letter(try #require(Letter("c")), fragment: "cat"))
        var want = Self.ghost("cat", superghost: true)
        want.lastAtFront = true
        #expect(g == want)
    }

    @Test("Ghost MOVE challenge=yes: the challenger is kept; no letter was played, so the table keeps its last move and offer")
    func ghostChallengeMove() {
        var g = Self.ghost("qz")
        let out = g.reduce(.move(by: "bob", [Field("letter", "x"), Field("challenge", "yes"), Field("fragment", "qz")]))
        var want = Self.ghost("qz")
        want.challenger = "bob"
        #expect(g == want)
        #expect(out == BoardOutcome())
    }

    @Test("Ghost GAME: the same round again keeps the fragment shown; the next round of a match says how the last one ended")
    func ghostStarted() {
        var old = Self.ghost("ca")
        old.roundEnd = RoundEnd(winner: "bob", loser: "alice", reason: OverReason(rawValue: "word"), fragment: "cat", ghost: ["G", ""])
        let header = GhostLines.Header(match: true, ghost: ["G", ""])
        var same = Self.ghost("ca")
        same.match = true
        same.letters = ["G", ""]
        #expect(GhostState.started(header, previous: old, sameRound: true) == same)
        var next = Self.ghost("")
        next.match = true
        next.letters = ["G", ""]
        next.previousRound = old.roundEnd
        #expect(GhostState.started(header, previous: old, sameRound: false) == next)
        #expect(GhostState.started(header, previous: nil, sameRound: false).previousRound == nil)
    }

    static func hangman(length: Int = 4, pattern: String = "____") -> HangmanBoard {
        var b = HangmanBoard(mode: "evil", length: length, misses: 8)
        b.pattern = pattern
        return b
    }

    @Test("Hangman TURN: the pattern, wrong letters and misses left; the turn's alerts stay")
    func hangmanTurn() {
        var b = Self.hangman()
        let out = b.reduce(.turn(HangmanLines.Position(pattern: "_a__", missed: ["e"], left: 7)))
        var want = Self.hangman(pattern: "_a__")
        want.missed = ["e"]
        want.left = 7
        #expect(b == want)
        #expect(out == BoardOutcome())
    }

    @Test("Hangman TURN of an open duel: the length comes with the word's first pattern")
    func hangmanOpenDuel() {
        var b = Self.hangman(length: 0, pattern: "")
        _ = b.reduce(.turn(HangmanLines.Position(pattern: "__'_-_")))
        #expect(b.length == 4)
        #expect(b.pattern == "__'_-_")
    }

    @Test("Hangman MOVE of a wrong answer: listed under Wrong, the last guess, and the table told the guess played (no key flash)")
    func hangmanWrongAnswer() {
        var b = Self.hangman()
        let out = b.reduce(.move(HangmanLines.Position(pattern: "____", missed: [], left: 7, guess: "bird", hit: false)))
        var want = Self.hangman()
        want.left = 7
        want.wrongWords = ["bird"]
        want.lastGuess = LastGuess(guess: "bird", hit: false)
        #expect(b == want)
        #expect(out == BoardOutcome(played: .init(label: "bird", key: nil)))
    }

    @Test("Hangman GAME again (a RESUME): the board shown is kept until TURN, and the setter's word")
    func hangmanResume() {
        var old = Self.hangman(pattern: "_a__")
        old.missed = ["e"]
        old.left = 7
        old.word = "cart"
        old.lastGuess = LastGuess(guess: "a", hit: true)
        var b = Self.hangman(pattern: "")
        b.resume(from: old)
        #expect(b == old)
    }

    @Test("Game.reduce scopes a line into its kind's board, and reads the fields with that kind's reader")
    func scope() {
        var game = Game.ghost(Self.ghost("ca"))
        let out = game.reduce(.move(by: "bob", [Field("letter", "t"), Field("fragment", "cat")]))
        #expect(game == .ghost(Self.ghost("cat")))
        #expect(out.played == .init(label: "t", key: "t"))
        var hangman = Game.hangman(Self.hangman())
        _ = hangman.reduce(.turn([Field("pattern", "_a__"), Field("missed", "-"), Field("left", "8")]))
        #expect(hangman == .hangman(Self.hangman(pattern: "_a__")))
    }
}
