import Testing
import GhostCore
import GameKit
import WordLists

/// GhostReview: what each move of a round was worth to its mover,
/// on a list small enough to check by hand: pea, pear, peach, cat, cats, dog,
/// dogs. The first player wins by c or d (three-letter words go on; cats and
/// dogs lose for whoever makes them); p loses (the opponent plays e, and at
/// "pea" c wins: "peac" leaves only "peach").
private let list = WordList(words: ["pea", "pear", "peach", "cat", "cats", "dog", "dogs"])
private let solver = Solver(rules: GhostRules(words: list))

private func moves(_ played: [(Int, Move)]) -> [SeatMove] { played.map { SeatMove(seat: $0.0, move: $0.1) } }
private func l(_ c: Character) -> Move { .letter(Letter(String(c))!) }

@Suite struct GhostReviewTests {
    @Test("Ghost: each letter's outcome under perfect play; a win thrown away is a mistake with its better letters")
    func ghost() throws {
        let played = moves([(0, l("p")), (1, l("e")), (0, l("a")), (1, l("r"))])
        let plies = try GhostReview.review(PlainGhost(rules: solver.rules), moves: played, judge: .ghost(solver)).get()
        #expect(plies.map(\.wins) == [false, true, false, false])
        #expect(plies.map(\.couldWin) == [true, true, false, true])
        #expect(plies.map(\.isMistake) == [true, false, false, true])
        #expect(plies.map(\.better) == [[l("c"), l("d")], [], [], [l("c")]])
        #expect(plies.map(\.fragment) == ["p", "pe", "pea", "pear"])
        #expect(plies.map { GhostReview.fields($0).map(\.description).joined(separator: " ") } == [
            "play=p fragment=p outcome=loss better=c,d", "play=e fragment=pe outcome=win",
            "play=a fragment=pea outcome=loss", "play=r fragment=pear outcome=loss better=c"])
    }

    @Test("Bluff and challenge: a dead fragment loses for its maker, challenging it wins; a live one's challenge loses; answers by the list")
    func challenge() throws {
        let rules = GhostRules(words: list)
        let review = { (played: [(Int, Move)]) throws -> [GhostReview.Ply] in
            try GhostReview.review(ChallengeGhost(rules: rules), moves: moves(played), judge: .ghost(solver)).get()
        }
        // q: dead (a mistake, c or d won); bob plays on (a mistake: the challenge won); alice challenges; bob concedes.
        let dead = try review([(0, l("q")), (1, l("x")), (0, .challenge), (1, .concede)])
        #expect(dead.map(\.wins) == [false, false, true, false])
        #expect(dead.map(\.better) == [[l("c"), l("d")], [.challenge], [], []])
        // c is alive: bob's challenge loses (no mistake: he was lost at "c"); alice answers cat and wins.
        let live = try review([(0, l("c")), (1, .challenge), (0, .word("cat"))])
        #expect(live.map(\.wins) == [true, false, true])
        #expect(live.map(\.isMistake) == [false, false, false])
        // Answering with no word when "cat" was there throws the win away.
        let bluffed = try review([(0, l("c")), (1, .challenge), (0, .word("cqzx"))])
        #expect(bluffed.map(\.wins) == [true, false, false])
        #expect(bluffed[2].better == [.word("cat")])
        #expect(GhostReview.fields(bluffed[2]).map(\.description) == ["play=word:cqzx", "fragment=c", "outcome=loss", "better=word:cat"])
    }

    @Test("Superghost: letters at either end; better plays are written <c at the front")
    func superghost() throws {
        let words = WordList(words: ["abcd", "xbcy"])
        let s = SuperSolver(rules: GhostRules(words: words, infixes: Infixes(words: words)))
        // b, c at the back, a at the front: "abc", one letter from "abcd" (which would lose for its maker).
        let played = moves([(0, .letter(Letter("b")!)), (1, .letter(Letter("c")!)), (0, .front(Letter("a")!))])
        let plies = try GhostReview.review(Superghost(rules: s.rules), moves: played, judge: .superghost(s, budget: GhostReview.Budget(10_000))).get()
        for (i, p) in plies.enumerated() {
            // The outcome is the opponent's loss at the fragment made, as the solver has it.
            #expect(p.wins == (s.rules.superVerdict(Array(p.fragment.utf8)) == .alive && !s.isWinning(p.fragment)), "ply \(i + 1)")
            if p.isMistake { #expect(p.better == s.winningPlays(i == 0 ? "" : plies[i - 1].fragment).map(\.move)) }
        }
        #expect(plies.map(\.fragment) == ["b", "bc", "abc"])
        #expect(GhostReview.fields(plies[2]).first == Field("play", "<a"))
    }

    @Test("A round whose moves do not replay is left out; a Superghost judge out of budget says which position it needs")
    func failures() {
        let outOfTurn = moves([(0, l("c")), (0, l("a"))])
        #expect(GhostReview.review(PlainGhost(rules: solver.rules), moves: outOfTurn, judge: .ghost(solver)) == .failure(.doesNotReplay))
        let words = WordList(words: ["abcd", "xbcy"])
        let s = SuperSolver(rules: GhostRules(words: words, infixes: Infixes(words: words)))
        let played = moves([(0, .letter(Letter("b")!))])
        #expect(GhostReview.review(Superghost(rules: s.rules), moves: played, judge: .superghost(s, budget: GhostReview.Budget(0)))
                == .failure(.unknown(fragment: "")))
    }

    @Test("GhostKind.review: rounds restarted (not the last, not over) are left out; a match's first mistake names its round")
    func kindReview() {
        let kind = GhostKind(dictionaries: Dictionaries(lists: ["en": list]))
        let pear = moves([(0, l("p")), (1, l("e")), (0, l("a")), (1, l("r"))])
        let restarted = moves([(1, l("c"))])
        let last = moves([(0, l("d"))])
        let request = ReviewRequest(language: "en", variant: "", settings: "", rounds: [
            ReviewRound(round: 1, seed: 0, moves: restarted, isLast: false),
            ReviewRound(round: 2, seed: 0, moves: pear, isLast: false),
            ReviewRound(round: 3, seed: 0, moves: last, isLast: true),
        ], isMatch: true)
        guard case let .reviewed(plies, fields) = kind.review(request) else {
            Issue.record("no review")
            return
        }
        #expect(plies.map { "\($0.round).\($0.ply)" } == ["2.1", "2.2", "2.3", "2.4", "3.1"])
        #expect(fields == [Field("mistake", "1"), Field("round", "2")])
        #expect(kind.review(ReviewRequest(language: "xx", variant: "", settings: "", rounds: [])) == .unavailable("no word list for xx"))
    }

    @Test("GhostKind.review of Superghost before its solver is built: not yet (the build starts off the caller's thread), then the review")
    func superghostLater() async throws {
        let words = WordList(words: ["abcd", "xbcy"])
        let kind = GhostKind(dictionaries: Dictionaries(lists: ["en": words]))
        let request = ReviewRequest(language: "en", variant: "super", settings: "", rounds: [
            ReviewRound(round: 1, seed: 0, moves: moves([(0, l("b")), (1, l("c"))]), isLast: true),
        ])
        #expect(kind.review(request) == .later(seconds: GhostKind.reviewRetrySeconds))
        // The build and the opening's solve go on in the background; ask again until it is ready (no timing asserted).
        var result = kind.review(request)
        for _ in 0..<600 where result == .later(seconds: GhostKind.reviewRetrySeconds) {
            try await Task.sleep(nanoseconds: 50_000_000)
            result = kind.review(request)
        }
        guard case let .reviewed(plies, _) = result else {
            Issue.record("no review: \(result)")
            return
        }
        #expect(plies.map(\.ply) == [1, 2])
    }
}
