/// `REVIEW` of a finished game of Ghost, Superghost or bluff and challenge
/// (GhostReview.swift says what each move is worth).
extension GhostKind {
    /// Positions one `REVIEW` of a Superghost game may solve on the server's
    /// thread: twice a computer move's (`SuperSolver.defaultBudget`), 30–60
    /// ms at most. Past it, the positions are solved off the thread and the
    /// review answers "not yet" (`ReviewResult.later`).
    public static let reviewBudget = 2 * SuperSolver.defaultBudget
    /// When to ask again for a review that is being worked out.
    public static let reviewRetrySeconds = 2.0

    /// Reviews the rounds that replay in the game's language and ended by
    /// the rules (or are the game's last): a round started over (`RESTART`,
    /// a language change) is left out. Ghost and bluff and challenge ask the
    /// language's solved trie (in memory since startup): O(moves × 26).
    /// Superghost asks its solver within `reviewBudget`.
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
            return review(request, start: Superghost.self, rules: s.rules, judge: .superghost(s, budget: GhostReview.Budget(GhostKind.reviewBudget)))
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
            case .failure(.unknown(let fragment)):
                solveLater(fragment, language: request.language)
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
}
