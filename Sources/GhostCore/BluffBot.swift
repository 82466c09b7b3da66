import GameKit
import WordLists
import GhostWire
/// The computer in bluff and challenge (`variant=challenge`).
///
/// Why Hard never bluffs. A bluff is a letter that makes a dead fragment (no
/// word properly extends it). Against a perfect opponent, who challenges
/// exactly the dead fragments, a bluff always loses: the challenge comes at
/// once, and no word answers it. And challenging a live fragment always
/// loses (a word answers it). So under perfect play nobody bluffs and nobody
/// challenges a live fragment: a dead letter is worth what Ghost's rule 2
/// makes it (a loss), and the game's value at every live fragment is plain
/// Ghost's. Hard therefore plays Ghost's perfect solver (`Bot.best`),
/// challenges exactly the dead fragments, and answers a challenge with a
/// real word. `BluffTests.bluffingNeverPaysAgainstThePerfectChallenger`
/// checks this on the English list, and against brute force on small lists.
///
/// Medium challenges every dead fragment; when its position is lost under
/// perfect play it bluffs (a random dead letter) with probability
/// `mediumBluff`, else plays like Medium in Ghost. Easy plays like Easy in
/// Ghost (a letter that neither makes a long word nor a dead fragment, when
/// there is one), challenges a dead fragment with probability
/// `easyChallenge`, and concedes a challenge it has no word for.
public struct BluffBot: Sendable {
    /// How often Medium bluffs from a lost position.
    public static let mediumBluff = 0.5
    /// How often Easy challenges a dead fragment.
    public static let easyChallenge = 0.5

    public let level: BotLevel
    /// Plain Ghost's solved game of the same word list.
    public let solver: Solver

    public init(level: BotLevel, solver: Solver) {
        self.level = level
        self.solver = solver
    }

    /// The move for the seat to move in `game`: a letter, a challenge, or
    /// the answer to one.
    public func choose(in game: ChallengeGhost, using rng: inout some RandomNumberGenerator) -> Move {
        if game.isChallenged {
            // Every level names a word when there is one; none: concede.
            return game.continuation.map { .word($0) } ?? .concede
        }
        if game.isDeadFragment {
            // (Past the longest fragment a letter is refused: challenge.)
            let challenges = level != .easy || game.fragment.utf8.count >= ChallengeGhost.maxFragment
                || Double.random(in: 0..<1, using: &rng) < BluffBot.easyChallenge
            if challenges { return .challenge }
            // Nothing is alive any more: any letter keeps the bluff going.
            return .letter(Letter.all.randomElement(using: &rng) ?? Letter.all[0])
        }
        let length = game.fragment.utf8.count
        let moves = solver.moves(node: game.node, length: length)
        switch level {
        case .easy:
            return .letter(Bot.safe(moves, &rng))
        case .hard:
            return .letter(BluffBot.honest(moves, game: game, &rng))
        case .medium:
            let lost = !moves.contains { $0.kind == .winning }
            let bluffs = deadLetters(game)
            if lost, !bluffs.isEmpty, Double.random(in: 0..<1, using: &rng) < BluffBot.mediumBluff,
               let bluff = bluffs.randomElement(using: &rng) {
                return .letter(bluff)
            }
            return Double.random(in: 0..<1, using: &rng) < Bot.mediumSkill
                ? .letter(BluffBot.honest(moves, game: game, &rng)) : .letter(Bot.safe(moves, &rng))
        }
    }

    public func choose(in game: ChallengeGhost) -> Move {
        var rng = SystemRandomNumberGenerator()
        return choose(in: game, using: &rng)
    }

    /// The letters that make a dead fragment from a live one (bluffs).
    public func deadLetters(_ game: ChallengeGhost) -> [Letter] {
        guard !game.isDeadFragment, game.node >= 0 else { return [] }
        let length = game.fragment.utf8.count + 1
        return Letter.all.filter { l in
            guard let child = solver.rules.words.child(game.node, l.index) else { return true }
            return solver.rules.verdict(node: child, length: length) == .dead
        }
    }

    /// Ghost's perfect play (`Bot.best`), except that when every letter ends
    /// the game in Ghost it prefers one that makes a word (an honest loss)
    /// to a bluff; only when every letter makes a dead fragment does it
    /// bluff, as it must play something and a challenge of a live fragment
    /// loses too.
    static func honest(_ moves: [Solver.Move], game: ChallengeGhost, _ rng: inout some RandomNumberGenerator) -> Letter {
        guard !moves.contains(where: { $0.kind != .losesAtOnce }) else { return Bot.best(moves, &rng) }
        let words = game.rules.words
        let length = game.fragment.utf8.count + 1
        let honest = moves.filter { m in
            words.child(game.node, m.letter.index).map { game.rules.verdict(node: $0, length: length) == .word } ?? false
        }
        return (honest.isEmpty ? moves : honest).randomElement(using: &rng)?.letter ?? Letter.all[0]
    }

    /// The hint of the bluff variant, when it is not Ghost's: the word that
    /// answers a challenge (or that there is none), or a challenge of a dead
    /// fragment. Nil when Ghost's hint (a letter) applies.
    public static func hint(for game: ChallengeGhost) -> Hint? {
        if game.isChallenged {
            guard let word = game.continuation else {
                return Hint(winning: false, move: .concede,
                            fields: [Field(GhostWire.Key.winning, "no"), Field(GhostWire.Key.concede, GhostWire.yes)],
                            text: "No word starts with \"\(game.fragment)\": you can only CONCEDE.")
            }
            return Hint(winning: true, move: .word(word),
                        fields: [Field(GhostWire.Key.winning, GhostWire.yes), Field(GhostWire.Key.word, word)],
                        text: "Answer WORD \(word): it starts with \"\(game.fragment)\".")
        }
        guard game.isDeadFragment else { return nil }
        return Hint(winning: true, move: .challenge,
                    fields: [Field(GhostWire.Key.winning, GhostWire.yes), Field(GhostWire.Key.challenge, GhostWire.yes)],
                    text: "No word starts with \"\(game.fragment)\": CHALLENGE, and you win.")
    }
}
