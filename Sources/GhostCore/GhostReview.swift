import GameKit
import WordLists
import GhostWire
/// The post-game review of a round of Ghost (`REVIEW`): for each
/// move, what perfect play from the position it made gives the player who
/// made it, and when a move threw a won position away, the moves that would
/// have kept the win. Pure: it replays the moves and asks a `Judge`.
///
/// What each move is worth to its mover (`outcome`), under perfect play as
/// the solvers define it:
/// - a letter (at the back, or in Superghost at the front) that ends the
///   round (a word of 4+ letters, a dead fragment) loses; otherwise the
///   mover wins iff the opponent, now to move, loses;
/// - in bluff and challenge a dead fragment does not end the round, but a
///   perfect opponent challenges it: a letter that makes (or keeps) the
///   fragment dead loses; a live fragment is worth what it is in Ghost, where
///   challenging a live fragment loses (the answer names a word);
/// - `CHALLENGE` wins iff no word properly extends the fragment;
/// - the answer (`WORD`) wins iff it is a word of the list (the round says
///   so); `CONCEDE` loses.
/// A move is a mistake when its mover could force a win before it (a letter
/// that wins; in bluff and challenge, a challenge of a dead fragment; a word
/// to answer with when challenged) and no longer can after it: `better`
/// then lists the moves that would have kept the win.
public enum GhostReview {
    /// One reviewed move.
    public struct Ply: Sendable, Equatable {
        public let seat: Int
        public let move: Move
        /// The fragment after the move.
        public let fragment: String
        /// Whether the mover wins with perfect play after this move.
        public let wins: Bool
        /// Whether the mover could force a win before it.
        public let couldWin: Bool
        /// A mistake's better moves (a win thrown away); empty otherwise.
        public let better: [Move]
        public var isMistake: Bool { couldWin && !wins }
    }

    /// Who wins a position, under perfect play. Nil: not known within the
    /// budget (Superghost positions are solved on demand).
    public struct Judge: Sendable {
        /// Whether the player to move at a live fragment wins.
        public let wins: @Sendable (String) -> Bool?
        /// The moves that win from a live fragment for the player to move.
        public let winningMoves: @Sendable (String) -> [Move]?

        public init(wins: @escaping @Sendable (String) -> Bool?, winningMoves: @escaping @Sendable (String) -> [Move]?) {
            self.wins = wins
            self.winningMoves = winningMoves
        }

        /// Ghost and bluff and challenge: the solved trie of the language.
        public static func ghost(_ solver: Solver) -> Judge {
            Judge(wins: { solver.isWinning($0) }, winningMoves: { solver.winningLetters($0).map { .letter($0) } })
        }

        /// Superghost: at most `budget` new positions solved in all, over
        /// every question (`budget` is shared: a review holds the loop for
        /// a bounded time, then says "not yet").
        public static func superghost(_ solver: SuperSolver, budget: Budget) -> Judge {
            Judge(wins: { solver.isWinning($0, budget: &budget.left) },
                  winningMoves: { f in
                      let fragment = Array(f.utf8)
                      var moves: [Move] = []
                      for play in SuperSolver.plays {
                          let next = play.applied(to: fragment)
                          guard solver.rules.superVerdict(next) == .alive else { continue }
                          guard let opponentWins = solver.isWinning(String(decoding: next, as: UTF8.self), budget: &budget.left) else {
                              return nil
                          }
                          if !opponentWins { moves.append(play.move) }
                      }
                      return moves
                  })
        }
    }

    /// Positions a Superghost review may still solve (used on one thread at a time).
    public final class Budget: @unchecked Sendable {
        public var left: Int
        public init(_ left: Int) { self.left = left }
    }

    /// Why a round could not be reviewed.
    public enum Failure: Error, Sendable, Equatable {
        /// The moves do not replay as a round of these rules (another
        /// language, a round started over): the round is left out.
        case doesNotReplay
        /// The judge did not know a position within its budget.
        case unknown(fragment: String)
    }

    /// Reviews the moves of one round played from `start` (a new round: the
    /// starter to move, nothing played).
    public static func review<G: GhostVariant>(_ start: G, moves: [SeatMove], judge: Judge) -> Result<[Ply], Failure> {
        var game = start
        var plies: [Ply] = []
        plies.reserveCapacity(moves.count)
        for m in moves {
            guard !game.isOver, m.seat == game.toMove else { return .failure(.doesNotReplay) }
            let before = game
            do { _ = try game.play(m.move, by: m.seat) } catch { return .failure(.doesNotReplay) }
            let couldWin: Bool
            switch value(before, judge) {
            case .success(let v): couldWin = v
            case .failure(let f): return .failure(f)
            }
            let wins: Bool
            switch outcome(after: game, mover: m.seat, judge) {
            case .success(let v): wins = v
            case .failure(let f): return .failure(f)
            }
            var better: [Move] = []
            if couldWin && !wins {
                switch winningMoves(before, judge) {
                case .success(let b): better = b
                case .failure(let f): return .failure(f)
                }
            }
            plies.append(Ply(seat: m.seat, move: m.move, fragment: game.fragment, wins: wins, couldWin: couldWin, better: better))
        }
        return .success(plies)
    }

    /// The round after `moves`, or nil if they do not replay from `start`.
    public static func replay<G: GhostVariant>(_ start: G, moves: [SeatMove]) -> G? {
        var game = start
        for m in moves {
            guard !game.isOver else { return nil }
            do { _ = try game.play(m.move, by: m.seat) } catch { return nil }
        }
        return game
    }

    /// Whether no word of the list properly extends the fragment (what a
    /// challenge claims); false for the empty fragment.
    static func isDead(_ fragment: String, _ rules: GhostRules) -> Bool {
        !fragment.isEmpty && !rules.words.isProperlyExtended(fragment)
    }

    /// What the player to move can force at a position in play: what the
    /// variant's own rules settle, else the judge.
    static func value(_ game: some GhostVariant, _ judge: Judge) -> Result<Bool, Failure> {
        if let v = game.settledValue { return .success(v) }
        guard let w = judge.wins(game.fragment) else { return .failure(.unknown(fragment: game.fragment)) }
        return .success(w)
    }

    /// What the mover is left with after its move: the opposite of what
    /// the opponent, now to move, can force.
    static func outcome(after game: some GhostVariant, mover: Int, _ judge: Judge) -> Result<Bool, Failure> {
        if let o = game.outcome { return .success(o.loser != mover) }
        return value(game, judge).map { !$0 }
    }

    /// The moves that win from a position its mover could win.
    static func winningMoves(_ game: some GhostVariant, _ judge: Judge) -> Result<[Move], Failure> {
        if let moves = game.settledWinningMoves { return .success(moves) }
        guard let moves = judge.winningMoves(game.fragment) else { return .failure(.unknown(fragment: game.fragment)) }
        return .success(moves)
    }

    /// The fields of a `PLY` line: `play=<move> fragment=<f>
    /// outcome=win|loss [better=<m>,<m>…]` (moves as the store writes them:
    /// `p`, `<p` at the front, `challenge`, `word:<w>`, `concede`).
    public static func fields(_ ply: Ply) -> [Field] {
        var fields = [Field("play", ply.move.encoded), Field("fragment", ply.fragment),
                      Field("outcome", ply.wins ? "win" : "loss")]
        if !ply.better.isEmpty { fields.append(Field("better", ply.better.map(\.encoded).joined(separator: ","))) }
        return fields
    }
}
