/// A seat's Glicko-2 rating as GAME and OVER show it (issue #28): whole
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
