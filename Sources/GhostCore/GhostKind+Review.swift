import GameKit
import WordLists
import GhostWire
/// `REVIEW` of a finished game of Ghost, Superghost or bluff and challenge
/// (GhostReview.swift says what each move is worth).
extension GhostKind {
    /// Positions one `REVIEW` of a Superghost game may solve on the server's
    /// thread: twice a computer move's (`loopBudget`), 8–15 ms, as far as
    /// `loopAllowance` allows, and none when the loop already tried the
    /// position it lacks since that was queued. Past it, the position is
    /// solved off the thread and the review answers "not yet"
    /// (`ReviewResult.later`).
    public static let reviewBudget = 2 * GhostKind.loopBudget
    /// When to ask again for a review that is being worked out.
    public static let reviewRetrySeconds = 2.0

    /// Reviews the rounds that replay in the game's language and ended by
    /// the rules (or are the game's last): a round started over (`RESTART`,
    /// a language change) is left out. Ghost and bluff and challenge ask the
    /// language's solved trie (in memory since startup): O(moves × 26).
    /// Superghost reads what its solver has settled, without waiting for its
    /// locks; then, unless the loop already spent its budget on the first
    /// position it lacks since that was queued, solves at most
    /// `reviewBudget` new positions; then queues the one it still lacks (if
    /// any) and answers `.later`.
    public func review(_ request: ReviewRequest) -> ReviewResult {
        guard let words = dictionaries[request.language], let solver = solvers[request.language] else {
            return .unavailable("no word list for \(request.language)")
        }
        switch request.variant {
        case "":
            return review(request, start: PlainGhost.self, rules: solver.rules, judge: .ghost(solver))
        case GhostKind.challengeVariant:
            return review(request, start: ChallengeGhost.self, rules: GhostRules(words: words, language: request.language), judge: .ghost(solver))
        case GhostKind.superVariant:
            guard let s = readySuperSolver(language: request.language) else {
                return .later(seconds: GhostKind.reviewRetrySeconds)
            }
            // What is settled, read without waiting; then, unless the loop spent
            // its budget on the position it lacks since it was queued, at most
            // `reviewBudget` new ones here.
            var (result, lacking) = superReview(request, s, budget: 0)
            if case .later = result, let f = lacking, solving.wasTried(GhostKind.solveKey(f, language: request.language, goal: .value)) == false {
                let granted = loopAllowance.take(GhostKind.reviewBudget)
                if granted > 0 { (result, lacking) = superReview(request, s, budget: granted) }
            }
            if case .later = result, let f = lacking { solveLater(f, language: request.language, goal: .value, solver: s, tried: true) }
            return result
        default:
            return .unavailable("no review of variant \(request.variant)")
        }
    }

    private func review<G: GhostVariant>(_ request: ReviewRequest, start _: G.Type, rules: GhostRules, judge: GhostReview.Judge) -> ReviewResult {
        var plies: [ReviewedPly] = []
        var mistake: (round: Int, ply: Int)?
        for round in request.rounds {
            guard let starter = round.moves.first?.seat else { continue }
            let start = G(rules: rules, firstToMove: starter)
            guard let end = GhostReview.replay(start, moves: round.moves), round.isLast || end.isOver else { continue }
            switch GhostReview.review(start, moves: round.moves, judge: judge) {
            case .failure(.doesNotReplay):
                continue
            case .failure(.unknown):
                // Superghost: the session knows which position it lacked; the caller has it solved.
                return .later(seconds: GhostKind.reviewRetrySeconds)
            case .success(let reviewed):
                for (i, ply) in reviewed.enumerated() {
                    if mistake == nil, ply.isMistake { mistake = (round.round, i + 1) }
                    plies.append(ReviewedPly(round: round.round, ply: i + 1, seat: ply.seat, fields: GhostReview.fields(ply)))
                }
            }
        }
        var fields = [Field("mistake", mistake.map { String($0.ply) } ?? "none")]
        if request.isMatch, let mistake { fields.append(Field("round", String(mistake.round))) }
        return .reviewed(plies: plies, fields: fields)
    }

    /// A Superghost review within `budget` new positions, on the loop (never
    /// waiting for the solver's locks), and the position it lacked if any.
    private func superReview(_ request: ReviewRequest, _ solver: SuperSolver, budget: Int) -> (ReviewResult, String?) {
        solver.withSession(budget: budget, waits: false) { session in
            let result = review(request, start: Superghost.self, rules: solver.rules, judge: GhostKind.judge(session))
            loopAllowance.giveBack(session.budget)
            return (result, session.unknown.map { String(decoding: $0, as: UTF8.self) })
        }
    }

    /// Superghost's judge over one session: what it cannot settle, it
    /// records (`Session.unknown`: a position, or the play whose value a
    /// mistake's better moves lacked).
    private static func judge(_ session: SuperSolver.Session) -> GhostReview.Judge {
        GhostReview.Judge(wins: { session.wins(Array($0.utf8)) },
                          winningMoves: { f in
                              let fragment = Array(f.utf8)
                              var moves: [Move] = []
                              for play in SuperSolver.plays {
                                  let next = play.applied(to: fragment)
                                  guard session.solver.rules.superVerdict(next) == .alive else { continue }
                                  guard let opponentWins = session.wins(next) else { return nil }
                                  if !opponentWins { moves.append(play.move) }
                              }
                              return moves
                          })
    }
}
