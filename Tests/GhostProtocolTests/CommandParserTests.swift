import Testing
import GhostCore
import GhostProtocol

private func parse(_ s: String) -> Result<Command?, CommandError> { CommandParser.parse(Array(s.utf8)) }

private func command(_ s: String) -> Command? {
    if case .success(let c) = parse(s) { return c }
    return nil
}

private func errorCode(_ bytes: [UInt8]) -> ErrorCode? {
    if case .failure(let e) = CommandParser.parse(bytes) { return e.code }
    return nil
}

private func errorCode(_ s: String) -> ErrorCode? { errorCode(Array(s.utf8)) }

private func L(_ c: String) -> Letter { Letter(c)! }

@Suite struct CommandParserTests {
    @Test(arguments: [
        ("NAME alice", Command.name("alice")),
        ("LANG nl", .lang("nl")),
        ("SEEK", .seek),
        ("NEW", .new),
        ("JOIN ABCDE", .join("ABCDE")),
        ("LETTER x", .letter(Letter("x")!)),
        ("LEAVE", .leave),
        ("HELP", .help),
        ("PING", .ping),
        ("QUIT", .quit),
    ])
    func everyVerb(_ line: String, _ expected: Command) {
        #expect(command(line) == expected)
    }

    @Test func verbsAreCaseInsensitive() {
        #expect(command("ping") == .ping)
        #expect(command("Ping") == .ping)
        #expect(command("sEeK") == .seek)
        #expect(command("new") == .new)
        #expect(command("leave") == .leave)
        #expect(command("help") == .help)
        #expect(command("quit") == .quit)
        #expect(command("name Alice") == .name("Alice"))  // the name keeps its case
        #expect(command("lang NL") == .lang("nl"))        // codes are lowercased
        #expect(command("join abcde") == .join("ABCDE"))  // join codes are uppercased
        #expect(command("letter X") == .letter(L("x")))
        #expect(command("Letter q") == .letter(L("q")))
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
        ("SEEK now", .badArguments),
        ("NEW game", .badArguments),
        ("LEAVE now", .badArguments),
        ("HELP me", .badArguments),
        ("QUIT now", .badArguments),
        ("NAME", .badArguments),
        ("NAME bad name", .badArguments),
        ("LANG", .badArguments),
        ("LANG en nl", .badArguments),
        ("JOIN", .badArguments),
        ("JOIN A B", .badArguments),
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
        #expect(ErrorCode.notYourTurn.rawValue == "not-your-turn")
        #expect(ErrorCode.notInGame.rawValue == "not-in-game")
        #expect(ErrorCode.noSuchGame.rawValue == "no-such-game")
        #expect(ErrorCode.ownGame.rawValue == "own-game")
    }

    @Test func helpCoversEveryVerb() {
        let verbs = Command.helpLines.map { $0.usage.split(separator: " ")[0] }
        #expect(verbs == ["NAME", "LANG", "SEEK", "NEW", "JOIN", "LETTER", "LEAVE", "HELP", "PING", "QUIT"])
    }
}
