import GameKit

/// The lines ghostd sends, typed: written by `appendWire` (the one renderer)
/// and read by `ServerLine(decoding:)` (clients). Field order on the wire is
/// defined only in `appendWire`.
public enum ServerLine: Sendable, Hashable {
    case hello(version: String, protocolVersion: Int, languages: [String])
    /// The final line of a command that worked.
    case ok(Reply)
    /// The final line of a command that did not: nothing changed.
    case error(ErrorCode, String)
    /// An event: free text for people.
    case info(String)
    /// The full state header of a game; `token` goes only to its own player.
    /// `fields` are the game kind's: for Ghost, `rounds=ghost ghost=<letters>` in a match.
    /// `record`: between two people who have finished games of this kind
    /// together, the receiver's record against the other (`record=2-1`, after the kind's fields).
    /// `clock`: the game's seconds per move (`clock=`, after `record=`), nil without a clock.
    /// `audience`: who watches (after `clock=`), nil when nobody does, the
    /// game may be watched and the receiver plays in it.
    /// `ratings`: a rated game's ratings before it (`ratings=`, last; RatingFields.swift), nil when unrated.
    /// `kind`: `game=`, which every server since protocol 2 sends; nil when a
    /// protocol-1 server left it out (its games are the client's default kind).
    case game(id: Int, kind: GameKind?, lang: String, players: [String], token: String?, round: Int, bot: BotLevel?,
              fields: [Field], record: HeadToHead? = nil, clock: Int? = nil, audience: Audience? = nil,
              ratings: SeatRatings? = nil)
    /// A data line of GAMES' reply: a game in progress that may be watched.
    /// `fields`: how it was set up (the kind's setup fields, `rounds=ghost`,
    /// `clock=`), after `watchers=`.
    case live(id: Int, kind: GameKind, players: [String], lang: String, moves: Int, watchers: Int, fields: [Field] = [])
    /// The number of people watching game `id` changed (to its players and
    /// its watchers; at most about once a second).
    case watchers(id: Int, count: Int)
    /// `player` is to move. Ghost: `fragment=<f> [ghost=<letters>]`. `clock`:
    /// the seconds `player` has left for this move (`clock=`, after the kind's
    /// fields), nil when the game has no clock or the computer is to move.
    case turn(id: Int, player: String, fields: [Field], clock: Int? = nil, deadline: TurnDeadline? = nil)
    /// `player` moved. Ghost: `letter=<c> fragment=<f>`.
    case move(id: Int, player: String, fields: [Field])
    /// The game (in a match: the round) is over. Ghost: `fragment=<f> [ghost=<letters>]`.
    /// `ratings`: at the end of a rated game, the ratings after it and their
    /// changes (`ratings= changes=`, after the kind's fields), nil otherwise.
    case over(id: Int, winner: String, loser: String, reason: OverReason, fields: [Field], ratings: SeatRatings? = nil)
    /// The game (in a match: the round) ended in a draw between `players`
    /// (seat order), which only a kind whose rules give draws sends:
    /// `OVER id= draw=<a>,<b> reason=` and the kind's fields, as `over`'s.
    case drawn(id: Int, players: [String], reason: OverReason, fields: [Field], ratings: SeatRatings? = nil)
    /// A match is over. Ghost: `ghost=<letters>`.
    case match(id: Int, winner: String, loser: String, fields: [Field])
    /// The game ended with no winner and no score. `ended`: when
    /// (unix seconds), only in the reply to a RESUME of an aborted game's token.
    case aborted(id: Int, reason: AbortReason, ended: Int? = nil)
    case adjourned(id: Int, player: String, grace: Int)
    case returned(id: Int, player: String)
    case claimable(id: Int, player: String)
    case offer(id: Int, player: String, kind: OfferKind, lang: String?)
    case accepted(id: Int, player: String, kind: OfferKind)
    case declined(id: Int, player: String, kind: OfferKind)
    case rematch(id: Int, player: String)
    /// An offer or request that `player` made no longer stands: a move
    /// cancelled an offer to restart, or a rematch request lapsed.
    case cancelled(id: Int, player: String, kind: Withdrawn)
    /// Sent with `OK SEEK` when the seeker waits: `count` players are waiting
    /// in another queue (game kind, language, rounds, clock), whom this seek
    /// will not meet. `clock`: that queue's seconds per move (`clock=`), nil for none;
    /// `variant`: Ghost's variant (`variant=super`, last), nil for Ghost itself.
    case waiting(game: String, lang: String, rounds: Rounds, count: Int, clock: Int?, variant: String? = nil)
    case rank(name: String, rank: Int, wins: Int)
    /// At the end of a game that made a best-games list, to its player:
    /// `RANK board=<board> rank=<r>` and the entry's fields (the game kind's).
    case bestRank(board: String, rank: Int, fields: [Field])
    /// A data line of NAMES' reply.
    case nameEntry(String)
    /// A data line of SCORES' reply; `registered`: the name is registered
    /// (`registered=yes`, last; absent for a guest's name).
    case score(rank: Int, name: String, wins: Int, played: Int, registered: Bool = false)
    /// A data line of SCORES' reply for a best-games list: `SCORE rank=<r>
    /// name=<name>` and the game's fields (Hangman: `word= mistakes= misses= mode= lang=`),
    /// then `registered=yes` for a registered name.
    case bestScore(rank: Int, name: String, fields: [Field], registered: Bool = false)
    /// A data line of SETTINGS' reply: a setting, its value and its default.
    case setting(key: String, value: String, defaultValue: String)
    /// A data line of STATS' reply: one figure.
    case stat(name: String, value: String)
    /// A data line of TOP, PROFILE or HISTORY (RatingFields.swift).
    case ratingData(RatingData)
    /// A data line of HELP's reply: `HELP <usage> - <text>`, both free text.
    case helpEntry(usage: String, text: String)
    /// A data line of MOVES' reply: move `n` of round `round`, by `player`,
    /// as the store keeps it (`play=p`, `<p`, `word:<w>`, `challenge`,
    /// `concede`; `hidden` for a move secret until the game's end).
    case played(n: Int, round: Int, player: String, play: String)
    /// A data line of REVIEW's reply: move `n` (of round `round`, in a
    /// match; nil otherwise) by `player`, and the kind's fields (Ghost:
    /// `play= fragment= outcome= [better=]`).
    case ply(n: Int, round: Int?, player: String, fields: [Field])
    /// A data line of VIEW's reply: a row of the game's board or a move the
    /// asker may send now (ViewData.swift).
    case view(ViewData)
    /// The last line before the server closes the connection.
    case bye(ByeCode, String)
    /// Between people: friends, presence, invitations, chat (SocialLine.swift).
    case social(SocialLine)

    /// `OK <VERB> key=value …` from strings, as the lobby builds replies: a
    /// typed `Reply` when the fields are exactly that reply's, otherwise
    /// `.other`, so the line on the wire is always the one given.
    public static func ok(_ verb: String, _ fields: (String, String)...) -> ServerLine {
        ok(verb: verb, fields: fields)
    }

    public static func ok(verb: String, fields: [(String, String)]) -> ServerLine {
        .ok(Reply(verb: verb, exactly: fields.map { Field($0.0, $0.1) }))
    }

    /// The line as sent, without CRLF.
    public var rendered: String {
        var out: [UInt8] = []
        appendWire(to: &out)
        out.removeLast(2)
        return String(decoding: out, as: UTF8.self)
    }

    /// The line split into keyword, words, fields and text (tools and tests).
    public var message: Message { Message.parse(rendered) ?? Message("") }
}

/// Who watches a game, as its GAME line says: `watch=no` for a game made
/// private at NEW, `watchers=<n>` while n > 0 people watch, `watching=yes`
/// when the receiver is one of them (their GAME has no token).
public struct Audience: Sendable, Hashable {
    /// Others may watch (false: `watch=no`).
    public var open: Bool
    /// How many watch now.
    public var watchers: Int
    /// The receiver watches rather than plays.
    public var watching: Bool

    public init(open: Bool = true, watchers: Int = 0, watching: Bool = false) {
        self.open = open
        self.watchers = watchers
        self.watching = watching
    }

    /// Nil when it would write nothing (open, nobody watching, a player),
    /// so a line without these fields reads back the same.
    public static func of(open: Bool, watchers: Int, watching: Bool) -> Audience? {
        open && watchers == 0 && !watching ? nil : Audience(open: open, watchers: watchers, watching: watching)
    }
}

// MARK: Rendering straight to bytes

extension ServerLine {
    /// Appends the line and its CRLF to `out`, field by field, without
    /// building strings first: this runs for every reply and event, and the
    /// lines of play (OK LETTER, MOVE, TURN) for every letter. Values have
    /// spaces and control characters replaced (`Sanitize.appendValue`), free
    /// text its control characters.
    public func appendWire(to out: inout [UInt8]) {
        // Written first into a buffer on the stack, byte stores and copies
        // with no array bookkeeping, then appended in one copy; a line too
        // long for it (HELP, a long INFO) is written straight to `out`.
        let fitted = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ServerLine.stackBytes) { room -> Bool in
            guard let base = room.baseAddress else { return false }
            var line = LineBuffer(base: base, capacity: room.count)
            write(to: &line)
            guard !line.overflowed else { return false }
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: line.count))
            return true
        }
        if !fitted { write(to: &out) }
    }

    /// Runs `body` on the line's bytes and CRLF, written on the stack (a
    /// line too long for it in an array): a line to several connections is
    /// rendered once and appended to each (`ConnectionTable`).
    public func withWire(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let fitted = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ServerLine.stackBytes) { room -> Bool in
            guard let base = room.baseAddress else { return false }
            var line = LineBuffer(base: base, capacity: room.count)
            write(to: &line)
            guard !line.overflowed else { return false }
            body(UnsafeBufferPointer(start: base, count: line.count))
            return true
        }
        guard !fitted else { return }
        var out: [UInt8] = []
        write(to: &out)
        out.withUnsafeBufferPointer(body)
    }

    /// The longest line written on the stack first (`appendWire`, `withWire`).
    static let stackBytes = 1_024

    /// The line and its CRLF, to any sink: the one place each line's field order is written.
    func write<S: WireSink>(to out: inout S) {
        switch self {
        case let .hello(version, protocolVersion, languages):
            W.keyword("HELLO ghostd/", &out)
            W.value(version, &out)
            W.field("protocol", protocolVersion, &out)
            W.field("languages", list: languages, &out)
        case let .ok(reply):
            reply.write(to: &out)
        case let .error(code, text):
            W.keyword("ERR ", &out)
            W.value(code.rawValue, &out)
            W.text(text, &out)
        case let .info(text):
            W.keyword("INFO", &out)
            W.text(text, &out)
        case let .game(id, kind, lang, players, token, round, bot, fields, record, clock, audience, ratings):
            W.keyword("GAME", &out)
            W.field("id", id, &out)
            if let kind { W.field("game", kind.rawValue, &out) }
            W.field("lang", lang, &out)
            W.field("players", list: players, &out)
            if let token { W.field("token", token, &out) }
            W.field("round", round, &out)
            if let bot { W.field("bot", bot.rawValue, &out) }
            W.fields(fields, &out)
            if let record {   // `record=<mine>-<theirs>`: two decimals, no string made
                W.field("record", record.mine, &out)
                out.put(0x2D)
                ServerLine.appendDecimal(record.theirs, to: &out)
            }
            if let clock { W.field("clock", clock, &out) }
            if let audience {
                if !audience.open { W.field("watch", "no", &out) }
                if audience.watchers > 0 { W.field("watchers", audience.watchers, &out) }
                if audience.watching { W.field("watching", "yes", &out) }
            }
            if let ratings { W.field("ratings", ratings.ratingsValue, &out) }
        case let .live(id, kind, players, lang, moves, watchers, fields):
            W.keyword("LIVE", &out)
            W.field("id", id, &out)
            W.field("game", kind.rawValue, &out)
            W.field("players", list: players, &out)
            W.field("lang", lang, &out)
            W.field("moves", moves, &out)
            W.field("watchers", watchers, &out)
            W.fields(fields, &out)
        case let .watchers(id, count):
            W.keyword("WATCHERS", &out)
            W.field("id", id, &out)
            W.field("count", count, &out)
        case let .turn(id, player, fields, clock, deadline):
            W.keyword("TURN", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
            W.fields(fields, &out)
            if let deadline { W.field(deadline.key, deadline.seconds, &out) }
            if let clock { W.field("clock", clock, &out) }
        case let .move(id, player, fields):
            W.keyword("MOVE", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
            W.fields(fields, &out)
        case let .over(id, winner, loser, reason, fields, ratings):
            W.keyword("OVER", &out)
            W.field("id", id, &out)
            W.field("winner", winner, &out)
            W.field("loser", loser, &out)
            W.field("reason", reason.rawValue, &out)
            W.fields(fields, &out)
            if let ratings {
                W.field("ratings", ratings.ratingsValue, &out)
                if let changes = ratings.changesValue { W.field("changes", changes, &out) }
            }
        case let .drawn(id, players, reason, fields, ratings):
            W.keyword("OVER", &out)
            W.field("id", id, &out)
            W.field("draw", players.joined(separator: ","), &out)
            W.field("reason", reason.rawValue, &out)
            W.fields(fields, &out)
            if let ratings {
                W.field("ratings", ratings.ratingsValue, &out)
                if let changes = ratings.changesValue { W.field("changes", changes, &out) }
            }
        case let .match(id, winner, loser, fields):
            W.keyword("MATCH", &out)
            W.field("id", id, &out)
            W.field("winner", winner, &out)
            W.field("loser", loser, &out)
            W.fields(fields, &out)
        case let .aborted(id, reason, ended):
            W.keyword("ABORTED", &out)
            W.field("id", id, &out)
            W.field("reason", reason.rawValue, &out)
            if let ended { W.field("ended", ended, &out) }
        case let .adjourned(id, player, grace):
            W.keyword("ADJOURNED", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
            W.field("grace", grace, &out)
        case let .returned(id, player):
            W.keyword("RETURNED", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
        case let .claimable(id, player):
            W.keyword("CLAIMABLE", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
        case let .offer(id, player, kind, lang):
            W.keyword("OFFER", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
            W.field("kind", kind.rawValue, &out)
            if let lang { W.field("lang", lang, &out) }
        case let .accepted(id, player, kind):
            W.keyword("ACCEPTED", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
            W.field("kind", kind.rawValue, &out)
        case let .declined(id, player, kind):
            W.keyword("DECLINED", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
            W.field("kind", kind.rawValue, &out)
        case let .cancelled(id, player, kind):
            W.keyword("CANCELLED", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
            W.field("kind", kind.rawValue, &out)
        case let .rematch(id, player):
            W.keyword("REMATCH", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
        case let .waiting(game, lang, rounds, count, clock, variant):
            W.keyword("WAITING", &out)
            W.field("game", game, &out)
            W.field("lang", lang, &out)
            if rounds != .one { W.field("rounds", rounds.rawValue, &out) }
            W.field("count", count, &out)
            if let clock { W.field("clock", clock, &out) }
            if let variant { W.field("variant", variant, &out) }
        case let .rank(name, rank, wins):
            W.keyword("RANK", &out)
            W.field("name", name, &out)
            W.field("rank", rank, &out)
            W.field("wins", wins, &out)
        case let .bestRank(board, rank, fields):
            W.keyword("RANK", &out)
            W.field("board", board, &out)
            W.field("rank", rank, &out)
            W.fields(fields, &out)
        case let .bestScore(rank, name, fields, registered):
            W.keyword("SCORE", &out)
            W.field("rank", rank, &out)
            W.field("name", name, &out)
            W.fields(fields, &out)
            if registered { W.field("registered", "yes", &out) }
        case let .nameEntry(name):
            W.keyword("NAME", &out)
            W.field("name", name, &out)
        case let .score(rank, name, wins, played, registered):
            W.keyword("SCORE", &out)
            W.field("rank", rank, &out)
            W.field("name", name, &out)
            W.field("wins", wins, &out)
            W.field("played", played, &out)
            if registered { W.field("registered", "yes", &out) }
        case let .stat(name, value):
            W.keyword("STAT", &out)
            W.field("name", name, &out)
            W.field("value", value, &out)
        case let .setting(key, value, defaultValue):
            W.keyword("SETTING", &out)
            W.field("key", key, &out)
            W.field("value", value, &out)
            W.field("default", defaultValue, &out)
        case let .ratingData(data):
            data.write(to: &out)
        case let .view(data):
            data.write(to: &out)
        case let .social(line):
            line.write(to: &out)
        case let .helpEntry(usage, text):
            W.keyword("HELP", &out)
            W.text(usage + " - " + text, &out)
        case let .played(n, round, player, play):
            W.keyword("PLAYED", &out)
            W.field("n", n, &out)
            W.field("round", round, &out)
            W.field("player", player, &out)
            W.field("play", play, &out)
        case let .ply(n, round, player, fields):
            W.keyword("PLY", &out)
            W.field("n", n, &out)
            if let round { W.field("round", round, &out) }
            W.field("player", player, &out)
            W.fields(fields, &out)
        case let .bye(code, text):
            W.keyword("BYE ", &out)
            W.value(code.rawValue, &out)
            W.text(text, &out)
        }
        out.put(0x0D)
        out.put(0x0A)
    }

    static func appendDecimal<S: WireSink>(_ value: Int, to out: inout S) {
        if value < 0 { out.put(0x2D) }
        out.putDecimal(value.magnitude)   // a UInt, so Int.min is fine
    }
}

/// The pieces a line is written from.
enum W {
    /// A keyword or verb the line starts with, from the source: no check.
    @inline(__always)
    static func keyword<S: WireSink>(_ word: StaticString, _ out: inout S) {
        word.withUTF8Buffer { out.put( $0) }
    }

    /// A value made safe for the wire: spaces and control characters become `_`.
    @inline(__always)
    static func value<S: WireSink>(_ s: String, _ out: inout S) {
        Sanitize.append(s, to: &out, replacement: 0x5F, replacingSpace: true)
    }

    /// ` key=value`, the value made safe for the wire.
    @inline(__always)
    static func field<S: WireSink>(_ key: StaticString, _ value: String, _ out: inout S) {
        key.withUTF8Buffer { out.putKey($0) }
        W.value(value, &out)
    }

    /// ` key=123`, in decimal.
    @inline(__always)
    static func field<S: WireSink>(_ key: StaticString, _ value: Int, _ out: inout S) {
        key.withUTF8Buffer { out.putKey($0) }
        ServerLine.appendDecimal(value, to: &out)
    }

    /// ` key=a,b,c`.
    static func field<S: WireSink>(_ key: StaticString, list: [String], _ out: inout S) {
        key.withUTF8Buffer { out.putKey($0) }
        for (i, item) in list.enumerated() {
            if i > 0 { out.put(0x2C) }
            W.value(item, &out)
        }
    }

    /// ` key=value` for each field, in order.
    @inline(__always)
    static func fields<S: WireSink>(_ fields: [Field], _ out: inout S) {
        // Read in place: `for f in fields` copied each field out, a retain
        // and a release of its key and of its value.
        fields.withUnsafeBufferPointer { all in
            for i in all.indices {
                out.put(0x20)
                W.value(all[i].key, &out)
                out.put(0x3D)
                W.value(all[i].value, &out)
            }
        }
    }

    /// ` text`, unless the text is empty.
    static func text<S: WireSink>(_ text: String, _ out: inout S) {
        guard !text.isEmpty else { return }
        out.put(0x20)
        Sanitize.append(text, to: &out, replacement: 0x20, replacingSpace: false)
    }
}

/// Where a line is written: an array (`[UInt8]`), or `LineBuffer` on the stack.
protocol WireSink {
    mutating func put(_ byte: UInt8)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Puts `bytes` if every one is in `lo ..< lo + span` (unsigned) and
    /// returns true; otherwise puts nothing and returns false.
    mutating func putIfWithin(_ bytes: UnsafeBufferPointer<UInt8>, lo: UInt8, span: UInt8) -> Bool
    /// Puts ` key=`.
    mutating func putKey(_ key: UnsafeBufferPointer<UInt8>)
    /// Puts `value` in decimal.
    mutating func putDecimal(_ value: UInt)
}

extension WireSink {
    @inline(__always)
    mutating func putIfWithin(_ bytes: UnsafeBufferPointer<UInt8>, lo: UInt8, span: UInt8) -> Bool {
        var outside: UInt8 = 0
        for b in bytes { outside |= (b &- lo) >= span ? 1 : 0 }
        guard outside == 0 else { return false }
        put(bytes)
        return true
    }

    @inline(__always)
    mutating func putKey(_ key: UnsafeBufferPointer<UInt8>) {
        put(0x20)
        put(key)
        put(0x3D)
    }

    mutating func putDecimal(_ value: UInt) {
        var v = value
        if v < 10 {
            put(UInt8(truncatingIfNeeded: v) &+ 0x30)
            return
        }
        // The digits from the right into 24 bytes on the stack, then one put.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            var i = raw.count
            repeat {
                i &-= 1
                raw[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                v /= 10
            } while v > 0
            put(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[i...]))
        }
    }
}

extension Array: WireSink where Element == UInt8 {
    @inline(__always) mutating func put(_ byte: UInt8) { append(byte) }
    @inline(__always) mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

/// A line's bytes in memory it does not own (a temporary allocation on the
/// stack). A write that does not fit sets `overflowed` and is dropped:
/// what it holds is then not the line, and the caller writes it elsewhere.
struct LineBuffer: WireSink {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    private(set) var count = 0
    private(set) var overflowed = false

    init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        guard count < capacity else { overflowed = true; return }
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        guard bytes.count <= capacity &- count else { overflowed = true; return }
        LineBuffer.copy(from, bytes.count, to: base + count)
        count &+= bytes.count
    }

    /// ` key=`: one check of the room, the key copied in place (keys are
    /// literals of a few bytes: no call to memmove).
    @inline(__always)
    mutating func putKey(_ key: UnsafeBufferPointer<UInt8>) {
        let n = key.count
        guard n &+ 2 <= capacity &- count else { overflowed = true; return }
        let to = base + count
        to[0] = 0x20
        if let from = key.baseAddress, n > 0 { LineBuffer.copy(from, n, to: to + 1) }
        to[n &+ 1] = 0x3D
        count &+= n &+ 2
    }

    /// The digits written in place from the right, their number counted
    /// first: no buffer, no copy (ids, counts, seconds: a temporary buffer
    /// and its copy for every number of every line).
    @inline(__always)
    mutating func putDecimal(_ value: UInt) {
        var n = 1
        var bound: UInt = 10
        while value >= bound {
            n &+= 1
            let (next, over) = bound.multipliedReportingOverflow(by: 10)
            if over { break }
            bound = next
        }
        guard n <= capacity &- count else { overflowed = true; return }
        var v = value
        var at = base + count + n
        repeat {
            at -= 1
            at.pointee = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
            v /= 10
        } while v > 0
        count &+= n
    }

    /// Copies `n` bytes (more than 0): up to 16 as two loads that may
    /// overlap and two stores, without reading or writing past either end;
    /// more through memmove.
    @inline(__always)
    static func copy(_ from: UnsafePointer<UInt8>, _ n: Int, to: UnsafeMutablePointer<UInt8>) {
        let src = UnsafeRawPointer(from)
        let dst = UnsafeMutableRawPointer(to)
        if n > 16 {
            to.update(from: from, count: n)
        } else if n >= 8 {
            let first = src.loadUnaligned(as: UInt64.self)
            let last = src.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            dst.storeBytes(of: first, as: UInt64.self)
            dst.storeBytes(of: last, toByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            let first = src.loadUnaligned(as: UInt32.self)
            let last = src.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            dst.storeBytes(of: first, as: UInt32.self)
            dst.storeBytes(of: last, toByteOffset: n &- 4, as: UInt32.self)
        } else if n >= 2 {
            let first = src.loadUnaligned(as: UInt16.self)
            let last = src.loadUnaligned(fromByteOffset: n &- 2, as: UInt16.self)
            dst.storeBytes(of: first, as: UInt16.self)
            dst.storeBytes(of: last, toByteOffset: n &- 2, as: UInt16.self)
        } else {
            to.pointee = from.pointee
        }
    }

    /// Checks and copies in one pass: the bytes go past `count` and count
    /// only if all of them are within. A value that does not fit overflows
    /// the line (which is then written elsewhere, whatever this returns).
    ///
    /// The range is `lo...0x7E` (`span` is `0x7F - lo`, `lo` at most 0x80).
    /// Eight bytes are checked at once (`Self.outside`), loaded in pieces
    /// that overlap rather than byte by byte: a value of 8 to 16 bytes as
    /// its first and last eight, 4 to 7 as its first and last four, 2 or 3
    /// as its first and last two (a byte read twice is checked twice); a
    /// longer one as whole words, the last overlapping the one before. No
    /// byte past the value is read, none past the buffer written. A byte at
    /// a time is a load and a check for every byte, and a letter writes many values.
    @inline(__always)
    mutating func putIfWithin(_ bytes: UnsafeBufferPointer<UInt8>, lo: UInt8, span: UInt8) -> Bool {
        let n = bytes.count
        guard n <= capacity &- count else { overflowed = true; return true }
        guard let from = bytes.baseAddress, n > 0 else { return true }
        let src = UnsafeRawPointer(from)
        let to = UnsafeMutableRawPointer(base + count)
        var flags: UInt64
        if n >= 8 {
            let last = src.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            flags = LineBuffer.outside(UInt64(littleEndian: last), lo: lo)
            var i = 0
            while i < n &- 8 {
                let word = src.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                to.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
                flags |= LineBuffer.outside(UInt64(littleEndian: word), lo: lo)
                i &+= 8
            }
            to.storeBytes(of: last, toByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            let first = src.loadUnaligned(as: UInt32.self)
            let last = src.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            to.storeBytes(of: first, as: UInt32.self)
            to.storeBytes(of: last, toByteOffset: n &- 4, as: UInt32.self)
            flags = LineBuffer.outside(UInt64(UInt32(littleEndian: first)) | UInt64(UInt32(littleEndian: last)) &<< 32, lo: lo)
        } else if n >= 2 {
            let first = src.loadUnaligned(as: UInt16.self)
            let last = src.loadUnaligned(fromByteOffset: n &- 2, as: UInt16.self)
            to.storeBytes(of: first, as: UInt16.self)
            to.storeBytes(of: last, toByteOffset: n &- 2, as: UInt16.self)
            // Only the four low bytes are the value's (the zeros above would count as outside).
            flags = LineBuffer.outside(UInt64(UInt16(littleEndian: first)) | UInt64(UInt16(littleEndian: last)) &<< 16, lo: lo)
                & 0x8080_8080
        } else {
            let b = from[0]
            to.storeBytes(of: b, as: UInt8.self)
            flags = b &- lo < span ? 0 : 1
        }
        guard flags == 0 else { return false }
        count &+= n
        return true
    }

    /// The high bit of each byte of `word` (byte 0 its lowest) that may be
    /// outside `lo...0x7E`, for `lo` at most 0x80: nonzero exactly when one
    /// is. A byte at or above 0x7F sets its own bit, or that of `word + 1`'s
    /// byte (a carry leaves a byte only when it is 0xFF, already set); a
    /// byte below `lo` sets its bit of `(word - lo) & ~word`, the lowest
    /// such byte surely (the bytes below it borrow nothing), so a borrow
    /// it passes on to the bytes above can only add bits to a word already
    /// outside.
    @inline(__always)
    static func outside(_ word: UInt64, lo: UInt8) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        return (word | (word &+ ones) | ((word &- ones &* UInt64(lo)) & ~word)) & highs
    }
}

extension ServerLine {
    /// Whether it is an `ERR` line (a command that changed nothing).
    public var isError: Bool {
        if case .error = self { return true }
        return false
    }
}
