import Foundation
import Testing
import GhostWire
@testable import GhostProtocol
import HangmanWire
import GameKit

private func parse(_ s: String) -> Result<Command?, CommandError> { CommandParser.parse(Array(s.utf8)) }

private func command(_ s: String) -> Command? {
    if case .success(let c) = parse(s) { return c }
    return nil
}

private func failure(_ s: String) -> CommandError? {
    if case .failure(let e) = parse(s) { return e }
    return nil
}

/// As the server parses: its catalog's default kind (Ghost) named is as no `game=`.
private func served(_ s: String) -> Result<Command?, CommandError> {
    CommandParser.parse(Array(s.utf8), defaultKind: .ghost)
}

/// Every option combination of SEEK and NEW.
private let gameOptions: [GameOptions] = Rounds.allCases.flatMap { rounds in
    [GameOptions(rounds: rounds)] + BotLevel.allCases.flatMap { level in
        [false, true].map { GameOptions(rounds: rounds, bot: level, botFirst: $0) }
    }
}

/// At least one command of every verb, and every option combination.
/// `everyVerbHasASample` fails when a verb is added without samples here.
let sampleCommands: [Command] = {
    var out: [Command] = [
        .name("alice"), .name("A-b_9"), .name("abcdefghijklmnop"),
        .login(name: "ann", password: Password("secret password")), .login(name: "ann", password: Password("  two  spaces ")),
        .register(Password("correct horse battery")), .register(Password(" leading")), .password(Password("new one trailing ")),
        .register(Password(String(repeating: "é", count: 200))), .names(prefix: nil, limit: 20),
        .names(prefix: "ab", limit: 1), .names(prefix: "a-_9", limit: 100), .lang("en"), .lang("nl"),
        .join("4EG7R"), .letter(Letter(ascii: 0x61)!), .leave, .restart, .accept, .decline,
        .resume("0123456789abcdef0123456789abcdef"), .claim, .rematch, .hint, .stats, .help, .ping, .quit,
        .set(key: "hangman-mode", value: "evil"), .set(key: "hangman-length", value: "any"), .set(key: "hangman-misses", value: "26"),
        .set(key: "lang", value: "nl"), .set(key: "x-9", value: "-1"), .set(key: "k", value: "a!b/c"), .settings,
    ]
    out += Letter.all.map { .letter($0) }
    out += [GameOptions.single, GameOptions(rounds: .ghost)].map { .seek($0) }
    out += gameOptions.map { .new($0) }
    out += [.moves(1), .moves(123_456_789_012_345_678), .review(7), .view(7)]
    out += ["super", "challenge"].flatMap { v in
        [Command.seek(GameOptions(settings: ["variant": v])), .new(GameOptions(settings: ["variant": v])),
         .new(GameOptions(rounds: .ghost, bot: .easy, settings: ["variant": v], clock: 30))]
    }
    let hangman = GameKind.hangman
    out += [.seek(GameOptions(game: hangman)),
            .new(GameOptions(game: hangman)),
            .new(GameOptions(game: hangman, settings: ["mode": "evil", "length": "any", "misses": "8"])),
            .new(GameOptions(game: hangman, settings: ["mode": "duel", "bot": "guesser"])),
            .new(GameOptions(game: hangman, settings: ["mode": "phrase", "misses": "26"]))]
    for n in [1, 10, 42, 100] {
        out += Board.all.map { .scores(n, board: $0) }
        out += [nil, "evil", "fair", "phrase", "duel"].map { .bestGames(n, game: hangman, mode: $0) }
    }
    out += [.bestGames(10, game: GameKind(rawValue: "chess"), mode: "blitz")]
    // Ratings: rated=, range=, TOP, PROFILE, HISTORY.
    var rated = GameOptions.single
    rated.rated = true
    var casual = GameOptions(bot: .medium)
    casual.rated = false
    var ranged = GameOptions(settings: ["variant": "super"])
    ranged.range = 1300...1700
    var rangedRated = GameOptions(game: hangman)
    rangedRated.rated = true
    rangedRated.range = 0...4000
    var casualSeek = GameOptions(rounds: .ghost)
    casualSeek.rated = false
    out += [.seek(rated), .new(rated), .new(casual), .seek(casualSeek), .seek(ranged), .seek(rangedRated)]
    out += [.top(10, game: .ghost, variant: nil), .top(1, game: .ghost, variant: "super"), .top(100, game: hangman, variant: nil),
            .top(5, game: hangman, variant: "duel"), .profile("alice"), .profile("a-b_9"),
            .history(name: nil, limit: 20), .history(name: nil, limit: 1), .history(name: "bob", limit: 20),
            .history(name: "bob", limit: 100), .history(name: "123", limit: 20), .history(name: "007", limit: 3)]
    // On a clock: the server checks the range, the protocol only the number.
    out += [.seek(GameOptions(clock: 30)), .seek(GameOptions(rounds: .ghost, game: hangman, clock: 5)),
            .new(GameOptions(clock: 3600)), .new(GameOptions(bot: .hard, botFirst: true, clock: 60)),
            .new(GameOptions(game: hangman, settings: ["mode": "duel"], clock: 1))]
    // Watching.
    out += [.games(limit: 20), .games(limit: 1), .games(limit: 100), .watch(1), .watch(123_456_789), .unwatch,
            .new(GameOptions(watch: false)), .new(GameOptions(bot: .easy, watch: false)),
            .new(GameOptions(game: hangman, settings: ["mode": "duel"], clock: 30, watch: false))]
    // Between people.
    out += [.follow("bob"), .unfollow("bob"), .following, .invite(name: "bob", options: GameOptions()),
            .invite(name: "bob", options: GameOptions(rounds: .ghost, clock: 30)),
            .invite(name: "cy", options: GameOptions(game: hangman, settings: ["mode": "duel"])),
            .declineInvite("K3J9QX2A"), .say("good game"), .say("well played, ann"), .block("dan"), .unblock("dan"), .blocks,
            .report(name: "dan", reason: "rude words in chat")]
    return out
}()

@Suite struct CommandTableTests {
    @Test func everyVerbHasASample() {
        for verb in Verb.allCases {
            #expect(sampleCommands.contains { $0.verb == verb }, "no sample command for \(verb)")
        }
    }

    @Test func everyVerbHasOneSpecInHelpOrder() {
        #expect(CommandTable.specs.map(\.verb) == Verb.allCases)
        for verb in Verb.allCases { #expect(CommandTable.spec(verb).verb == verb) }
    }

    /// Each command belongs to exactly one spec: its verb's.
    @Test func exactlyOneSpecCoversEachCommand() {
        for c in sampleCommands {
            let covering = (CommandTable.specs + [CommandTable.spec(.kindMove)]).filter { $0.covers(c) }.map(\.verb)
            #expect(covering == [c.verb], "\(c)")
        }
    }

    @Test func parseOfRenderIsTheCommand() {
        for c in sampleCommands {
            let line = c.rendered
            #expect(command(line) == c, "\(line)")
            // Lowercase verbs, keys and values parse the same (names and tokens keep their case).
            if case .name = c { continue }
            if case .resume = c { continue }
            #expect(command(line.lowercased()) == c, "\(line.lowercased())")
        }
    }

    @Test func canonicalSpellings() {
        #expect(Command.ping.rendered == "PING")
        #expect(Command.letter(Letter(ascii: 0x71)!).rendered == "LETTER q")
        #expect(Command.name("Alice").rendered == "NAME Alice")
        #expect(Command.seek().rendered == "SEEK")
        #expect(Command.seek(GameOptions(rounds: .ghost)).rendered == "SEEK rounds=ghost")
        #expect(Command.new().rendered == "NEW")
        #expect(Command.new(GameOptions(rounds: .ghost, bot: .hard, botFirst: true)).rendered
                == "NEW bot=hard first=bot rounds=ghost")
        #expect(Command.new(GameOptions(bot: .easy)).rendered == "NEW bot=easy")
        #expect(Command.new(GameOptions(rounds: .ghost, bot: .easy, clock: 30)).rendered == "NEW bot=easy rounds=ghost clock=30")
        #expect(Command.seek(GameOptions(game: .hangman, clock: 60)).rendered == "SEEK game=hangman clock=60")
        #expect(Command.scores(100, board: Board(mode: .match, bot: .easy)).rendered == "SCORES 100 mode=match bot=easy")
        #expect(Command.scores(10).rendered == "SCORES 10")
        #expect(Command.set(key: "hangman-misses", value: "6").rendered == "SET hangman-misses 6")
        #expect(Command.settings.rendered == "SETTINGS")
        #expect(Command.bestGames(10, game: .hangman, mode: nil).rendered == "SCORES 10 game=hangman")
        #expect(Command.bestGames(3, game: .hangman, mode: "fair").rendered == "SCORES 3 game=hangman mode=fair")
    }

    @Test func boardNames() {
        #expect(Board.all.map(\.name) == ["game", "match", "easy", "medium", "hard", "easy-match", "medium-match", "hard-match"])
        for b in Board.all { #expect(Board(name: b.name) == b) }
        #expect(Board(name: "nope") == nil)
    }

    @Test func optionsInAnyOrder() {
        #expect(command("SCORES mode=match 2") == .scores(2, board: .match))
        #expect(command("SCORES 2 mode=match") == .scores(2, board: .match))
        #expect(command("SCORES bot=hard 7 mode=match") == .scores(7, board: Board(mode: .match, bot: .hard)))
        #expect(command("SCORES game=hangman") == .bestGames(10, game: .hangman, mode: nil))
        #expect(command("scores MODE=Phrase 5 Game=HANGMAN") == .bestGames(5, game: .hangman, mode: "phrase"))
        // game=ghost, the server's default kind, is Ghost's boards, as without it.
        #expect(served("SCORES game=ghost mode=match 2") == .success(.scores(2, board: .match)))
        #expect(served("SCORES game=ghost") == .success(.scores(10)))
        let o = GameOptions(rounds: .ghost, bot: .medium, botFirst: true)
        for line in ["NEW rounds=ghost bot=medium first=bot", "NEW first=bot rounds=ghost bot=medium",
                     "new FIRST=Bot Rounds=GHOST bot=MEDIUM"] {
            #expect(command(line) == .new(o), "\(line)")
        }
        #expect(command("NEW bot=easy first=me") == .new(GameOptions(bot: .easy)))
        #expect(command("SEEK rounds=one") == .seek())
        #expect(command("SEEK rounds=1") == .seek())
    }

    @Test(arguments: [
        "SEEK rounds=ghost rounds=ghost", "SEEK rounds=ghost ROUNDS=one", "NEW bot=easy bot=hard",
        "NEW bot=easy first=bot first=me", "SCORES mode=match mode=game", "SCORES bot=easy Bot=easy",
    ])
    func duplicateKeysAreRefused(_ line: String) {
        #expect(failure(line)?.code == .badArguments, "\(line)")
    }

    @Test(arguments: [
        "SEEK bot=easy", "SEEK first=bot", "SEEK rounds=", "SEEK rounds=two", "SEEK =ghost", "NEW first=bot",
        "NEW bot=expert", "NEW color=red", "NEW bot=easy 5", "SCORES mode=all", "SCORES 5 6", "SCORES 5 bot=easy 6",
        "SCORES rounds=ghost", "SCORES bot=", "SCORES 0", "SCORES 101",
        "SCORES game=hangman bot=hard", "SCORES game=hangman mode=", "SCORES game=hangman mode=e!l", "SCORES game=",
        "SCORES game=hangman 0", "SCORES game=hangman 5 6", "SCORES game=hangman game=ghost",
    ])
    func badOptions(_ line: String) {
        #expect(failure(line)?.code == .badArguments, "\(line)")
    }

    /// The protocol knows no kind: the default kind is the server's (its
    /// catalog's), handed to the parser. With it, `game=<default>` reads as
    /// no `game=` (SEEK and NEW take only that kind's options, SCORES lists
    /// its boards, TOP its default list), exactly as before; without it,
    /// every `game=` is a kind named.
    @Test func theDefaultKindIsTheServers() {
        // The server's reading.
        #expect(served("SCORES game=ghost mode=evil") == .failure(CommandError(.badArguments, "usage: SCORES \(CommandTable.spec(.scores).usage)")))
        #expect(served("NEW game=ghost") == .success(.new(GameOptions())))
        #expect(served("SEEK game=GHOST rounds=ghost") == .success(.seek(GameOptions(rounds: .ghost))))
        #expect(served("NEW game=ghost mode=evil") == .failure(CommandError(.badArguments, "mode= is another game's option: name it, game=<kind>")))
        #expect(served("NEW game=ghost colour=red") == .failure(CommandError(.badArguments, "usage: NEW \(CommandTable.spec(.new).usage)")))
        #expect(served("TOP game=ghost") == .success(.top(10, game: nil, variant: nil)))
        #expect(served("TOP game=hangman") == .success(.top(10, game: .hangman, variant: nil)))
        #expect(served("NEW game=hangman mode=evil") == .success(.new(GameOptions(game: .hangman, settings: ["mode": "evil"]))))
        // No default kind: game=ghost is a kind like any other.
        #expect(command("SCORES game=ghost") == .bestGames(10, game: .ghost, mode: nil))
        #expect(command("NEW game=ghost") == .new(GameOptions(game: .ghost)))
        #expect(command("NEW game=ghost mode=evil") == .new(GameOptions(game: .ghost, settings: ["mode": "evil"])))
        #expect(command("TOP game=ghost") == .top(10, game: .ghost, variant: nil))
        #expect(command("TOP") == .top(10, game: nil, variant: nil))
        // SEEK takes no computer: with a kind named, bot= is that kind's own
        // option (the server refuses it), never a level too (the fuzzer's
        // "SEEK game=ghost bot=hard" was both, and rendered bot= twice).
        #expect(command("SEEK game=ghost bot=hard") == .seek(GameOptions(game: .ghost, settings: ["bot": "hard"])))
        #expect(command("SEEK game=hangman bot=guesser") == .seek(GameOptions(game: .hangman, settings: ["bot": "guesser"])))
        #expect(Command.seek(GameOptions(game: .ghost, settings: ["bot": "hard"])).rendered == "SEEK game=ghost bot=hard")
        #expect(served("SEEK game=ghost bot=hard") == .failure(CommandError(.badArguments, "usage: SEEK \(CommandTable.spec(.seek).usage)")))
        // Written back as given: a kind named is named again.
        #expect(Command.top(10, game: .ghost, variant: nil).rendered == "TOP 10 game=ghost")
        #expect(Command.top(10, game: nil, variant: "super").rendered == "TOP 10 variant=super")
    }

    /// `clock=` that is not a number of seconds is refused by the protocol
    /// (`bad-value`); a number out of range by the server.
    @Test(arguments: ["NEW clock=", "NEW clock=30s", "SEEK clock=-5", "NEW clock=1234567890", "SEEK clock=abc"])
    func clockIsANumber(_ line: String) {
        #expect(failure(line) == CommandError(.badValue, "clock= is a number of seconds per move"), "\(line)")
    }

    @Test func clockParses() {
        #expect(command("NEW CLOCK=030 bot=easy") == .new(GameOptions(bot: .easy, clock: 30)))
        #expect(command("SEEK clock=9 game=hangman") == .seek(GameOptions(game: .hangman, clock: 9)))
        #expect(command("SEEK clock=30 clock=30").map { _ in true } == nil)
    }

    /// The usage in a bad-arguments reply is the table's, as HELP shows it.
    @Test func badArgumentsQuoteTheUsage() {
        #expect(failure("PING x")?.message == "usage: PING")
        #expect(failure("NAME")?.message == "usage: NAME <name> [<password>]")
        #expect(failure("REGISTER")?.message == "usage: REGISTER <password>")
        #expect(failure("PASSWORD ")?.message == "usage: PASSWORD <new password>")
        #expect(failure("JOIN a b")?.message == "usage: JOIN <code>")
        #expect(failure("SCORES 0")?.message == "usage: SCORES [game=<kind>] [mode=<list>] [bot=<level>] [n]")
        #expect(failure("SCORES game=hangman bot=hard")?.message == "bot= is for boards of wins; game=hangman takes mode=")
        #expect(failure("SEEK rounds=ghost rounds=one")?.message == "rounds= is given twice")
    }

    /// Only A-Z fold: no other character spells a verb, a key or a value.
    @Test func caseFoldingIsASCIIOnly() {
        #expect(failure("RE\u{FB06}ART")?.code == .unknownCommand)  // ﬆ would uppercase to ST
        #expect(failure("SEEK rounds=gho\u{FB06}")?.code == .badArguments)
        #expect(command("join abcde") == .join("ABCDE"))
        #expect(command("lang NL") == .lang("nl"))
    }
}

/// Each verb's cost (`CommandSpec.cost`), and Protocol.md's table of them.
@Suite("Command costs")
struct CommandCostTests {
    @Test("Every verb costs at least 1; PING is the cheapest; the commands that read the database cost more than PING")
    func ordering() {
        let ping = CommandTable.spec(.ping).cost
        for spec in CommandTable.specs { #expect(spec.cost >= ping, "\(spec.verb)") }
        for verb in [Verb.name, .names, .scores, .games, .resume, .join, .new, .stats, .help] {
            #expect(CommandTable.spec(verb).cost > ping, "\(verb)")
        }
        #expect(CommandTable.blankCost == ping && CommandTable.unknownCost >= 1 && CommandTable.tooLongCost > ping)
    }

    @Test("cost(ofLine:) is the verb's cost, in any case, with a one-letter line a LETTER")
    func ofLine() {
        for spec in CommandTable.specs {
            #expect(CommandTable.cost(ofLine: Array(spec.verb.rawValue.lowercased().utf8)) == spec.cost)
            #expect(CommandTable.cost(ofLine: Array(" \t\(spec.verb.rawValue) x".utf8)) == spec.cost)
            if spec.verb != .name { #expect(CommandTable.cost(ofLine: Array(" \t\(spec.verb.rawValue) x y".utf8)) == spec.cost) }
        }
        // A NAME with a password is a login, which is hashed: it costs what REGISTER does.
        #expect(CommandTable.cost(ofLine: Array("NAME ann secret password".utf8)) == CommandTable.passwordCost)
        #expect(CommandTable.cost(ofLine: Array("name ann x".utf8)) == CommandTable.passwordCost)
        #expect(CommandTable.cost(ofLine: Array("NAME ann ".utf8)) == CommandTable.spec(.name).cost)
        #expect(CommandTable.spec(.register).cost == CommandTable.passwordCost && CommandTable.spec(.password).cost == CommandTable.passwordCost)
        #expect(CommandTable.cost(ofLine: Array("e".utf8)) == CommandTable.moveCost)
        // A kind's verb is no verb to the protocol: it costs what a move costs.
        #expect(CommandTable.cost(ofLine: Array("LETTER e front".utf8)) == CommandTable.moveCost)
        #expect(CommandTable.cost(ofLine: []) == CommandTable.blankCost)
    }

    @Test("head(ofLine:) reads every verb from bytes as Verb(spelled:) does, and nothing else as one")
    func headFromBytes() {
        for verb in Verb.allCases {
            let mixed = String(verb.rawValue.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.lowercased()) : $0.element })
            #expect(CommandTable.head(ofLine: Array(mixed.utf8)) == .verb(verb))
            #expect(Verb(spelled: mixed) == verb)
            #expect(CommandTable.head(ofLine: Array("\t \(verb.rawValue)\tx".utf8)) == .verb(verb))
            // One letter more or less is no verb.
            #expect(CommandTable.head(ofLine: Array((verb.rawValue + "S").utf8)) == (Verb(spelled: verb.rawValue + "S").map { .verb($0) } ?? .unknown))
            #expect(CommandTable.head(ofLine: Array(verb.rawValue.dropLast().utf8)) == (Verb(spelled: verb.rawValue.dropLast()).map { .verb($0) } ?? .unknown))
        }
        #expect(Set(CommandTable.packedVerbs.map(\.key)).count == Verb.allCases.count)
        // A NUL packs as nothing: "\0PING" must not read as PING.
        #expect(CommandTable.head(ofLine: [0] + Array("PING".utf8)) == .unknown)
        #expect(CommandTable.head(ofLine: Array("PI\u{0}NG".utf8)) == .unknown)
        #expect(CommandTable.head(ofLine: Array("pïng".utf8)) == .unknown)
        #expect(CommandTable.head(ofLine: Array("kind-move".utf8)) == .unknown)
        #expect(CommandTable.head(ofLine: Array("CHALLENGES".utf8)) == .unknown)
        #expect(CommandTable.head(ofLine: Array("challenge".utf8)) == .unknown)
        #expect(CommandTable.head(ofLine: Array("claim".utf8)) == .verb(.claim))
        #expect(CommandTable.head(ofLine: Array(" \t ".utf8)) == .blank)
        #expect(CommandTable.head(ofLine: Array("é".utf8)) == .unknown)
        #expect(CommandTable.head(ofLine: Array(" x ".utf8)) == .letter)
    }

    @Test("Protocol.md §7 \"What commands cost\" lists every verb once, with its cost")
    func documented() throws {
        let root = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let text = try String(contentsOfFile: "/" + root + "/Protocol.md", encoding: .utf8)
        let section = try #require(text.components(separatedBy: "### What commands cost").dropFirst().first?
            .components(separatedBy: "\n### ").first)
        var listed: [String: Int] = [:]
        for row in section.split(separator: "\n") where row.hasPrefix("| `") {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, let units = Int(cells[1]) else { continue }
            for part in cells[0].split(separator: "`", omittingEmptySubsequences: false).enumerated() where part.offset % 2 == 1 {
                #expect(listed[String(part.element)] == nil, "\(part.element) is listed twice")
                listed[String(part.element)] = units
            }
        }
        for spec in CommandTable.specs {
            #expect(listed[spec.verb.rawValue] == spec.cost, "Protocol.md lists \(spec.verb.rawValue) at \(listed[spec.verb.rawValue].map(String.init) ?? "nothing"), the table says \(spec.cost)")
        }
    }
}
