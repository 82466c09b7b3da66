/// Who the high-score lists are for (`--scores-for`).
public enum ScoresFor: String, Sendable, CaseIterable {
    /// Every name, guest or registered: as before accounts existed.
    case all
    /// Registered names only, and a game between two people only when they
    /// played from different networks (so that two connections one person
    /// owns cannot farm a place on the lists).
    case registered
}

/// What a finished game counts for: the one place that decides it
/// (the lobby's `recordFinish` asks, the store records what it says).
///
/// With `.all` every person's game counts, as before: the board of wins,
/// the best-games lists, and two people's head-to-head record. With
/// `.registered`:
/// - a seat enters the board of wins and the best-games lists only for a
///   registered name, and, in a game between two people, only when the two
///   played from different networks (`NetworkKey`: an IPv4 address, an IPv6
///   /64, as stored when the game started); a network that is not known
///   (a game from before schema 9, a peer that is no address) proves
///   nothing, so such a game does not count. A game against the computer
///   counts for a registered name as before;
/// - a head-to-head record is kept only between two registered names
///   (whatever their networks: it is theirs, not a public list).
struct ScoringPolicy: Equatable, Sendable {
    var scoresFor: ScoresFor = .all

    /// What one finished game counts for.
    struct Decision: Equatable {
        /// Per seat: whether it counts on the board of wins and may hold the
        /// game's best-games entry (never for the computer).
        var listed: [Bool]
        /// Whether the two people's head-to-head record counts it.
        var headToHead: Bool
    }

    /// Decides for a game whose seats are people or not (`people`). `owners`
    /// (which of the seats' names are registered) and `networks` (the
    /// seats' networks) are asked only with `.registered`: the default costs
    /// no look-up.
    func decide(people: [Bool], owners: () throws -> [Bool], networks: () throws -> [String]) rethrows -> Decision {
        let person = (0..<2).map { people.indices.contains($0) && people[$0] }
        let twoPeople = person[0] && person[1]
        switch scoresFor {
        case .all:
            return Decision(listed: person, headToHead: twoPeople)
        case .registered:
            guard person[0] || person[1] else { return Decision(listed: [false, false], headToHead: false) }
            let owned = try owners()
            let registered = (0..<2).map { person[$0] && owned.indices.contains($0) && owned[$0] }
            var apart = true
            if twoPeople {
                let nets = try networks()
                let n0 = nets.indices.contains(0) ? nets[0] : "", n1 = nets.indices.contains(1) ? nets[1] : ""
                apart = !n0.isEmpty && !n1.isEmpty && n0 != n1
            }
            return Decision(listed: registered.map { $0 && apart }, headToHead: twoPeople && registered[0] && registered[1])
        }
    }
}
