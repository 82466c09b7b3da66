import Foundation
import Testing
@testable import Ratings

/// Glickman's worked example ("Example of the Glicko-2 system", glicko2.pdf):
/// τ = 0.5, a 1500 / 200 / 0.06 player beats 1400/30, loses to 1550/100 and 1700/300.
let player = Rating(rating: 1500, deviation: 200, volatility: 0.06)
let games = [Game(Rating(rating: 1400, deviation: 30), .win),
             Game(Rating(rating: 1550, deviation: 100), .loss),
             Game(Rating(rating: 1700, deviation: 300), .loss)]
let system = Glicko2(tau: 0.5)

func rounded(_ x: Double, _ places: Int) -> Double {
    let f = pow(10, Double(places))
    return (x * f).rounded() / f
}

func truncated(_ x: Double, _ places: Int) -> Double {
    let f = pow(10, Double(places))
    return (x * f).rounded(.towardZero) / f
}

@Suite struct Glicko2Tests {
    /// The paper prints 1464.06 / 151.52 / 0.05999. It carries rounded
    /// intermediates (μ' = −0.2069, φ' = 0.8722) to its last step; computed
    /// without rounding, r' is 1464.0507 (1464.05 to two places), RD' 151.5165,
    /// σ' 0.0599960 (printed truncated). Both are asserted: the full-precision
    /// values, and the paper's digits from the paper's own rounding.
    @Test func glickmansExampleEndsWhereThePaperDoes() {
        let r = system.rate(player, games: games)
        #expect(abs(r.rating - 1464.05067) < 0.00001)
        #expect(abs(r.deviation - 151.51652) < 0.00001)
        #expect(abs(r.volatility - 0.0599960) < 0.0000001)
        let scaled = Scaled(r)
        #expect(rounded(rounded(scaled.mu, 4) * Glicko2.scale + 1500, 2) == 1464.06)
        #expect(rounded(rounded(scaled.phi, 4) * Glicko2.scale, 2) == 151.52)
        #expect(rounded(r.deviation, 2) == 151.52)
        #expect(truncated(r.volatility, 5) == 0.05999)
    }

    /// The intermediate values the paper prints. It rounds g and E to four and
    /// three places and carries them on, so v and Δ agree to about 0.0005
    /// (1.77898 and −0.48393 unrounded); the rest to its printed digits.
    @Test func glickmansIntermediateValues() {
        let p = Scaled(player)
        let opponents = games.map { (Scaled($0.opponent), $0.outcome.score) }
        #expect(rounded(p.phi, 4) == 1.1513)
        #expect(opponents.map { rounded($0.0.mu, 4) } == [-0.5756, 0.2878, 1.1513])
        #expect(opponents.map { rounded($0.0.phi, 4) } == [0.1727, 0.5756, 1.7269])
        #expect(opponents.map { rounded(Glicko2.g($0.0.phi), 4) } == [0.9955, 0.9531, 0.7242])
        #expect(opponents.map { rounded(Glicko2.expected(p.mu, $0.0), 3) } == [0.639, 0.432, 0.303])
        let v = system.variance(p.mu, opponents)
        let delta = v * system.improvementSum(p.mu, opponents)
        #expect(abs(v - 1.7785) < 0.0006)
        #expect(abs(delta - -0.4834) < 0.0006)
        #expect(rounded(log(0.06 * 0.06), 5) == -5.62682)
        let sigma = system.volatility(p, delta: delta, v: v)
        #expect(truncated(sigma, 5) == 0.05999)
        let phiStar = system.widened(p.phi, sigma, 1)
        #expect(abs(phiStar - 1.152862) < 0.00001)
        let r = Scaled(system.rate(player, games: games))
        #expect(rounded(r.phi, 4) == 0.8722)
        #expect(rounded(r.mu, 4) == -0.2069)
    }

    /// Without step 5 σ would stay 0.06; with τ small the volatility barely
    /// moves, with τ large it moves more (the paper: τ constrains the change).
    @Test func tauConstrainsTheVolatilityChange() {
        let upset = [Game(Rating(rating: 2200, deviation: 50), .win)]
        let calm = Glicko2(tau: 0.3).rate(player, games: upset).volatility
        let wild = Glicko2(tau: 1.2).rate(player, games: upset).volatility
        #expect(calm > 0.06 && wild > calm)
    }

    /// A period without games: rating and σ unchanged, φ' = sqrt(φ² + σ²).
    @Test func noGamesOnlyWidensTheDeviation() {
        let r = system.rate(player, games: [])
        #expect(r.rating == 1500 && r.volatility == 0.06)
        #expect(abs(r.deviation - 200.271417) < 0.000001)
        let half = system.idle(player, elapsed: 0.5)
        #expect(abs(half.deviation - (200 * 200 + 0.5 * pow(0.06 * Glicko2.scale, 2)).squareRoot()) < 1e-9)
        #expect(system.idle(player, elapsed: 0) == player)
    }

    /// RD never passes 350, however long the player is away.
    @Test func deviationIsCappedAt350() {
        #expect(system.idle(player, elapsed: 1_000_000).deviation == 350)
        #expect(system.idle(.initial, elapsed: 1).deviation == 350)
        #expect(system.rate(.initial, games: games).deviation < 350)
        // Also before a game: an unrated player away for a period plays as one just rated.
        let game = Game(Rating(rating: 1600, deviation: 80), .win)
        #expect(system.rate(.initial, after: game, elapsed: 1) == system.rate(.initial, after: game, elapsed: 0))
    }

    @Test func provisionalMeansDeviationAbove110() {
        #expect(Rating.initial.isProvisional)
        #expect(!Rating(deviation: 110).isProvisional)
        #expect(Rating(deviation: 110.01).isProvisional)
        #expect(Rating.initial == Rating(rating: 1500, deviation: 350, volatility: 0.06))
    }

    /// lichess: one game at a time, each widening φ by the elapsed fraction of a
    /// period. The example's three games a third of a period apart end at
    /// 1464.0753 / 151.4607 / 0.059998 against the batch's 1464.0507 / 151.5165 /
    /// 0.059996 (each game sees the previous one's result, so they differ):
    /// asserted within 0.1 rating and RD points and 0.00001 of σ.
    @Test func oneGameAtATimeReachesTheBatchResult() {
        let stepwise = Glicko2(tau: 0.5, periodLength: 3600)
        let sequential = games.reduce(player) { stepwise.rate($0, after: $1, elapsed: 1200) }
        let batch = system.rate(player, games: games)
        #expect(abs(sequential.rating - batch.rating) < 0.1)
        #expect(abs(sequential.deviation - batch.deviation) < 0.1)
        #expect(abs(sequential.volatility - batch.volatility) < 0.00001)
        #expect(abs(sequential.rating - 1464.0753) < 0.0001)
        #expect(abs(sequential.deviation - 151.4607) < 0.0001)
    }

    /// The elapsed time widens RD before the game is counted: the longer away,
    /// the larger the RD afterwards and the larger the rating change.
    @Test func elapsedTimeWidensBeforeTheGame() {
        let stepwise = Glicko2(tau: 0.5, periodLength: 10)
        let win = Game(Rating(rating: 1500, deviation: 60), .win)
        let soon = stepwise.rate(player, after: win, elapsed: 0)
        let late = stepwise.rate(player, after: win, elapsed: 100)
        #expect(late.deviation > soon.deviation)
        #expect(late.rating > soon.rating && soon.rating > 1500)
    }

    /// Random games (seeded): the winner's rating rises and the loser's falls,
    /// RD shrinks with play, and between equally rated players a win moves the
    /// rating less when the opponent's RD is larger. (Not for every pair: an
    /// expected loss to a far stronger, uncertain opponent costs more: 1500/350
    /// losing to 2200/300 loses 23.7 points, to 2200/50 11.9, as E is nearer ½.)
    @Test func randomGamesMoveRatingsTheRightWay() {
        var random = SplitMix64(seed: 28)
        func rating(_ r: ClosedRange<Double>) -> Rating {
            Rating(rating: Double.random(in: r, using: &random),
                   deviation: Double.random(in: 31...350, using: &random),
                   volatility: Double.random(in: 0.04...0.08, using: &random))
        }
        for _ in 0..<1000 {
            let a = rating(800...2200), b = rating(800...2200)
            let won = system.rate(a, after: Game(b, .win), elapsed: 0)
            let lost = system.rate(a, after: Game(b, .loss), elapsed: 0)
            #expect(won.rating > a.rating && lost.rating < a.rating)
            #expect(won.deviation < a.deviation && lost.deviation < a.deviation)
            let sure = Rating(rating: a.rating, deviation: 50, volatility: b.volatility)
            let unsure = Rating(rating: a.rating, deviation: 300, volatility: b.volatility)
            let gainSure = system.rate(a, after: Game(sure, .win), elapsed: 0).rating - a.rating
            let gainUnsure = system.rate(a, after: Game(unsure, .win), elapsed: 0).rating - a.rating
            #expect(gainUnsure < gainSure)
        }
    }

    /// NaN, infinities, RD 0, σ 0, ratings far apart, a zero period length:
    /// every part of every result is finite and within the limits.
    @Test func oddInputsStayFinite() {
        let odd = [Rating(rating: .nan, deviation: .nan, volatility: .nan),
                   Rating(rating: .infinity, deviation: .infinity, volatility: .infinity),
                   Rating(rating: -.infinity, deviation: 0, volatility: 0),
                   Rating(rating: 1e9, deviation: -5, volatility: -1),
                   Rating(rating: -1e9, deviation: 1e-300, volatility: 1e300),
                   Rating(rating: 4000, deviation: 30, volatility: 1),
                   Rating(rating: 0, deviation: 30, volatility: 0.001),
                   .initial]
        let systems = [system, Glicko2(tau: 0.3, periodLength: 0), Glicko2(tau: 1.2, periodLength: -1)]
        for s in systems {
            for a in odd {
                for b in odd {
                    for outcome in [Outcome.win, .draw, .loss] {
                        for elapsed in [0, 1, .nan, .infinity, -.infinity] as [Double] {
                            expectSane(s.rate(a, after: Game(b, outcome), elapsed: elapsed))
                        }
                        expectSane(s.rate(a, games: [Game(b, outcome), Game(a, outcome)]))
                    }
                }
                expectSane(s.idle(a, elapsed: .infinity))
            }
        }
    }

    func expectSane(_ r: Rating) {
        #expect(Rating.Limits.rating.contains(r.rating))
        #expect(Rating.Limits.deviation.contains(r.deviation))
        #expect(Rating.Limits.volatility.contains(r.volatility))
    }
}

/// A small seeded generator, so the random games are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
