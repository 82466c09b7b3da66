import Foundation
import Synchronization
import Testing
import TestSupport
import GameKit
import GhostCore
import GhostProtocol
import GhostServer
import GhostStore

// What the lobby does for any game kind, with a small kind of its own
// ("guess", which the catalog does not have): best-games lists, and settings
// saved per name that fill a NEW's options.

/// Guess the word: the computer (seat 0, `bot-guess`) or a person (mode=duel,
/// `WORD <w>`) sets a word, seat 1 guesses its letters. Modes: `short` (the
/// word "cat", "kat" in Dutch), `long` ("peach", "katten"), `duel`. A game
/// ends `solved` when every letter is found and `hanged` after `misses`
/// wrong letters. A solved game is an entry on `guess-<mode>`, ranked by
/// mistakes, then by the longer word.
final class GuessKind: GameDefinition {
    let name = "guess"
    let languages = ["en", "nl"]
    let matchRounds: Int? = nil
    /// Letters, and a duel's word, as Hangman's.
    let moveVerbs = [MoveVerb.letter(usage: "<c>", help: "guess a letter"),
                     MoveVerb(name: "WORD", arguments: .anyWord, usage: "<word>", help: "set the word") { .word($0.first ?? "") }]

    static let modes = ["short", "long", "duel"]
    static func word(_ mode: String, _ language: String) -> String {
        switch (mode, language) {
        case ("long", "nl"): "katten"
        case ("long", _): "peach"
        case (_, "nl"): "kat"
        default: "cat"
        }
    }
    /// The longest word of each language, for `length`.
    static func maxLength(_ language: String) -> Int? { ["en": 5, "nl": 6][language] }

    func newGame(language: String, variant: String, settings: String, seed: UInt64, starter: Int) -> (any GameKit.Game)? {
        guard GuessKind.modes.contains(variant), settings.hasPrefix("misses="), let misses = Int(settings.dropFirst(7)) else { return nil }
        return GuessGame(mode: variant, misses: misses, word: variant == "duel" ? nil : GuessKind.word(variant, language))
    }
    func computerMove(in game: any GameKit.Game, level: BotLevel) -> Move? { nil }
    func allowsHints(against level: BotLevel?) -> Bool { false }
    func hint(in game: any GameKit.Game, against level: BotLevel?) -> Hint? { nil }
    func matchFields(_ match: Match) -> [Field] { [] }
    func gameFields(_ match: Match) -> [Field] { [] }
    func roundSummary(loser: Int, name: String, match: Match) -> String { "" }
    func matchSummary(loser: String, winner: String, match: Match, reason: EndReason) -> String { "" }

    func setup(options: [String: String], saved: [String: String], language: String, seed: UInt64) -> Result<GameSetup, SetupError> {
        if let key = options.keys.first(where: { !["mode", "misses", "length"].contains($0) }) {
            return .failure(SetupError(code: "bad-arguments", message: "guess takes no \(key)="))
        }
        let mode = options["mode"] ?? saved["mode"] ?? "short"
        guard GuessKind.modes.contains(mode) else { return .failure(SetupError(code: "bad-value", message: "mode: short, long or duel")) }
        guard let misses = Int(options["misses"] ?? saved["misses"] ?? "8"), (1...26).contains(misses) else {
            return .failure(SetupError(code: "bad-value", message: "misses: 1 to 26"))
        }
        if case .failure(let e) = GuessKind.checkLength(options["length"] ?? saved["length"] ?? "any", language) { return .failure(e) }
        let duel = mode == "duel"
        return .success(GameSetup(variant: mode, settings: "misses=\(misses)", computerSeat: duel ? nil : 0,
                                  computerName: duel ? nil : "bot-guess"))
    }

    static func checkLength(_ value: String, _ language: String) -> Result<String, SetupError> {
        if value == "any" { return .success(value) }
        guard let n = Int(value), n >= 1, let max = maxLength(language), n <= max else {
            return .failure(SetupError(code: "bad-value", message: "length: any, or 1 to \(maxLength(language) ?? 0) in \(language)"))
        }
        return .success(String(n))
    }

    func bestGame(_ game: any GameKit.Game, outcome: Outcome, variant: String, language: String) -> BestGame? {
        guard outcome.reason.rawValue == "solved", let g = game as? GuessGame, let word = g.word else { return nil }
        return BestGame(board: "guess-\(variant)", seat: 1, keys: [g.mistakes, -word.count],
                        fields: [Field("word", word), Field("mistakes", String(g.mistakes)), Field("misses", String(g.misses)),
                                 Field("mode", variant), Field("lang", language)])
    }

    func bestGamesBoard(mode: String?) -> String? {
        let mode = mode ?? "short"
        return GuessKind.modes.contains(mode) ? "guess-\(mode)" : nil
    }

    let settingKeys: [SettingSpec] = [
        SettingSpec(key: "guess-mode", option: "mode", defaultValue: "short") { value, _ in
            ["short", "long"].contains(value) ? .success(value) : .failure(SetupError(code: "bad-value", message: "guess-mode: short or long"))
        },
        SettingSpec(key: "guess-length", option: "length", defaultValue: "any") { value, language in
            GuessKind.checkLength(value, language)
        },
        SettingSpec(key: "guess-misses", option: "misses", defaultValue: "8") { value, _ in
            guard value.utf8.count <= 2, let n = Int(value), (1...26).contains(n) else {
                return .failure(SetupError(code: "bad-value", message: "guess-misses: 1 to 26"))
            }
            return .success(String(n))
        },
    ]
}

struct GuessGame: GameKit.Game {
    let mode: String
    let misses: Int
    var word: String?
    var guessed: [Letter] = []
    var mistakes = 0
    var outcome: Outcome?
    var moveCount = 0

    var toMove: Int { word == nil ? 0 : 1 }

    mutating func play(_ move: Move, by seat: Int) throws(MoveError) -> Outcome? {
        guard outcome == nil else { throw .gameOver }
        guard seat == toMove else { throw .notYourTurn }
        switch move {
        case .word(let w) where word == nil:
            word = w
        case .letter(let l) where word != nil:
            guard !guessed.contains(l) else { throw .refused(code: "already-guessed", message: "guessed already") }
            guessed.append(l)
            if !(word ?? "").contains(l.character) { mistakes += 1 }
        default:
            throw .notAMove(word == nil ? "set a word" : "guess a letter")
        }
        moveCount += 1
        if let word, word.allSatisfy({ c in guessed.contains { $0.character == c } }) {
            outcome = Outcome(loser: 0, reason: EndReason(rawValue: "solved"))
        } else if mistakes >= misses {
            outcome = Outcome(loser: 1, reason: EndReason(rawValue: "hanged"))
        }
        return outcome
    }

    mutating func end(_ outcome: Outcome) { if self.outcome == nil { self.outcome = outcome } }
    var pattern: String { String((word ?? "").map { c in guessed.contains { $0.character == c } ? c : "_" }) }
    var publicFields: [Field] { [Field("pattern", pattern), Field("mistakes", String(mistakes))] }
    func moveFields(_ move: Move) -> [Field] {
        if case .letter(let l) = move { return [Field("letter", l.description)] }
        return []
    }
    func explanation(loser: String, winner: String) -> String { "\(winner) wins." }
    var setupFields: [Field] { [Field("mode", mode), Field("misses", String(misses))] }
    var finalFields: [Field] { [Field("word", word ?? ""), Field("mistakes", String(mistakes))] }
}

/// The shared lobby harness (Support/LobbyHarness.swift), also playing "guess", with no computer delay.
private func kindHarness(directory: String? = nil) throws -> Harness {
    var settings = Lobby.Settings()
    settings.botDelay = 0
    return try Harness(directory: directory, settings: settings, extraKinds: [GuessKind()])
}

extension Harness {
    /// Plays a game against the computer by guessing `letters`; returns what `id` got from the last guess on.
    func play(_ id: ConnectionID, _ letters: String, new: String = "NEW game=guess") -> [String] {
        send(id, new)
        for l in letters { send(id, String(l)) }
        return drain()[id] ?? []
    }
}

private func isErr(_ line: String?, _ code: String) -> Bool { line?.hasPrefix("ERR \(code) ") ?? false }

/// The lines from the end of a game on: OVER and what follows it.
private func ending(_ lines: [String]) -> [String] {
    Array(lines.drop { !$0.hasPrefix("OVER ") })
}

@Suite(.ownThread) struct LobbyBestGamesTests {
    @Test func aSolvedGameIsRankedAndAnnouncedToItsPlayer() throws {
        let h = try kindHarness()
        h.named(1, "alice")
        h.send(1, "SCORES game=guess")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=guess-short"]])

        // c a x t: solved with one mistake.
        #expect(ending(h.play(1, "cazt")) == [
            "OVER id=1 winner=alice loser=bot-guess reason=solved word=cat mistakes=1",
            "INFO alice wins.",
            "RANK name=alice rank=1 wins=1",
            "RANK board=guess-short rank=1 word=cat mistakes=1 misses=8 mode=short lang=en",
        ])
        h.named(2, "bob")
        // Without a mistake: ahead of alice.
        #expect(ending(h.play(2, "tac")).last == "RANK board=guess-short rank=1 word=cat mistakes=0 misses=8 mode=short lang=en")
        // A tie with bob's game: the earlier game is ahead.
        #expect(ending(h.play(1, "act")).last == "RANK board=guess-short rank=2 word=cat mistakes=0 misses=8 mode=short lang=en")
        // The longer word is ahead on equal mistakes; another list.
        #expect(ending(h.play(1, "zpeach", new: "NEW game=guess mode=long misses=3")).last
                == "RANK board=guess-long rank=1 word=peach mistakes=1 misses=3 mode=long lang=en")
        // Hanged: no entry, no RANK board=.
        let hanged = ending(h.play(2, "zq", new: "NEW game=guess misses=2"))
        #expect(hanged.first == "OVER id=5 winner=bot-guess loser=bob reason=hanged word=cat mistakes=2")
        #expect(!hanged.contains { $0.hasPrefix("RANK board=") })

        h.send(2, "SCORES game=guess")
        #expect(h.drain() == [2: [
            "SCORE rank=1 name=bob word=cat mistakes=0 misses=8 mode=short lang=en",
            "SCORE rank=2 name=alice word=cat mistakes=0 misses=8 mode=short lang=en",
            "SCORE rank=3 name=alice word=cat mistakes=1 misses=8 mode=short lang=en",
            "OK SCORES count=3 board=guess-short",
        ]])
        h.send(2, "SCORES 2 game=guess mode=short")
        #expect(h.drain()[2]?.last == "OK SCORES count=2 board=guess-short")
        h.send(2, "SCORES mode=long game=guess")
        #expect(h.drain() == [2: ["SCORE rank=1 name=alice word=peach mistakes=1 misses=3 mode=long lang=en",
                                  "OK SCORES count=1 board=guess-long"]])
        // Ghost's boards are as they were; and nothing of guess is on them.
        h.send(2, "SCORES")
        #expect(h.drain() == [2: ["OK SCORES count=0 board=game"]])
    }

    @Test func onlyTheTopTenAreAnnounced() throws {
        let h = try kindHarness()
        h.named(1, "alice")
        for _ in 0..<9 { _ = h.play(1, "cat") }
        #expect(ending(h.play(1, "cat")).last == "RANK board=guess-short rank=10 word=cat mistakes=0 misses=8 mode=short lang=en")
        // Eleventh (a mistake), then eleventh again (a perfect game, after ten earlier ones): stored, not announced.
        #expect(ending(h.play(1, "zcat")).last == "RANK name=alice rank=1 wins=11")
        #expect(ending(h.play(1, "tca")).last == "RANK name=alice rank=1 wins=12")
        h.send(1, "SCORES 100 game=guess")
        let lines = h.drain()[1] ?? []
        #expect(lines.count == 13)
        #expect(lines[10] == "SCORE rank=11 name=alice word=cat mistakes=0 misses=8 mode=short lang=en")
        #expect(lines[11] == "SCORE rank=12 name=alice word=cat mistakes=1 misses=8 mode=short lang=en")
        #expect(lines.last == "OK SCORES count=12 board=guess-short")
        #expect(try h.store.scoreStore.bestGames(board: "guess-short", limit: 100).map(\.game) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 11])
    }

    @Test func inADuelOnlyTheGuesserIsListed() throws {
        let h = try kindHarness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "NEW game=guess mode=duel")
        let code = try #require(h.drain()[1]?.first.flatMap { Message.parse($0)?["code"] })
        h.send(2, "JOIN \(code)")
        h.send(1, "WORD dog")
        for l in "dog" { h.send(2, String(l)) }
        let d = h.drain()
        #expect(ending(d[2] ?? []) == [
            "OVER id=1 winner=bob loser=alice reason=solved word=dog mistakes=0",
            "INFO bob wins.",
            "RANK name=bob rank=1 wins=1",
            "RANK name=alice rank=2 wins=0",
            "RANK board=guess-duel rank=1 word=dog mistakes=0 misses=8 mode=duel lang=en",
        ])
        #expect(ending(d[1] ?? []) == Array(ending(d[2] ?? []).dropLast()))
        h.send(1, "SCORES game=guess mode=duel")
        #expect(h.drain() == [1: ["SCORE rank=1 name=bob word=dog mistakes=0 misses=8 mode=duel lang=en",
                                  "OK SCORES count=1 board=guess-duel"]])
    }

    @Test func listsSurviveARestart() throws {
        let first = try kindHarness()
        defer { withExtendedLifetime(first) {} }
        first.named(1, "alice")
        _ = first.play(1, "peach", new: "NEW game=guess mode=long")
        let again = try kindHarness(directory: first.directory)
        again.connect(7)
        _ = again.drain()
        again.send(7, "SCORES game=guess mode=long")
        #expect(again.drain() == [7: ["SCORE rank=1 name=alice word=peach mistakes=0 misses=8 mode=long lang=en",
                                      "OK SCORES count=1 board=guess-long"]])
    }

    @Test func unknownListsAreRefused() throws {
        let h = try kindHarness()
        h.connect(1)
        _ = h.drain()
        h.send(1, "SCORES game=guess mode=nope")
        #expect(isErr(h.drain()[1]?.first, "bad-arguments"))
        h.send(1, "SCORES game=chess")
        #expect(h.drain() == [1: ["ERR bad-arguments no such high-score list: game=chess"]])
        h.send(1, "SCORES game=guess bot=hard")
        #expect(isErr(h.drain()[1]?.first, "bad-arguments"))
        h.send(1, "SCORES game=ghost mode=match")
        #expect(h.drain() == [1: ["OK SCORES count=0 board=match"]])
    }
}

@Suite(.ownThread) struct LobbyKindSettingsTests {
    @Test func settingsListEveryKindsKeysThenLang() throws {
        let h = try kindHarness()
        h.named(1, "alice")
        h.send(1, "SETTINGS")
        #expect(h.drain() == [1: [
            "SETTING key=guess-mode value=short default=short",
            "SETTING key=guess-length value=any default=any",
            "SETTING key=guess-misses value=8 default=8",
            "SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=presence value=on default=on", "SETTING key=chat value=on default=on", "SETTING key=invites value=anyone default=anyone", "SETTING key=lang value=en default=en",
            "OK SETTINGS",
        ]])
        h.send(1, "SET guess-mode LONG")
        h.send(1, "SET guess-misses 05")
        h.send(1, "SET guess-length 5")
        h.send(1, "SETTINGS")
        #expect(h.drain() == [1: [
            "OK SET key=guess-mode value=long",
            "OK SET key=guess-misses value=5",
            "OK SET key=guess-length value=5",
            "SETTING key=guess-mode value=long default=short",
            "SETTING key=guess-length value=5 default=any",
            "SETTING key=guess-misses value=5 default=8",
            "SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=presence value=on default=on", "SETTING key=chat value=on default=on", "SETTING key=invites value=anyone default=anyone", "SETTING key=lang value=en default=en",
            "OK SETTINGS",
        ]])
        #expect(try h.store.preferences(for: "alice") == ["guess-mode": "long", "guess-misses": "5", "guess-length": "5"])
    }

    /// The kind checks each value; a refused one changes nothing.
    @Test func badValuesAreRefusedByTheKind() throws {
        let h = try kindHarness()
        h.named(1, "alice")
        h.send(1, "SET guess-misses 7")
        _ = h.drain()
        for (line, error) in [("SET guess-misses 27", "ERR bad-value guess-misses: 1 to 26"),
                              ("SET guess-misses 0", "ERR bad-value guess-misses: 1 to 26"),
                              ("SET guess-misses x", "ERR bad-value guess-misses: 1 to 26"),
                              ("SET guess-mode duel", "ERR bad-value guess-mode: short or long"),
                              // en's longest word here has 5 letters; nl's has 6.
                              ("SET guess-length 6", "ERR bad-value length: any, or 1 to 5 in en"),
                              ("SET guess-length 0", "ERR bad-value length: any, or 1 to 5 in en"),
                              ("SET guess-colour red", "ERR bad-arguments no setting guess-colour; settings: guess-mode,guess-length,guess-misses,hangman-mode,hangman-length,hangman-misses,presence,chat,invites,lang")] {
            h.send(1, line)
            #expect(h.drain() == [1: [error]], "\(line)")
        }
        #expect(try h.store.preferences(for: "alice") == ["guess-misses": "7"])
        h.send(1, "LANG nl")
        h.send(1, "SET guess-length 6")
        #expect(h.drain() == [1: ["OK LANG lang=nl", "OK SET key=guess-length value=6"]])
        // Checked again at NEW: back in English, a saved length of 6 is refused.
        h.send(1, "LANG en")
        h.send(1, "NEW game=guess")
        #expect(h.drain() == [1: ["OK LANG lang=en", "ERR bad-value length: any, or 1 to 5 in en"]])
        #expect(h.lobby.activeGames == 0)
        // A value is checked before the name: without one, a good value is no-name, a bad one bad-value.
        h.connect(2)
        _ = h.drain()
        h.send(2, "SET guess-misses 99")
        h.send(2, "SET guess-misses 9")
        h.send(2, "SETTINGS")
        #expect(h.drain() == [2: ["ERR bad-value guess-misses: 1 to 26",
                                  "ERR no-name send NAME <name> first: settings are saved per name",
                                  "SETTING key=guess-mode value=short default=short",
                                  "SETTING key=guess-length value=any default=any",
                                  "SETTING key=guess-misses value=8 default=8",
                                  "SETTING key=hangman-mode value=evil default=evil", "SETTING key=hangman-length value=any default=any", "SETTING key=hangman-misses value=8 default=8", "SETTING key=presence value=on default=on", "SETTING key=chat value=on default=on", "SETTING key=invites value=anyone default=anyone", "SETTING key=lang value=en default=en",
                                  "OK SETTINGS"]])
    }

    /// NEW fills the options it leaves out from the saved settings; a setting
    /// made during a game applies to the next one only; they survive a restart.
    @Test func savedSettingsFillNewGamesOnly() throws {
        let h = try kindHarness()
        defer { withExtendedLifetime(h) {} }
        h.named(1, "alice")
        h.send(1, "NEW game=guess")
        #expect(h.drain()[1]?.first == "OK NEW game=guess mode=short lang=en misses=8")
        h.send(1, "SET guess-mode long")
        h.send(1, "SET guess-misses 3")
        let during = h.drain()[1] ?? []
        #expect(during == ["OK SET key=guess-mode value=long", "OK SET key=guess-misses value=3"])
        // The game in progress is as it was: 3 wrong letters do not hang it.
        for l in "xyz" { h.send(1, String(l)) }
        #expect(h.drain()[1]?.last == "TURN id=1 player=alice pattern=___ mistakes=3")
        _ = h.play(1, "cat", new: "")
        // The next game takes them.
        h.send(1, "NEW game=guess")
        #expect(h.drain()[1]?.first == "OK NEW game=guess mode=long lang=en misses=3")
        h.send(1, "LEAVE")
        // The command's own options win over the saved ones.
        h.send(1, "NEW game=guess mode=short")
        #expect(h.drain()[1]?.last?.hasPrefix("TURN id=3 ") == true)
        #expect(h.outbox.all(to: 1).contains("OK NEW game=guess mode=short lang=en misses=3"))
        h.send(1, "LEAVE")
        _ = h.drain()
        // A restart keeps them.
        let again = try kindHarness(directory: h.directory)
        again.named(4, "alice")
        again.send(4, "NEW game=guess")
        #expect(again.drain()[4]?.first == "OK NEW game=guess mode=long lang=en misses=3")
        // Another name has the defaults.
        again.named(5, "bob")
        again.send(5, "NEW game=guess")
        #expect(again.drain()[5]?.first == "OK NEW game=guess mode=short lang=en misses=8")
    }

    /// A private game is set up with the host's settings at NEW.
    @Test func aHostedGameKeepsTheHostsSettings() throws {
        let h = try kindHarness()
        h.named(1, "alice")
        h.named(2, "bob")
        h.send(1, "SET guess-misses 4")
        h.send(2, "SET guess-misses 20")
        h.send(1, "NEW game=guess mode=duel")
        let code = try #require(h.drain()[1]?.dropFirst(1).first.flatMap { Message.parse($0)?["code"] })
        // Changed after NEW: not this game's.
        h.send(1, "SET guess-misses 9")
        h.send(2, "JOIN \(code)")
        let d = h.drain()
        #expect(d[1]?.contains { $0.hasPrefix("GAME id=1 game=guess lang=en players=alice,bob ") && $0.hasSuffix(" round=1 mode=duel misses=4") } == true,
                "\(d[1] ?? [])")
        #expect(d[2]?.contains { $0.hasSuffix(" round=1 mode=duel misses=4") } == true)
    }
}


/// A kind whose computer (seat 0, `bot-wait`) sets the word "cat" for the
/// person to guess, but only once `ready`: until then it answers "ask again
/// in 2 seconds", as Superghost's Hard does while its position is solved.
final class WaitKind: GameDefinition {
    let name = "wait"
    let languages = ["en"]
    let matchRounds: Int? = nil
    let moveVerbs = [MoveVerb.letter(usage: "<c>", help: "guess a letter")]
    /// Whether the computer's move is worked out; how often it was asked.
    let state = Mutex<(ready: Bool, asked: Int)>((false, 0))

    func newGame(language: String, variant: String, settings: String, seed: UInt64, starter: Int) -> (any GameKit.Game)? {
        GuessGame(mode: "duel", misses: 8, word: nil)
    }
    func computerMove(in game: any GameKit.Game, level: BotLevel) -> Move? { .word("cat") }
    func computerPlay(in game: any GameKit.Game, level: BotLevel) -> ComputerPlay {
        state.withLock { s in
            s.asked += 1
            return s.ready ? .move(.word("cat")) : .later(seconds: 2)
        }
    }
    func allowsHints(against level: BotLevel?) -> Bool { false }
    func hint(in game: any GameKit.Game, against level: BotLevel?) -> Hint? { nil }
    func matchFields(_ match: Match) -> [Field] { [] }
    func gameFields(_ match: Match) -> [Field] { [] }
    func roundSummary(loser: Int, name: String, match: Match) -> String { "" }
    func matchSummary(loser: String, winner: String, match: Match, reason: EndReason) -> String { "" }
    func setup(options: [String: String], saved: [String: String], language: String, seed: UInt64) -> Result<GameSetup, SetupError> {
        .success(GameSetup(variant: "duel", settings: "misses=8", computerSeat: 0, computerName: "bot-wait"))
    }
}

@Suite(.ownThread) struct LobbyDeferredComputerTests {
    /// A computer that is not ready is asked again when it says, through the
    /// lobby's deadlines (nothing blocks meanwhile), and its move is played
    /// once it is ready.
    @Test func aDeferredMoveIsPlayedOnceReady() throws {
        var settings = Lobby.Settings()
        settings.botDelay = 0
        let kind = WaitKind()
        let h = try Harness(settings: settings, extraKinds: [kind])
        h.named(1, "alice")
        h.send(1, "NEW game=wait")
        let start = try #require(h.drain()[1])
        #expect(start.last == "TURN id=1 player=bot-wait pattern= mistakes=0")
        // Asked at once (no delay), not ready: asked again in 2 s.
        #expect(kind.state.withLock { $0.asked } == 1)
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 2)
        h.clock.advance(1)
        h.tick()
        #expect(h.drain()[1] == nil)
        #expect(kind.state.withLock { $0.asked } == 1)
        h.clock.advance(1)
        h.tick()
        // Still not ready: no move, and the next question in 2 s.
        #expect(h.drain()[1] == nil)
        #expect(kind.state.withLock { $0.asked } == 2)
        #expect(h.lobby.nextDeadline == h.clock.monotonic + 2)
        // alice's commands are answered meanwhile.
        h.send(1, "PING")
        #expect(h.drain()[1] == ["OK PING"])
        kind.state.withLock { $0.ready = true }
        h.clock.advance(2)
        h.tick()
        #expect(h.drain()[1] == ["MOVE id=1 player=bot-wait pattern=___ mistakes=0", "TURN id=1 player=alice pattern=___ mistakes=0"])
        #expect(kind.state.withLock { $0.asked } == 3)
        #expect(h.lobby.nextDeadline == nil)   // no first-move limit in this lobby (the daemon's: LobbyLifecycleTests)
        h.send(1, "c")
        #expect(h.drain()[1]?.first == "OK LETTER letter=c pattern=c__ mistakes=0")
    }
}
