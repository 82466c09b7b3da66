import GameKit
/// A seat's Glicko-2 rating as GAME and OVER show it: whole
/// points, with `?` when it is provisional (RD above 110, as lichess marks
/// it): `1512`, `1512?`.
public struct ShownRating: Sendable, Hashable, CustomStringConvertible {
    public var rating: Int
    public var provisional: Bool

    public init(_ rating: Int, provisional: Bool = false) {
        self.rating = rating
        self.provisional = provisional
    }

    public var description: String { provisional ? "\(rating)?" : "\(rating)" }

    /// `1512` or `1512?` back; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let provisional = text.hasSuffix("?")
        guard let r = Decode.int(String(provisional ? text.dropLast() : text[...])) else { return nil }
        self.init(r, provisional: provisional)
    }
}

/// Both seats' ratings in a rated game, in the seat order of GAME's
/// `players=`: GAME shows them before the game (`ratings=1500?,1620`), OVER
/// after it with each seat's change (`ratings=1512?,1608 changes=+12,-12`).
/// The computer's seat shows its level's fixed rating and `+0`. An unrated
/// game has neither field.
public struct SeatRatings: Sendable, Hashable {
    public var ratings: [ShownRating]
    /// Per seat, OVER only.
    public var changes: [Int]?

    public init(_ ratings: [ShownRating], changes: [Int]? = nil) {
        self.ratings = ratings
        self.changes = changes
    }

    /// `+12`, `-3`, `+0`.
    public static func signed(_ change: Int) -> String { change < 0 ? "\(change)" : "+\(change)" }

    /// `ratings=` and `changes=` as they are written.
    var ratingsValue: String { ratings.map(\.description).joined(separator: ",") }
    var changesValue: String? { changes.map { $0.map(SeatRatings.signed).joined(separator: ",") } }

    /// From a line's `ratings=` and `changes=`; nil without `ratings=` or if one does not read.
    init?(ratings: String?, changes: String?) {
        guard let ratings else { return nil }
        var shown: [ShownRating] = []
        for part in ratings.split(separator: ",", omittingEmptySubsequences: false) {
            guard let r = ShownRating(part) else { return nil }
            shown.append(r)
        }
        var deltas: [Int]?
        if let changes {
            var out: [Int] = []
            for part in changes.split(separator: ",", omittingEmptySubsequences: false) {
                guard let sign = part.first, sign == "+" || sign == "-", let v = Decode.int(String(part.dropFirst())) else { return nil }
                out.append(sign == "-" ? -v : v)
            }
            deltas = out
        }
        self.init(shown, changes: deltas)
    }
}

/// A rated win as PROFILE shows it: the game, the opponent, and the
/// opponent's rating before it.
public struct RatedWin: Sendable, Hashable {
    public var game: Int
    public var opponent: String
    public var rating: Int
    public init(game: Int, opponent: String, rating: Int) {
        self.game = game
        self.opponent = opponent
        self.rating = rating
    }
}

/// The data lines of TOP, PROFILE and HISTORY.
public enum RatingData: Sendable, Hashable {
    /// TOP: `LEADER rank=<r> name=<name> rating=<r> rd=<rd> games=<g> wins=<w> losses=<l>`.
    case leader(rank: Int, name: String, rating: ShownRating, deviation: Int, games: Int, wins: Int, losses: Int)
    /// PROFILE: `RATING board=<board> rating=<r>[?] rd=<rd> games=<g> wins=<w> losses=<l>
    /// [best=<game id> best_opponent=<name> best_rating=<r>]`.
    case rating(board: String, rating: ShownRating, deviation: Int, games: Int, wins: Int, losses: Int, best: RatedWin?)
    /// PROFILE: the asker's head-to-head record against the name, per game
    /// kind and variant they have finished games of: `VERSUS game=<kind>
    /// [variant=<v>] record=<mine>-<theirs>`.
    case versus(game: String, record: HeadToHead, variant: String? = nil)
    /// HISTORY: `RESULT id=<id> game=<kind> [variant=<v>] opponent=<name>
    /// result=win|loss|aborted reason=<reason> [change=<±n>] ended=<unix seconds>
    /// [rounds=ghost] [lang=<code>]`; `rounds=ghost`: a match;
    /// `lang=`: the game's language (nil from an older server, which does not send it).
    case result(id: Int, game: String, variant: String?, opponent: String, result: String, reason: String,
                change: Int?, ended: Int, match: Bool = false, lang: String? = nil)

    func write<S: WireSink>(to out: inout S) {
        switch self {
        case let .leader(rank, name, rating, deviation, games, wins, losses):
            W.keyword("LEADER", &out)
            W.field("rank", rank, &out)
            W.field("name", name, &out)
            W.field("rating", rating.description, &out)
            W.field("rd", deviation, &out)
            W.field("games", games, &out)
            W.field("wins", wins, &out)
            W.field("losses", losses, &out)
        case let .rating(board, rating, deviation, games, wins, losses, best):
            W.keyword("RATING", &out)
            W.field("board", board, &out)
            W.field("rating", rating.description, &out)
            W.field("rd", deviation, &out)
            W.field("games", games, &out)
            W.field("wins", wins, &out)
            W.field("losses", losses, &out)
            if let best {
                W.field("best", best.game, &out)
                W.field("best_opponent", best.opponent, &out)
                W.field("best_rating", best.rating, &out)
            }
        case let .versus(game, record, variant):
            W.keyword("VERSUS", &out)
            W.field("game", game, &out)
            if let variant { W.field("variant", variant, &out) }
            W.field("record", record.description, &out)
        case let .result(id, game, variant, opponent, result, reason, change, ended, match, lang):
            W.keyword("RESULT", &out)
            W.field("id", id, &out)
            W.field("game", game, &out)
            if let variant { W.field("variant", variant, &out) }
            W.field("opponent", opponent, &out)
            W.field("result", result, &out)
            W.field("reason", reason, &out)
            if let change { W.field("change", SeatRatings.signed(change), &out) }
            W.field("ended", ended, &out)
            if match { W.field("rounds", GameOptions(match: true).rounds.rawValue, &out) }
            if let lang { W.field("lang", lang, &out) }
        }
    }

    /// One of these lines back (`keyword` and its fields), nil if it is not one or lacks a field.
    init?(keyword: Substring, _ f: [Field]) {
        func int(_ key: String) -> Int? { Decode.int(f[key]) }
        switch keyword {
        case "LEADER":
            guard let rank = int("rank"), let name = f["name"], let rating = f["rating"].flatMap({ ShownRating($0) }),
                  let rd = int("rd"), let games = int("games"), let wins = int("wins"), let losses = int("losses") else { return nil }
            self = .leader(rank: rank, name: name, rating: rating, deviation: rd, games: games, wins: wins, losses: losses)
        case "RATING":
            guard let board = f["board"], let rating = f["rating"].flatMap({ ShownRating($0) }),
                  let rd = int("rd"), let games = int("games"), let wins = int("wins"), let losses = int("losses") else { return nil }
            var best: RatedWin?
            if let game = int("best"), let opponent = f["best_opponent"], let r = int("best_rating") {
                best = RatedWin(game: game, opponent: opponent, rating: r)
            }
            self = .rating(board: board, rating: rating, deviation: rd, games: games, wins: wins, losses: losses, best: best)
        case "VERSUS":
            guard let game = f["game"], let record = f["record"].flatMap(HeadToHead.init) else { return nil }
            self = .versus(game: game, record: record, variant: f["variant"])
        case "RESULT":
            guard let id = int("id"), let game = f["game"], let opponent = f["opponent"], let result = f["result"],
                  let reason = f["reason"], let ended = int("ended") else { return nil }
            var change: Int?
            if let c = f["change"] {
                guard let sign = c.first, sign == "+" || sign == "-", let v = Decode.int(String(c.dropFirst())) else { return nil }
                change = sign == "-" ? -v : v
            }
            self = .result(id: id, game: game, variant: f["variant"], opponent: opponent, result: result, reason: reason,
                           change: change, ended: ended, match: f["rounds"].flatMap(Rounds.init(rawValue:)).map { GameOptions(rounds: $0).match } ?? false,
                           lang: f["lang"])
        default:
            return nil
        }
    }
}
