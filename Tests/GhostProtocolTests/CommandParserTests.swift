import Testing
import GhostWire
@testable import GhostProtocol
import HangmanWire
import GameKit

/// The letter verb as the kinds that move by letters declare it (GameKit's
/// `MoveVerb.letter`): `LETTER` with anything but one letter is theirs.
private let letterVerbs = KindVerbs([MoveVerb.letter(help: "a letter")])

private func parse(_ s: String) -> Result<Command?, CommandError> { CommandParser.parse(Array(s.utf8), kindVerbs: letterVerbs) }

private func command(_ s: String) -> Command? {
    if case .success(let c) = parse(s) { return c }
    return nil
}

private func errorCode(_ bytes: [UInt8]) -> ErrorCode? {
    if case .failure(let e) = CommandParser.parse(bytes, kindVerbs: letterVerbs) { return e.code }
    return nil
}

private func errorCode(_ s: String) -> ErrorCode? { errorCode(Array(s.utf8)) }

private func L(_ c: String) -> Letter { Letter(c)! }

@Suite struct CommandParserTests {
    @Test(arguments: [
        ("NAME alice", Command.name("alice")),
        ("LANG nl", .lang("nl")),
        ("SET hangman-mode fair", .set(key: "hangman-mode", value: "fair")),
        ("set Hangman-Misses 12", .set(key: "hangman-misses", value: "12")),
        ("SET lang NL", .set(key: "lang", value: "nl")),
        ("SETTINGS", .settings),
        ("SEEK", .seek()),
        ("NEW", .new()),
        ("JOIN ABCDE", .join("ABCDE")),
        ("LETTER x", .letter(Letter("x")!)),
        ("LEAVE", .leave),
        ("HELP", .help),
        ("PING", .ping),
        ("QUIT", .quit),
        ("NAMES", .names(prefix: nil, limit: 20)),
        ("NAMES 100", .names(prefix: nil, limit: 100)),
        ("NAMES prefix=Al 5", .names(prefix: "al", limit: 5)),
        ("NAMES 1 PREFIX=a_b-", .names(prefix: "a_b-", limit: 1)),
        ("RESUME 0123456789abcdef0123456789abcdef", .resume("0123456789abcdef0123456789abcdef")),
        ("CLAIM", .claim),
        ("SCORES", .scores(10)),
        ("SCORES 5", .scores(5)),
        ("SCORES 1", .scores(1)),
        ("SCORES 100", .scores(100)),
        ("RESTART", .restart),
        ("ACCEPT", .accept),
        ("DECLINE", .decline),
        ("REMATCH", .rematch),
        ("GAMES", .games(limit: 20)),
        ("games 5", .games(limit: 5)),
        ("WATCH 12", .watch(12)),
        ("watch 007", .watch(7)),
        ("UNWATCH", .unwatch),
        ("NEW watch=no", .new(GameOptions(watch: false))),
        ("NEW WATCH=YES", .new(GameOptions())),
        ("NEW bot=hard watch=no clock=30", .new(GameOptions(bot: .hard, clock: 30, watch: false))),
        ("NEW game=hangman mode=duel watch=no", .new(GameOptions(game: .hangman, settings: ["mode": "duel"], watch: false))),
    ])
    func everyVerb(_ line: String, _ expected: Command) {
        #expect(command(line) == expected)
    }

    @Test("A space then a combining mark is two scalars, one character: REPORT and SAY split by scalars, so a parsed line renders to one that parses the same (found by the fuzzer)")
    func combiningMarkAfterASpace() throws {
        for line in ["REPORT     A  \u{650}t", "REPORT A \u{650}t", "SAY  \u{301}hi", "SAY \u{301}"] {
            guard case .success(let command?) = parse(line) else { continue }
            #expect(parse(command.rendered) == .success(command), "\(line.debugDescription) -> \(command.rendered.debugDescription)")
        }
        #expect(parse("REPORT     A  \u{650}t") == .success(.report(name: "A", reason: "\u{650}t")))
    }

    @Test func verbsAreCaseInsensitive() {
        #expect(command("ping") == .ping)
        #expect(command("Ping") == .ping)
        #expect(command("sEeK") == .seek())
        #expect(command("new") == .new())
        #expect(command("leave") == .leave)
        #expect(command("help") == .help)
        #expect(command("quit") == .quit)
        #expect(command("name Alice") == .name("Alice"))  // the name keeps its case
        #expect(command("lang NL") == .lang("nl"))        // codes are lowercased
        #expect(command("join abcde") == .join("ABCDE"))  // join codes are uppercased
        #expect(command("letter X") == .letter(L("x")))
        #expect(command("Letter q") == .letter(L("q")))
        #expect(command("names") == .names(prefix: nil, limit: CommandParser.defaultNames))
        #expect(command("claim") == .claim)
        #expect(command("Scores") == .scores(CommandParser.defaultScores))
        #expect(command("scores 7") == .scores(7))
        #expect(command("restart") == .restart)
        #expect(command("accept") == .accept)
        #expect(command("Decline") == .decline)
        #expect(command("rematch") == .rematch)
        #expect(command("resume abc") == .resume("abc"))
    }

    @Test func scoresDefaultsAndLimits() {
        #expect(CommandParser.defaultScores == 10)
        #expect(CommandParser.maxScores == 100)
        #expect(command("SCORES") == .scores(10))
        #expect(command("SCORES\t5") == .scores(5))
        #expect(command(" SCORES 42 ") == .scores(42))
    }

    @Test func resumeKeepsTheTokenAsSent() {
        #expect(command("RESUME ABCdef") == .resume("ABCdef"))
        #expect(command("RESUME  ff ") == .resume("ff"))
    }

    @Test func newVerbsReplyUnderTheirOwnName() {
        #expect(Command.recentNames.verb == .names)
        #expect(Command.recentNames == .names(prefix: nil, limit: CommandParser.defaultNames))
        #expect(Command.recentNames.rendered == "NAMES")
        #expect(Command.resume("x").verb.rawValue == "RESUME")
        #expect(Command.claim.verb.rawValue == "CLAIM")
        #expect(Command.scores(5).verb.rawValue == "SCORES")
        #expect(Command.restart.verb.rawValue == "RESTART")
        #expect(Command.accept.verb.rawValue == "ACCEPT")
        #expect(Command.decline.verb.rawValue == "DECLINE")
        #expect(Command.rematch.verb.rawValue == "REMATCH")
    }

    @Test func whitespaceAroundWords() {
        #expect(command("  PING  ") == .ping)
        #expect(command("NAME\talice") == .name("alice"))
        #expect(command("LETTER   y ") == .letter(L("y")))
        #expect(command(" p ") == .letter(L("p")))
    }

    @Test func singleLetterLinesAreMoves() {
        #expect(command("p") == .letter(L("p")))
        #expect(command("P") == .letter(L("p")))
        #expect(command("z") == .letter(L("z")))
        #expect(command("a") == .letter(L("a")))
        for c in Letter.all {
            #expect(command(c.description.uppercased()) == .letter(c))
        }
    }

    @Test(arguments: [
        ("LETTER ab", ErrorCode.notALetter),
        ("LETTER", .notALetter),
        ("LETTER a b", .notALetter),
        ("LETTER 7", .notALetter),
        ("7", .notALetter),
        ("!", .notALetter),
        ("?", .notALetter),
        ("\u{E9}", .notALetter),
        ("\u{DF}", .notALetter),
        ("LETTER \u{E9}", .notALetter),
        ("FOO", .unknownCommand),
        ("ab", .unknownCommand),
        ("PINGPONG", .unknownCommand),
        ("PING x", .badArguments),
        ("NAMES 0", .badArguments),
        ("NAMES 101", .badArguments),
        ("NAMES 5 6", .badArguments),
        ("NAMES prefix=a b", .badArguments),
        ("NAMES prefix=", .badArguments),
        ("NAMES prefix=a.b", .badArguments),
        ("NAMES prefix=abcdefghijklmnopq", .badArguments),
        ("NAMES prefix=a prefix=b", .badArguments),
        ("NAMES mode=x", .badArguments),
        ("SEEK now", .badArguments),
        ("NEW game", .badArguments),
        ("LEAVE now", .badArguments),
        ("HELP me", .badArguments),
        ("QUIT now", .badArguments),
        ("NAME", .badArguments),
        ("NAME bad name", .badPasswordForm),
        ("NAME bad!name secretpassword", .badName),
        ("REGISTER", .badArguments),
        ("REGISTER short", .badPasswordForm),
        ("PASSWORD", .badArguments),
        ("PASSWORD 1234567", .badPasswordForm),
        ("LANG", .badArguments),
        ("LANG en nl", .badArguments),
        ("JOIN", .badArguments),
        ("JOIN A B", .badArguments),
        ("NAMES all", .badArguments),
        ("RESUME", .badArguments),
        ("RESUME a b", .badArguments),
        ("CLAIM now", .badArguments),
        ("SCORES 0", .badArguments),
        ("SCORES 101", .badArguments),
        ("SCORES x", .badArguments),
        ("SCORES -1", .badArguments),
        ("SCORES 1.5", .badArguments),
        ("SCORES 5 6", .badArguments),
        ("SCORES 99999999999999999999999", .badArguments),
        ("RESTART now", .badArguments),
        ("ACCEPT it", .badArguments),
        ("DECLINE it now", .badArguments),
        ("REMATCH bob", .badArguments),
        ("SET", .badArguments),
        ("SET lang", .badArguments),
        ("SET lang en nl", .badArguments),
        ("SET lang=en", .badArguments),
        ("SET lang value=en", .badArguments),
        ("SET hangman_mode evil", .badArguments),
        ("SET \u{E9} evil", .badArguments),
        ("SET aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1", .badArguments),
        ("SET hangman-mode aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", .badValue),
        ("SETTINGS all", .badArguments),
        ("GAMES 0", .badArguments),
        ("GAMES 101", .badArguments),
        ("GAMES all", .badArguments),
        ("GAMES 1 2", .badArguments),
        ("WATCH", .badArguments),
        ("WATCH 1 2", .badArguments),
        ("WATCH x", .badArguments),
        ("WATCH -1", .badArguments),
        ("WATCH 1234567890123456789", .badArguments),
        ("UNWATCH 1", .badArguments),
        ("MOVES", .badArguments),
        ("MOVES 1 2", .badArguments),
        ("MOVES x", .badArguments),
        ("REVIEW -1", .badArguments),
        ("REVIEW 1234567890123456789", .badArguments),
        ("NEW watch=maybe", .badArguments),
        ("SEEK watch=no", .badArguments),
        ("NEW watch=no watch=no", .badArguments),
    ])
    func errors(_ line: String, _ code: ErrorCode) {
        #expect(errorCode(line) == code)
    }

    /// Kept out of test arguments so raw control characters do not reach the test log.
    @Test func controlCharacters() {
        for line in ["\u{1B}[31m", "a\u{0}", "\u{0}", "PING\u{7F}", "PING\u{9B}", "\u{9B}", "NAME a\u{85}b", "PING\r",
                     "PING\u{7}", "NAME \u{1B}", "LETTER \u{8}"] {
            #expect(errorCode(line) == .badCharacter, "\(Array(line.utf8))")
        }
    }

    @Test func invalidUTF8() {
        #expect(errorCode([0xFF, 0xFE]) == .badEncoding)
        #expect(errorCode([0x50, 0x49, 0x4E, 0x47, 0x20, 0xC3]) == .badEncoding)  // truncated sequence
        #expect(errorCode([0xC0, 0x80]) == .badEncoding)  // overlong NUL
        #expect(errorCode([0xED, 0xA0, 0x80]) == .badEncoding)  // surrogate
    }

    /// Protocol.md §6: encoding, then control characters, then the verb, then its arguments.
    @Test func errorPrecedence() {
        #expect(errorCode([0xFF, 0x1B, 0x0A]) == .badEncoding)            // bad UTF-8 and a control character
        #expect(errorCode([0x1B, 0xC3]) == .badEncoding)
        #expect(errorCode(Array("FOO\u{1B}".utf8)) == .badCharacter)     // a control character in an unknown verb
        #expect(errorCode(Array("NAME bad\u{9B}".utf8)) == .badCharacter)
        #expect(errorCode("FOO rounds=ghost rounds=ghost") == .unknownCommand)  // the verb before its arguments
        #expect(errorCode("ab") == .unknownCommand)
        #expect(errorCode("7") == .notALetter)
        #expect(errorCode("NAME bad!") == .badName)
        #expect(errorCode("SEEK rounds=two") == .badArguments)
    }

    @Test func nulByte() {
        #expect(errorCode([0x00]) == .badCharacter)
        #expect(errorCode([0x50, 0x49, 0x4E, 0x47, 0x00]) == .badCharacter)
    }

    @Test func c1ControlAsUTF8() {
        #expect(errorCode([0xC2, 0x9B]) == .badCharacter)  // U+009B CSI
        #expect(errorCode([0xC2, 0x80]) == .badCharacter)
        #expect(errorCode([0xC2, 0x9F]) == .badCharacter)
        #expect(errorCode([0xC2, 0xA0]) == .notALetter)  // U+00A0 is no control, but no letter
    }

    @Test(arguments: ["a", "abcdefghijklmnop", "x-y_Z9", "Alice", "9", "-", "_"])
    func validNames(_ name: String) {
        #expect(CommandParser.isValidName(name))
        #expect(command("NAME " + name) == .name(name))
    }

    @Test(arguments: ["abcdefghijklmnopq", "\u{FC}n\u{EF}", "a.b", "a/b", "a:b", "@x", "\u{1F47B}"])
    func invalidNames(_ name: String) {
        #expect(!CommandParser.isValidName(name))
        #expect(errorCode("NAME " + name) == .badName)
    }

    @Test func nameRulesOnTheFunction() {
        #expect(!CommandParser.isValidName(""))
        #expect(!CommandParser.isValidName("bad name"))
        #expect(!CommandParser.isValidName("a\tb"))
        #expect(CommandParser.maxNameLength == 16)
    }

    @Test(arguments: ["", " ", "   ", "\t", " \t \t "])
    func blankLinesAreNil(_ line: String) {
        guard case .success(let c) = parse(line) else {
            Issue.record("blank line \(Array(line.utf8)) was an error")
            return
        }
        #expect(c == nil)
    }

    @Test func errorsCarryAMessage() throws {
        guard case .failure(let e) = parse("LETTER ab") else {
            Issue.record("expected an error")
            return
        }
        #expect(e.code == .notALetter)
        #expect(!e.message.isEmpty)
        #expect(e.message.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F })
    }

    @Test func errorCodeSpellings() {
        #expect(ErrorCode.lineTooLong.rawValue == "line-too-long")
        #expect(ErrorCode.badValue.rawValue == "bad-value")
        #expect(ErrorCode.notYourTurn.rawValue == "not-your-turn")
        #expect(ErrorCode.notInGame.rawValue == "not-in-game")
        #expect(ErrorCode.noSuchGame.rawValue == "no-such-game")
        #expect(ErrorCode.ownGame.rawValue == "own-game")
        #expect(ErrorCode.badToken.rawValue == "bad-token")
        #expect(ErrorCode.notClaimable.rawValue == "not-claimable")
        #expect(ErrorCode.noOffer.rawValue == "no-offer")
        #expect(ErrorCode.offerPending.rawValue == "offer-pending")
        #expect(ErrorCode.offerSpent.rawValue == "offer-spent")
        #expect(ErrorCode.noRematch.rawValue == "no-rematch")
        #expect(ErrorCode.storeFailed.rawValue == "store-failed")
        #expect(ErrorCode.tooManyNames.rawValue == "too-many-names")
        #expect(ErrorCode.privateGame.rawValue == "private-game")
        #expect(ErrorCode.notWatching.rawValue == "not-watching")
    }

    @Test func helpCoversEveryVerb() {
        let verbs = Command.helpLines.map { $0.usage.split(separator: " ")[0] }
        #expect(verbs == ["NAME", "REGISTER", "PASSWORD", "NAMES", "LANG", "SET", "SETTINGS", "SEEK", "NEW", "JOIN", "LEAVE", "RESTART", "ACCEPT",
                          "DECLINE", "RESUME", "CLAIM", "REMATCH", "GAMES", "WATCH", "UNWATCH", "MOVES", "REVIEW", "VIEW", "SCORES", "TOP", "PROFILE",
                          "HISTORY", "HINT", "STATS", "HELP", "PING", "QUIT",
                          "FOLLOW", "UNFOLLOW", "FOLLOWING", "INVITE", "SAY", "BLOCK", "UNBLOCK", "BLOCKS", "REPORT"])
        // Every verb the parser knows has a help line, and no help line names an unknown verb.
        for verb in verbs {
            let line = verb == "RESUME" || verb == "NAME" || verb == "LANG" || verb == "JOIN"
                ? "\(verb) x" : String(verb)
            #expect(errorCode(line) != .unknownCommand, "\(verb)")
        }
    }

    /// QUIT adjourns a game in progress (LEAVE resigns it); the help must not say it loses.
    @Test func quitHelpDoesNotSayTheGameIsLost() throws {
        let quit = try #require(Command.helpLines.first { $0.usage == "QUIT" })
        #expect(!quit.text.contains("lost"), "\(quit.text)")
    }

    /// The byte-level fast path for PING, LETTER x and x agrees with the full
    /// parser on every line it takes, and leaves every other line to it.
    @Test func fastPathAgreesWithTheFullParser() {
        var lines: [[UInt8]] = []
        let pieces = ["PING", "ping", "PiNg", "PINGS", "PIN", "P1NG", "LETTER a", "letter Z", "LeTTeR q", "LETTER  a",
                      "LETTER\ta", "LETTER ab", "LETTER 1", "LETTER", "LETTERa", "LETTER @", "LETTER [", "LETTEr `",
                      "a", "Z", "1", "@", "[", "`", "{", " ", "\t", "ŀ", "\u{1B}", "LETTER \u{7F}", "lEtTeR z", "KETTER a"]
        for p in pieces { lines.append(Array(p.utf8)) }
        // Every 1, 4 and 8 byte line over a small alphabet that includes the case-fold traps.
        let alphabet: [UInt8] = Array("PINGpingLETRletr @[`{\u{7F}\t".utf8)
        for a in alphabet { lines.append([a]) }
        for a in alphabet { for b in alphabet { lines.append([a, b, 0x4E, 0x47]); lines.append([0x50, 0x49, a, b]) } }
        for a in alphabet { for b in alphabet { lines.append(Array("LETT".utf8) + [a, 0x52, b, 0x61]) } }
        for line in lines {
            let fast = CommandParser.plainMove(line)
            let full = CommandParser.parseFully(line)
            if let fast {
                #expect(full == .success(fast), "\(line)")
            }
            #expect(CommandParser.parse(line) == full, "\(line)")
        }
        #expect(CommandParser.plainMove(Array("PING".utf8)) == .ping)
        #expect(CommandParser.plainMove(Array("letter Q".utf8)) == .letter(Letter(ascii: 0x71)!))
        #expect(CommandParser.plainMove(Array("LETTER ab".utf8)) == nil)
    }
}
