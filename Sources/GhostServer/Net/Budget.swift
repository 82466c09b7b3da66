import GameKit
import GhostProtocol

/// Penalty flood control, as IRC daemons do it (ircd-hybrid's and ratbox's
/// "fake lag", InspIRCd's penalty): each client has a clock that every line
/// it sends pushes forward by the line's cost; while that clock runs more
/// than its allowance ahead of now, its further input is not read, until
/// real time catches up. Nothing is refused and nothing is lost: a client
/// over its budget is slowed, and only one that stays over it (keeps
/// sending faster than its budget for `floodSeconds`) is closed.
///
/// Costs are in units (see `CommandSpec.cost`): PING and a blank line 1, a
/// command that reads the database more, and a command that takes longer in
/// the loop than its fixed cost pays for its time instead (one unit per
/// `unitSeconds`), so that expensive work weighs what it costs without
/// each game kind having to say so.
struct PenaltyClock {
    /// The time the client's spending has reached (monotonic seconds).
    var at: Double = 0

    /// How far the clock runs ahead of now.
    func lead(_ now: Double) -> Double { max(0, at - now) }

    mutating func charge(_ seconds: Double, now: Double) {
        at = max(at, now) + seconds
    }
}

/// A budget: `perSecond` units a second on average, `burst` at once.
struct BudgetRule: Equatable {
    let perSecond: Double
    let burst: Double

    var isLimited: Bool { perSecond > 0 }

    /// Seconds of penalty for `units`.
    func seconds(_ units: Double) -> Double { isLimited ? units / perSecond : 0 }

    /// How far ahead a clock may be and still take one more line: a client
    /// with a clock at now may spend `burst` units at once, then one more
    /// unit each `1 / perSecond` s, as with a token bucket.
    var allowance: Double { isLimited ? (max(1, burst) - 1) / perSecond : .infinity }

    /// Whether a client with this clock may have its next line served now.
    func admits(_ clock: PenaltyClock, now: Double) -> Bool {
        // (A little slack: ten lines of 0.1 s make 1.0000000000000002 s.)
        !isLimited || clock.lead(now) <= allowance + 1e-9
    }

    /// When a clock over its allowance is within it again.
    func catchesUp(_ clock: PenaltyClock) -> Double { clock.at - allowance }
}

/// The budgets of every connection and of every network: who may be served
/// now, what each line cost. Pure: times and costs come from the caller,
/// so tests drive it with their own clock.
struct Budgets {
    let connection: BudgetRule
    let network: BudgetRule
    /// Loop time worth one unit.
    let unitSeconds: Double
    /// Each network's clock; dropped once it has caught up (`prune`).
    private(set) var networks: [String: PenaltyClock] = [:]

    init(connection: BudgetRule, network: BudgetRule, unitSeconds: Double) {
        self.connection = connection
        self.network = network
        self.unitSeconds = unitSeconds
    }

    /// What a line costs: its fixed cost, or the loop time it took if that
    /// is more (`elapsed` seconds in whole units, rounded down: the clock is
    /// the wall's, so a command the scheduler interrupted for a moment does
    /// not cost its sender a unit more).
    func cost(fixed: Int, elapsed: Double) -> Double {
        let timed = unitSeconds > 0 && elapsed > 0 ? (elapsed / unitSeconds).rounded(.down) : 0
        return max(Double(fixed), timed)
    }

    enum Verdict: Equatable {
        /// Serve the next line.
        case serve
        /// The connection is over its own budget: wait until `until`.
        case slowConnection(until: Double)
        /// Its network is over the network's budget: wait until `until`.
        case pauseNetwork(until: Double)
    }

    /// May the next line of a connection with clock `own`, from `network`, be served at `now`?
    func verdict(own: PenaltyClock, network key: String, now: Double) -> Verdict {
        if !connection.admits(own, now: now) { return .slowConnection(until: connection.catchesUp(own)) }
        if network.isLimited, let clock = networks[key], !network.admits(clock, now: now) {
            return .pauseNetwork(until: network.catchesUp(clock))
        }
        return .serve
    }

    /// Charges `units` to a connection's clock and to its network's.
    mutating func charge(_ units: Double, own: inout PenaltyClock, network key: String, now: Double) {
        own.charge(connection.seconds(units), now: now)
        if network.isLimited { networks[key, default: PenaltyClock()].charge(network.seconds(units), now: now) }
    }

    /// How far the network's clock runs ahead of now: what it spent lately
    /// (0 for a network that has caught up, and without a network budget).
    func lead(ofNetwork key: String, now: Double) -> Double {
        networks[key]?.lead(now) ?? 0
    }

    /// Forgets the networks whose clocks have caught up (about once a second).
    mutating func prune(now: Double) {
        networks = networks.filter { $0.value.at > now }
    }
}

/// Runs one framed line through the lobby and says what it cost: the line's
/// fixed cost from the command table, or the time it took measured on an
/// injectable clock (tests give their own, so a slow command is
/// deterministic), whichever is more.
struct LineMeter {
    /// A monotonic clock, in seconds; nil: the system's, read directly
    /// (not through a closure: an indirect call for each reading, two a line).
    let clock: (() -> Double)?

    init(clock: (() -> Double)? = nil) {
        self.clock = clock
    }

    @inline(__always)
    private func now() -> Double {
        if let clock { return clock() }
        return monotonicSeconds()
    }

    /// The fixed cost of a frame: its verb's, a blank line's, an over-long line's.
    static func fixedCost(_ frame: LineFramer.Frame) -> Int { facts(frame).cost }

    /// What the loop reads from a frame before serving it: its fixed cost,
    /// and whether its replies reveal nothing a commit changed (an over-long
    /// line's reply is an `ERR`).
    static func facts(_ frame: LineFramer.Frame) -> ServerCommands.LineFacts {
        switch frame {
        case .tooLong: return ServerCommands.LineFacts(cost: CommandTable.tooLongCost, revealsNothing: true)
        case .line(let bytes): return ServerCommands.facts(ofLine: bytes)
        }
    }

    /// Runs `serve` for the frame; returns its cost in units. A line during
    /// which the loop waited for a kind's one-off work (`OneOffWork`: the
    /// first Superghost game of a language waits for its index) pays its
    /// fixed cost only: the wait is not its sender's doing.
    func run(_ frame: LineFramer.Frame, budgets: Budgets, _ serve: () -> Void) -> Double {
        run(fixed: LineMeter.fixedCost(frame), budgets: budgets, serve)
    }

    /// Runs `serve` for a line of fixed cost `fixed` (`facts`); returns its cost in units.
    func run(fixed: Int, budgets: Budgets, _ serve: () -> Void) -> Double {
        let waits = OneOffWork.waits
        let started = now()
        serve()
        guard OneOffWork.waits == waits else { return budgets.cost(fixed: fixed, elapsed: 0) }
        return budgets.cost(fixed: fixed, elapsed: now() - started)
    }
}
