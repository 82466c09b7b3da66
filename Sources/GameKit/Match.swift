/// A match over rounds as a pure value: a seat that loses `target` rounds
/// loses the match (a single game is a match of one round). The seats take
/// turns to start the rounds.
public struct Match: Sendable, Equatable {
    /// Rounds a seat may lose before it loses the match (1: a single game).
    public let target: Int
    /// Rounds lost so far, per seat.
    public private(set) var losses: [Int]
    /// The round in play, from 1. A restart also counts as a new round.
    public private(set) var round: Int
    /// The seat that starts the round in play.
    public private(set) var starter: Int

    public init(target: Int, losses: [Int] = [0, 0], round: Int = 1, starter: Int = 0) {
        self.target = max(1, target)
        self.losses = losses.count == 2 ? losses.map { max(0, $0) } : [0, 0]
        self.round = max(1, round)
        self.starter = starter == 1 ? 1 : 0
    }

    public var isMatch: Bool { target > 1 }

    public enum Step: Sendable, Equatable {
        /// Play goes on with a new round.
        case nextRound
        /// The match (or single game) is over: this seat lost it, or
        /// nobody did (a single game drawn).
        case over(loser: Int?)
    }

    /// The round in play ended with `outcome`. A drawn round counts for
    /// neither seat: a match goes on with the next round, a single game is over.
    public mutating func roundEnded(_ outcome: Outcome) -> Step {
        guard let loser = outcome.loser else {
            guard isMatch else { return .over(loser: nil) }
            starter = 1 - starter
            round += 1
            return .nextRound
        }
        return roundLost(by: loser, reason: outcome.reason)
    }

    /// Seat `loser` lost the round in play for `reason`. Reasons from the
    /// seats (left, abandoned) end the match at once.
    public mutating func roundLost(by loser: Int, reason: EndReason) -> Step {
        guard loser == 0 || loser == 1 else { return .nextRound }
        guard !reason.endsMatch else { return .over(loser: loser) }
        losses[loser] += 1
        guard losses[loser] < target else { return .over(loser: loser) }
        starter = 1 - starter
        round += 1
        return .nextRound
    }

    /// The round in play starts again (its moves are dropped). `fresh` tells
    /// whether the round had moves; one without can be reused as it is.
    public mutating func restartRound(hadMoves: Bool) {
        if hadMoves { round += 1 }
    }
}

/// A high-score list: one per game kind, seat kind and match length.
public struct Board: Sendable, Hashable, CustomStringConvertible {
    /// The prefix of the kind's board names (`GameDefinition.boardPrefix`):
    /// nil for the kind whose boards keep protocol 1's short names (the
    /// server's first kind, Ghost, says so of itself; GameKit knows no game).
    public var kind: String?
    public var computer: BotLevel?
    /// Matches rather than single games.
    public var isMatch: Bool

    public init(kind: String? = nil, computer: BotLevel? = nil, match: Bool = false) {
        self.kind = kind
        self.computer = computer
        self.isMatch = match
    }

    /// `game`, `match`, `easy`, `hard-match`…; prefixed by the kind's `boardPrefix`: `hangman-game`.
    public var name: String {
        let base: String
        switch (computer, isMatch) {
        case (nil, false): base = "game"
        case (nil, true): base = "match"
        case (let l?, false): base = l.rawValue
        case (let l?, true): base = "\(l.rawValue)-match"
        }
        return kind.map { "\($0)-\(base)" } ?? base
    }

    public var description: String { name }
}
