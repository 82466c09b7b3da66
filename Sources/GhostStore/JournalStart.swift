/// A game's start on its way to the `games` table: the row's
/// columns as `GamesStore.createGame` inserts them, waiting in the move
/// journal (MoveJournal.swift) until a turn commits a transaction anyway
/// (usually the game's end). A game's start then costs an append of one
/// line instead of a transaction of its own.
///
/// Only a start whose tokens are of the new form, or empty, waits (`waits`):
/// a token of any other form goes into a unique index, which could refuse
/// the row, and that must happen to the command that started the game, not
/// to a later turn's fold.
struct JournalStart: Sendable, Equatable {
    var id: Int
    var kind: String
    var variant: String
    var settings: String
    /// The seed's 64 bits as SQLite stores them (signed).
    var seed: Int
    var lang: String
    var player0: String
    var player1: String
    /// As the row stores them (`ResumeTokens.stored`): `~` and the secret.
    var token0: String
    var token1: String
    var bot0: String?
    var bot1: String?
    var rounds: Int
    var starter: Int
    var startedAt: Int
    var clock: Int
    var watch: Bool
    /// The row's `last_active` (0 when the start gave no networks).
    var lastActive: Int
    var net0: String
    var net1: String

    /// Whether the start may wait in the journal (see the type's comment).
    var waits: Bool {
        JournalStart.tokenWaits(token0) && JournalStart.tokenWaits(token1)
    }

    private static func tokenWaits(_ stored: String) -> Bool {
        stored.isEmpty || stored.utf8.first == ResumeTokens.mark
    }

    /// The game as `GamesStore.loadActive` reads a row that nothing but its
    /// start has written (round 1, no rounds lost, no offer).
    func storedGame(moves: [StoredMove]) -> StoredGame {
        StoredGame(id: id, kind: kind, variant: variant, settings: settings,
                   seed: UInt64(bitPattern: Int64(seed)), lang: lang, players: [player0, player1],
                   tokens: [ResumeTokens.token(stored: token0, game: id, seat: 0),
                            ResumeTokens.token(stored: token1, game: id, seat: 1)],
                   bots: [bot0, bot1], rounds: rounds, losses: [0, 0], round: 1, starter: starter,
                   offer: nil, offerSpent: [false, false], startedAt: startedAt, clock: clock,
                   watch: watch, moves: moves)
    }

    /// The game as `GamesStore.replayedGame` reads such a row.
    var replayedGame: ReplayedGame {
        ReplayedGame(id: id, kind: kind, variant: variant, settings: settings,
                     seed: UInt64(bitPattern: Int64(seed)), lang: lang, players: [player0, player1],
                     rounds: rounds, round: 1, watch: watch, over: false, winner: nil, loser: nil, reason: nil)
    }

    // MARK: The line format

    /// The word that starts a start's line (a move's starts with a digit).
    static let tag: [UInt8] = Array("start ".utf8)

    /// `start <check> <id> <seed> <rounds> <starter> <started> <clock>
    /// <watch> <last active> <kind> <variant> <settings> <lang> <player0>
    /// <player1> <token0> <token1> <bot0> <bot1> <net0> <net1>\n`: `check`
    /// is the FNV-1a hash of what follows it, as 8 hex digits; each text is
    /// `=` and its bytes, with `%`, space and the control bytes as `%` and two lowercase hex digits,
    /// and a missing one (a seat that is a person has no level) is `-`.
    func appendLine(to out: inout [UInt8]) {
        // Written in place into one buffer, the check filled in once the
        // rest is there (not built from strings and arrays, nor appended a
        // byte at a time with a check each: a line at every game's start).
        let texts: [String?] = [kind, variant, settings, lang, player0, player1, token0, token1, bot0, bot1, net0, net1]
        let capacity = JournalStart.tag.count + 9 + 8 * 21 + texts.reduce(0) { $0 + 2 + 3 * ($1?.utf8.count ?? 0) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { line in
            guard let base = line.baseAddress else { return }
            var p = base
            for b in JournalStart.tag { p.pointee = b; p += 1 }
            let check = p
            p += 9
            check[8] = 0x20
            let body = p
            func number(_ n: Int) {
                if n < 0 { p.pointee = UInt8(ascii: "-"); p += 1 }
                p = MoveJournal.writeDecimal(n.magnitude, at: p)
                p.pointee = 0x20; p += 1
            }
            number(id); number(seed); number(rounds); number(starter)
            number(startedAt); number(clock); number(watch ? 1 : 0); number(lastActive)
            for text in texts {
                guard var t = text else { p.pointee = UInt8(ascii: "-"); p += 1; p.pointee = 0x20; p += 1; continue }
                p.pointee = UInt8(ascii: "="); p += 1
                t.withUTF8 { bytes in
                    for b in bytes {
                        if b <= 0x20 || b == 0x25 || b == 0x7F {
                            p[0] = UInt8(ascii: "%")
                            p[1] = MoveJournal.hexDigit(b >> 4)
                            p[2] = MoveJournal.hexDigit(b)
                            p += 3
                        } else {
                            p.pointee = b; p += 1
                        }
                    }
                }
                p.pointee = 0x20; p += 1
            }
            (p - 1).pointee = 0x0A
            let hash = MoveJournal.fnv(UnsafeBufferPointer(start: body, count: p - 1 - body))
            for i in 0..<8 { check[i] = MoveJournal.checkDigit(hash, i) }
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: p - base))
        }
    }

    /// The start a line (without its newline) spells, or nil if it is not
    /// whole and intact.
    static func parseLine(_ line: ArraySlice<UInt8>) -> JournalStart? {
        let tagEnd = line.startIndex + tag.count
        guard line.count > tag.count + 9, line[line.startIndex..<tagEnd].elementsEqual(tag) else { return nil }
        let bodyStart = tagEnd + 9
        guard line[bodyStart - 1] == 0x20 else { return nil }
        guard let check = MoveJournal.parseCheck(line[tagEnd..<(bodyStart - 1)]) else { return nil }
        let body = line[bodyStart...]
        guard MoveJournal.fnv(body) == check else { return nil }
        let fields = body.split(separator: 0x20, omittingEmptySubsequences: false)
        guard fields.count == 20 else { return nil }
        var numbers: [Int] = []
        for field in fields.prefix(8) {
            guard let n = Int(String(decoding: field, as: UTF8.self)) else { return nil }
            numbers.append(n)
        }
        var texts: [String?] = []
        for field in fields.dropFirst(8) {
            guard let text = parseText(field) else { return nil }
            texts.append(text)
        }
        guard numbers.count == 8, texts.count == 12,
              let kind = texts[0], let variant = texts[1], let settings = texts[2], let lang = texts[3],
              let player0 = texts[4], let player1 = texts[5], let token0 = texts[6], let token1 = texts[7],
              let net0 = texts[10], let net1 = texts[11] else { return nil }
        return JournalStart(id: numbers[0], kind: kind, variant: variant, settings: settings, seed: numbers[1],
                            lang: lang, player0: player0, player1: player1, token0: token0, token1: token1,
                            bot0: texts[8], bot1: texts[9], rounds: numbers[2], starter: numbers[3],
                            startedAt: numbers[4], clock: numbers[5], watch: numbers[6] != 0,
                            lastActive: numbers[7], net0: net0, net1: net1)
    }

    /// `-` is nil (as `.some(nil)`); `=…` its text; anything else fails (nil).
    private static func parseText(_ field: ArraySlice<UInt8>) -> String?? {
        guard let first = field.first else { return nil }
        if first == UInt8(ascii: "-") { return field.count == 1 ? .some(nil) : nil }
        guard first == UInt8(ascii: "=") else { return nil }
        var bytes: [UInt8] = []
        var i = field.startIndex + 1
        while i < field.endIndex {
            let b = field[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < field.endIndex, let high = MoveJournal.hexValue(field[i + 1]),
                      let low = MoveJournal.hexValue(field[i + 2]) else { return nil }
                bytes.append(UInt8(high << 4 | low))
                i += 3
            } else {
                bytes.append(b)
                i += 1
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return .some(text)
    }
}
