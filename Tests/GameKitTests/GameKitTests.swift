import Testing
import GameKit

@Suite("GameKit: moves, matches, boards")
struct GameKitTests {
    @Test("A move survives the store's text form; other text is no move")
    func moveEncoding() {
        for move in [Move.letter(Letter("a")!), .letter(Letter("Z")!), .word("piece of cake"), .word("")] {
            #expect(Move(encoded: move.encoded) == move)
        }
        #expect(Move.letter(Letter("q")!).encoded == "q")
        #expect(Move.word("cake").encoded == "word:cake")
        for junk in ["", "ab", "7", "WORD:x", " word:x", "é"] { #expect(Move(encoded: junk) == nil) }
    }

    @Test("A single game is over with its first lost round")
    func singleGame() {
        var m = Match(target: 1)
        #expect(!m.isMatch)
        #expect(m.roundLost(by: 1, reason: EndReason(rawValue: "word")) == .over(loser: 1))
        #expect(m.losses == [0, 1] && m.round == 1)
    }

    @Test("A match of five: the seats take turns to start, the fifth lost round ends it")
    func match() {
        var m = Match(target: 5)
        let dead = EndReason(rawValue: "dead")
        for round in 1...4 {
            #expect(m.round == round && m.starter == (round - 1) % 2)
            #expect(m.roundLost(by: 0, reason: dead) == .nextRound)
        }
        #expect(m.losses == [4, 0] && m.round == 5 && m.starter == 0)
        #expect(m.roundLost(by: 1, reason: dead) == .nextRound)
        #expect(m.roundLost(by: 0, reason: dead) == .over(loser: 0))
        #expect(m.losses == [5, 1])
    }

    @Test("Leaving, being claimed or running out of time ends a match at once, whatever the score")
    func seatsEndMatches() {
        #expect(EndReason.time.rawValue == "time" && EndReason.time.endsMatch)
        for reason in [EndReason.left, .abandoned, .time] {
            var m = Match(target: 5)
            #expect(m.roundLost(by: 1, reason: reason) == .over(loser: 1))
            #expect(m.losses == [0, 0])
        }
    }

    @Test("A restart makes a new round only when the round had moves")
    func restart() {
        var m = Match(target: 5, losses: [1, 2], round: 4, starter: 1)
        m.restartRound(hadMoves: false)
        #expect(m.round == 4)
        m.restartRound(hadMoves: true)
        #expect(m.round == 5 && m.starter == 1 && m.losses == [1, 2])
    }

    @Test("Hostile stored values are clamped, never trusted")
    func clamped() {
        let m = Match(target: 0, losses: [-3], round: -1, starter: 7)
        #expect(m.target == 1 && m.losses == [0, 0] && m.round == 1 && m.starter == 0)
        var n = Match(target: 5)
        #expect(n.roundLost(by: 2, reason: .left) == .nextRound && n.losses == [0, 0])
    }

    @Test("Board names: the first kind keeps its short names, others are prefixed")
    func boards() {
        #expect(Board().name == "game")
        #expect(Board(match: true).name == "match")
        #expect(Board(computer: .easy).name == "easy")
        #expect(Board(computer: .hard, match: true).name == "hard-match")
        #expect(Board(kind: "hangman").name == "hangman-game")
    }

    @Test("A kind that does not say otherwise keeps no best-games lists and has no settings")
    func kindDefaults() {
        let kind = PlainKind()
        let game = PlainGame()
        #expect(kind.bestGame(game, outcome: Outcome(loser: 0, reason: .left), variant: "", language: "en") == nil)
        #expect(kind.bestGamesBoard(mode: nil) == nil && kind.bestGamesBoard(mode: "evil") == nil)
        #expect(kind.settingKeys.isEmpty)
        #expect(kind.setup(options: [:], saved: ["mode": "x"], language: "en", seed: 1) == .success(GameSetup()))
    }

    @Test("A best-games entry and a setting carry what the kind gives them")
    func bestGameAndSettingSpec() {
        let entry = BestGame(board: "x-easy", seat: 1, keys: [2, -5], fields: [Field("word", "peach")])
        #expect(entry.board == "x-easy" && entry.seat == 1 && entry.keys == [2, -5] && entry.fields == [Field("word", "peach")])
        let spec = SettingSpec(key: "x-misses", option: "misses", defaultValue: "8") { value, language in
            guard let n = Int(value), (1...26).contains(n) else { return .failure(SetupError(code: "bad-value", message: "1-26 in \(language)")) }
            return .success(String(n))
        }
        #expect(spec.key == "x-misses" && spec.option == "misses" && spec.defaultValue == "8")
        #expect(spec.validate("007", "en") == .success("7"))
        #expect(spec.validate("27", "nl") == .failure(SetupError(code: "bad-value", message: "1-26 in nl")))
    }
}

/// The least a game kind must say: everything else is the protocol's default.
private final class PlainKind: GameDefinition {
    let name = "plain"
    let languages = ["en"]
    let matchRounds: Int? = nil
    func newGame(language: String, variant: String, settings: String, seed: UInt64, starter: Int) -> (any Game)? { PlainGame() }
    func computerMove(in game: any Game, level: BotLevel) -> Move? { nil }
    func allowsHints(against level: BotLevel?) -> Bool { false }
    func hint(in game: any Game, against level: BotLevel?) -> Hint? { nil }
    func matchFields(_ match: Match) -> [Field] { [] }
    func gameFields(_ match: Match) -> [Field] { [] }
    func roundSummary(loser: Int, name: String, match: Match) -> String { "" }
    func matchSummary(loser: String, winner: String, match: Match, reason: EndReason) -> String { "" }
}

private struct PlainGame: Game {
    var toMove = 0
    var outcome: Outcome?
    var moveCount = 0
    mutating func play(_ move: Move, by seat: Int) throws(MoveError) -> Outcome? { throw .notAMove("no moves") }
    mutating func end(_ outcome: Outcome) { self.outcome = outcome }
    var publicFields: [Field] { [] }
    func moveFields(_ move: Move) -> [Field] { [] }
    func explanation(loser: String, winner: String) -> String { "" }
}
