// Glicko-2, as Mark Glickman's "Example of the Glicko-2 system" (glicko2.pdf)
// defines it, with lichess's one-game rating periods. Pure: no clocks, no I/O.
//
// Ratings are shown on the Glicko scale (1500 / RD 350 / σ 0.06 to start) and
// computed on the Glicko-2 scale: μ = (r − 1500) / 173.7178, φ = RD / 173.7178.
//
// Fractional rating periods (lichess): every game is a rating period of its
// own, and the pre-period widening of step 6 uses the time since the player's
// last rated game as a fraction t of a rating period: φ* = sqrt(φ² + t·σ'²).
// Three games each 1/3 period apart widen φ as much as one whole period does,
// so they land close to (not exactly on: each game sees the previous one's
// result) the paper's batch update. The caller measures the time; the period
// length is `Glicko2.periodLength` (a parameter, in the caller's time unit).
//
// Odd inputs (NaN, infinity, RD 0, a rating of 10⁹, σ 0) are clamped into
// `Rating.Limits` before and after every update, and both iterations are
// bounded, so every result is finite and every call ends.
// Glibc's exp and log, not Foundation's: ghostd links no Foundation
// (EndToEndConnectionTests), and this core is part of it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A player's rating on the Glicko scale.
public struct Rating: Sendable, Equatable {
    public var rating: Double
    public var deviation: Double
    public var volatility: Double

    public init(rating: Double = 1500, deviation: Double = 350, volatility: Double = 0.06) {
        self.rating = rating
        self.deviation = deviation
        self.volatility = volatility
    }

    /// An unrated player: 1500 / 350 / 0.06.
    public static let initial = Rating()

    /// lichess marks a rating with RD above 110 as provisional ("1500?").
    public var isProvisional: Bool { deviation > 110 }

    /// The documented clamp. RD is capped at 350 (the unrated RD: inactivity
    /// never makes a player less known than a new one); its floor of 30 (the
    /// best-known opponent in Glickman's example) keeps φ away from 0. Ratings
    /// stay within 0...4000, where E(1 − E) is still far above 0, so v is
    /// finite; σ stays within 0.001...1 so ln σ² is finite.
    public enum Limits {
        public static let rating: ClosedRange<Double> = 0...4000
        public static let deviation: ClosedRange<Double> = 30...350
        public static let volatility: ClosedRange<Double> = 0.001...1
    }

    /// The rating with each part clamped into `Limits`; NaN parts
    /// become the unrated player's; ±infinity the nearest limit.
    public var clamped: Rating {
        Rating(rating: clamp(rating, Limits.rating, orElse: 1500),
               deviation: clamp(deviation, Limits.deviation, orElse: 350),
               volatility: clamp(volatility, Limits.volatility, orElse: 0.06))
    }
}

/// One game's result for the player being rated.
public enum Outcome: Sendable {
    case win, draw, loss
    var score: Double {
        switch self {
        case .win: 1
        case .draw: 0.5
        case .loss: 0
        }
    }
}

/// A game in a rating period: the opponent's rating before it, and the result.
public struct Game: Sendable {
    public var opponent: Rating
    public var outcome: Outcome
    public init(_ opponent: Rating, _ outcome: Outcome) {
        self.opponent = opponent
        self.outcome = outcome
    }
}

/// The system: τ (how much volatility may change; 0.3–1.2, 0.5 in the paper)
/// and the rating period's length for fractional periods.
public struct Glicko2: Sendable {
    public var tau: Double
    public var periodLength: Double
    /// Step 5's convergence tolerance.
    public static let epsilon = 0.000001
    /// Step 5 stops after this many Illinois steps even if not converged
    /// (a bound, so that no input can make it loop forever).
    public static let maxIterations = 100
    /// The Glicko-2 scale factor.
    public static let scale = 173.7178

    public init(tau: Double = 0.5, periodLength: Double = 1) {
        self.tau = tau
        self.periodLength = periodLength
    }

    // MARK: Rating periods

    /// The player's rating after one whole rating period with these games
    /// (steps 1–8 of the paper). No games: only RD widens.
    public func rate(_ player: Rating, games: [Game]) -> Rating {
        rate(player, games: games, periods: 1)
    }

    /// lichess's update after one game, `elapsed` (in `periodLength` units of
    /// time) after the player's previous rated game.
    public func rate(_ player: Rating, after game: Game, elapsed: Double) -> Rating {
        rate(player, games: [game], periods: periods(elapsed))
    }

    /// A player who did not play for `elapsed` time: only RD widens.
    public func idle(_ player: Rating, elapsed: Double) -> Rating {
        rate(player, games: [], periods: periods(elapsed))
    }

    /// Elapsed time as a (finite, non-negative) fraction of a rating period.
    func periods(_ elapsed: Double) -> Double {
        clamp(elapsed / periodLength, 0...1_000_000, orElse: 0)
    }

    func rate(_ player: Rating, games: [Game], periods t: Double) -> Rating {
        let p = Scaled(player.clamped)
        guard !games.isEmpty else {
            return p.with(phi: widened(p.phi, p.sigma, t)).rating.clamped
        }
        let opponents = games.map { (Scaled($0.opponent.clamped), $0.outcome.score) }
        let v = variance(p.mu, opponents)
        let sum = improvementSum(p.mu, opponents)
        let sigma = volatility(p, delta: v * sum, v: v)
        let phiStar = widened(p.phi, sigma, t)
        let phi = 1 / (1 / (phiStar * phiStar) + 1 / v).squareRoot()
        return Scaled(mu: p.mu + phi * phi * sum, phi: phi, sigma: sigma).rating.clamped
    }

    // MARK: The paper's quantities (Glicko-2 scale)

    /// g(φ) = 1 / sqrt(1 + 3φ²/π²).
    static func g(_ phi: Double) -> Double {
        1 / (1 + 3 * phi * phi / (Double.pi * Double.pi)).squareRoot()
    }

    /// E(μ, μj, φj): the expected score against opponent j.
    static func expected(_ mu: Double, _ opponent: Scaled) -> Double {
        1 / (1 + exp(-g(opponent.phi) * (mu - opponent.mu)))
    }

    /// Step 3: v, the estimated variance of the rating from the game outcomes.
    func variance(_ mu: Double, _ opponents: [(Scaled, Double)]) -> Double {
        let information = opponents.reduce(0.0) { total, game in
            let (o, _) = game
            let e = Self.expected(mu, o)
            return total + Self.g(o.phi) * Self.g(o.phi) * e * (1 - e)
        }
        return 1 / information
    }

    /// Σ g(φj)(sj − Ej): step 4's Δ is v times this, and step 7 moves μ by φ'² times it.
    func improvementSum(_ mu: Double, _ opponents: [(Scaled, Double)]) -> Double {
        opponents.reduce(0.0) { total, game in
            let (o, score) = game
            return total + Self.g(o.phi) * (score - Self.expected(mu, o))
        }
    }

    /// Step 5: the new volatility σ', the root of f by the Illinois algorithm.
    func volatility(_ p: Scaled, delta: Double, v: Double) -> Double {
        let a = log(p.sigma * p.sigma)
        let f = { (x: Double) -> Double in
            let ex = exp(x), d = p.phi * p.phi + v + ex
            return ex * (delta * delta - p.phi * p.phi - v - ex) / (2 * d * d) - (x - a) / (tau * tau)
        }
        var (lo, hi) = (a, upperBracket(a, f, delta * delta - p.phi * p.phi - v))
        var (fLo, fHi) = (f(lo), f(hi))
        for _ in 0..<Self.maxIterations where abs(hi - lo) > Self.epsilon {
            let c = lo + (lo - hi) * fLo / (fHi - fLo)
            let fC = f(c)
            if fC * fHi <= 0 { (lo, fLo) = (hi, fHi) } else { fLo /= 2 }
            (hi, fHi) = (c, fC)
        }
        return exp(lo / 2)
    }

    /// Step 5.2: the second starting value B, with f(A) and f(B) of opposite signs.
    func upperBracket(_ a: Double, _ f: (Double) -> Double, _ excess: Double) -> Double {
        if excess > 0 { return log(excess) }
        var k = 1.0
        while f(a - k * tau) < 0 && k < Double(Self.maxIterations) { k += 1 }
        return a - k * tau
    }

    /// Step 6 (and a period without games): φ* = sqrt(φ² + t·σ²) for t
    /// periods, capped at RD 350.
    func widened(_ phi: Double, _ sigma: Double, _ t: Double) -> Double {
        min((phi * phi + t * sigma * sigma).squareRoot(), Rating.Limits.deviation.upperBound / Self.scale)
    }
}

/// A rating on the Glicko-2 scale.
struct Scaled {
    var mu, phi, sigma: Double

    init(mu: Double, phi: Double, sigma: Double) {
        (self.mu, self.phi, self.sigma) = (mu, phi, sigma)
    }

    init(_ r: Rating) {
        self.init(mu: (r.rating - 1500) / Glicko2.scale, phi: r.deviation / Glicko2.scale, sigma: r.volatility)
    }

    var rating: Rating {
        Rating(rating: mu * Glicko2.scale + 1500, deviation: phi * Glicko2.scale, volatility: sigma)
    }

    func with(phi: Double) -> Scaled { Scaled(mu: mu, phi: phi, sigma: sigma) }
}

/// x clamped into the range (±infinity to its ends); `orElse` if x is NaN.
func clamp(_ x: Double, _ range: ClosedRange<Double>, orElse fallback: Double) -> Double {
    x.isNaN ? fallback : min(max(x, range.lowerBound), range.upperBound)
}
