import GameKit

/// Turns a framed client line into a `Command`, using `CommandTable`.
public enum CommandParser {
    /// Names: 1 to 16 of A-Z a-z 0-9 - _.
    public static let maxNameLength = 16
    /// SCORES without a number lists this many; at most `maxScores`.
    public static let defaultScores = 10
    public static let maxScores = 100
    /// TOP and HISTORY without a number list this many; at most `maxTop`, `maxHistory`.
    public static let defaultTop = 10
    public static let maxTop = 100
    public static let defaultHistory = 20
    public static let maxHistory = 100
    /// NAMES without a number lists this many (most recently used first); at most `maxNames`.
    public static let defaultNames = 20
    public static let maxNames = 100
    /// GAMES without a number lists this many games in progress (most recent first); at most `maxGames`.
    public static let defaultGames = 20
    public static let maxGames = 100

    public static func isValidName(_ name: some StringProtocol) -> Bool {
        let bytes = name.utf8
        guard (1...maxNameLength).contains(bytes.count) else { return false }
        return bytes.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F
        }
    }

    /// The answer to a line whose first word is no verb (of the protocol's, or of a kind's).
    public static let unknownCommand = CommandError(.unknownCommand, "unknown command; play one letter per line, or send HELP for the commands")

    /// Parses one framed line (without its line end). Returns nil for a blank line.
    /// Every `game=<kind>` is read as given (the protocol knows no kind).
    public static func parse(_ line: [UInt8]) -> Result<Command?, CommandError> {
        parse(line, defaultKind: nil)
    }

    /// Parses one framed line as `parse(_:)` does, reading `game=<defaultKind>`
    /// (the server's catalog's default kind) as no `game=` at all: SEEK and
    /// NEW take that kind's options only, SCORES lists its boards, TOP its
    /// default list.
    public static func parse(_ line: [UInt8], defaultKind: GameKind?) -> Result<Command?, CommandError> {
        if let command = plainMove(line) { return .success(command) }
        return parseFully(line, defaultKind: defaultKind)
    }

    /// The parser proper, for every line. Errors come in the order of
    /// Protocol.md §6: encoding, control characters, the verb, then its
    /// arguments. (Framing — line-too-long — is the framer's, before this;
    /// state and store errors are the lobby's, after.)
    static func parseFully(_ line: [UInt8], defaultKind: GameKind? = nil) -> Result<Command?, CommandError> {
        if let parsed = parseASCII(line, defaultKind: defaultKind) { return parsed }
        return parseGeneral(line, defaultKind: defaultKind)
    }

    /// `parseFully` for a line of ASCII bytes only (nil for any other line),
    /// with the same results: the words are found on the bytes and the verb
    /// by its packed spelling (`CommandTable.verb(packed:)`), with no
    /// `Character` walk and no second split of the arguments (`parseGeneral`
    /// does both, for every NEW and JOIN). On ASCII, a
    /// `Character` is one byte (CR LF, the only pair that joins, is a control
    /// character, refused first), so the words are `parseGeneral`'s words.
    static func parseASCII(_ line: [UInt8], defaultKind: GameKind?) -> Result<Command?, CommandError>? {
        var ascii = true
        for b in line where b >= 0x80 { ascii = false; break }
        guard ascii else { return nil }
        if Sanitize.containsControl(utf8: line, allowingTab: true) {
            return .failure(CommandError(.badCharacter, "control characters are not allowed"))
        }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        var start = 0
        while start < line.count, isSpace(line[start]) { start += 1 }
        guard start < line.count else { return .success(nil) }
        var end = start
        while end < line.count, !isSpace(line[end]) { end += 1 }
        var next = end
        while next < line.count, isSpace(line[next]) { next += 1 }
        // A line holding just one character is a move.
        if end - start == 1 && next == line.count {
            return Letter(ascii: line[start]).map { .success(.letter($0)) }
                ?? .failure(CommandError(.notALetter, "play exactly one letter a-z"))
        }
        // The verb, packed as `CommandTable.head(ofLine:)` packs it (no NUL:
        // a control character, refused above).
        guard end - start <= 9 else { return .failure(unknownCommand) }
        var key: UInt64 = 0
        for i in start..<end {
            let b = line[i]
            key = key << 7 | UInt64((0x61...0x7A).contains(b) ? b - 0x20 : b)
        }
        guard let verb = CommandTable.verb(packed: key) else {
            // `LETTER <c>`, a one-letter line spelt out; any other `LETTER` line is the kinds'.
            if key == letterKey, let l = onlyLetter(line, from: next) { return .success(.letter(l)) }
            return .failure(unknownCommand)
        }
        let text = String(decoding: line, as: UTF8.self)
        let utf8 = text.utf8
        let spec = CommandTable.spec(verb)
        if spec.parseRest != nil {
            // The text after the verb, for a verb whose last argument is the rest of the line (a password).
            let rest = text[utf8.index(utf8.startIndex, offsetBy: end)...]
            return spec.parse(rest: rest, defaultKind: defaultKind).map { $0 }
        }
        // The words after the verb, as `Substring`s of one `String`.
        var words: [Substring] = []
        var i = next
        while i < line.count {
            var j = i
            while j < line.count, !isSpace(line[j]) { j += 1 }
            words.append(text[utf8.index(utf8.startIndex, offsetBy: i)..<utf8.index(utf8.startIndex, offsetBy: j)])
            i = j
            while i < line.count, isSpace(line[i]) { i += 1 }
        }
        return spec.parse(arguments: words, defaultKind: defaultKind).map { $0 }
    }

    /// The parser for every line, as it was before `parseASCII`: the lines
    /// that are not all ASCII take it (and the tests hold `parseASCII` to it).
    static func parseGeneral(_ line: [UInt8], defaultKind: GameKind? = nil) -> Result<Command?, CommandError> {
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(CommandError(.badEncoding, "lines must be UTF-8"))
        }
        if Sanitize.containsControl(utf8: line, allowingTab: true) {
            return .failure(CommandError(.badCharacter, "control characters are not allowed"))
        }
        // Split by Unicode scalars, not characters: a space followed by a
        // combining mark is one character, and a line must parse the same
        // once rendered again (the fuzzer found `SAY  \u{301}hi`).
        let words = text.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Substring($0) }
        guard let first = words.first else { return .success(nil) }

        // A line holding just one character is a move.
        if words.count == 1 && first.count == 1 {
            return letter(first).map { $0 }
        }
        guard let verb = Verb(spelled: first) else {
            if words.count == 2, ASCII.uppercased(first) == Command.letterVerb, words[1].utf8.count == 1, let l = Letter(words[1]) {
                return .success(.letter(l))
            }
            return .failure(unknownCommand)
        }
        // The text after the verb, for a verb whose last argument is the rest of the line (a password).
        let rest = Substring(text.unicodeScalars[first.endIndex...])
        return CommandTable.spec(verb).parse(rest: rest, defaultKind: defaultKind).map { $0 }
    }

    /// The lines a busy server sees most, `PING`, `LETTER x` and `x`, in
    /// their plain spelling (any case, single spaces), recognised from the
    /// bytes without building strings. Anything else, nil: the full parser
    /// decides, and returns the same for these lines.
    private static let letterVerb = Array("letter".utf8)

    static func plainMove(_ line: [UInt8]) -> Command? {
        func folds(_ b: UInt8, to lower: UInt8) -> Bool { b | 0x20 == lower }
        switch line.count {
        case 1:
            return Letter(ascii: line[0]).map { .letter($0) }
        case 4:
            return folds(line[0], to: 0x70) && folds(line[1], to: 0x69) && folds(line[2], to: 0x6E)
                && folds(line[3], to: 0x67) ? .ping : nil
        case 8:
            for i in 0..<6 where !folds(line[i], to: letterVerb[i]) { return nil }
            guard line[6] == 0x20 else { return nil }
            return Letter(ascii: line[7]).map { .letter($0) }
        default:
            return nil
        }
    }

    /// `LETTER` packed as `CommandTable.head(ofLine:)` packs a verb.
    private static let letterKey = Command.letterVerb.utf8.reduce(UInt64(0)) { $0 << 7 | UInt64($1) }

    /// The letter that is all of `line` from `start` but spaces and tabs after it.
    private static func onlyLetter(_ line: [UInt8], from start: Int) -> Letter? {
        guard start < line.count, let l = Letter(ascii: line[start]) else { return nil }
        var i = start + 1
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        return i == line.count ? l : nil
    }

    private static func letter(_ text: some StringProtocol) -> Result<Command, CommandError> {
        if let l = Letter(text) { return .success(.letter(l)) }
        return .failure(CommandError(.notALetter, "play exactly one letter a-z"))
    }
}
