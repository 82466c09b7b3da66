import Testing
import GhostProtocol
@testable import GhostServer

/// The pure parts of the per-network limits and the cost-weighted budget
/// (Net/NetworkKey.swift, Net/Budget.swift): addresses and times are given,
/// nothing is timed.
@Suite("Budgets: network keys, penalty clocks, line costs")
struct BudgetTests {
    // MARK: Network keys

    @Test("IPv4 is its own address; IPv6 its /64; IPv4-mapped IPv6 its IPv4 address")
    func networkKeys() {
        #expect(NetworkKey.of("1.2.3.4") == "1.2.3.4")
        #expect(NetworkKey.of("127.0.0.2") == "127.0.0.2")
        #expect(NetworkKey.of("127.0.0.3") != NetworkKey.of("127.0.0.2"))
        #expect(NetworkKey.of("::ffff:1.2.3.4") == "1.2.3.4")
        #expect(NetworkKey.of("::FFFF:10.0.0.1") == "10.0.0.1")
        #expect(NetworkKey.of("2001:db8:1:2:a:b:c:d") == "2001:db8:1:2::/64")
        #expect(NetworkKey.of("2001:0db8:0001:0002:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64")
        #expect(NetworkKey.of("2001:db8:1:2::") == "2001:db8:1:2::/64")
        // The /64 boundary: the 4th group is in the key, the 5th is not.
        #expect(NetworkKey.of("2001:db8:1:3::1") == "2001:db8:1:3::/64")
        #expect(NetworkKey.of("2001:db8:1:2:8000::1") == NetworkKey.of("2001:db8:1:2:7fff::1"))
        #expect(NetworkKey.of("2001:db8:1:2::1") != NetworkKey.of("2001:db8:1:3::1"))
        #expect(NetworkKey.of("::1") == "::/64")
        #expect(NetworkKey.of("fe80::1") == "fe80::/64")
        // Not an address: its own key.
        #expect(NetworkKey.of("unknown") == "unknown")
        #expect(NetworkKey.of("") == "")
    }

    @Test("A peer's text gives its address, then its network")
    func peerAddress() {
        #expect(Connection.address(of: "1.2.3.4:5678") == "1.2.3.4")
        #expect(Connection.address(of: "[2001:db8::1]:7777") == "2001:db8::1")
        #expect(NetworkKey.of(Connection.address(of: "[::ffff:192.168.1.9]:40000")) == "192.168.1.9")
    }

    // MARK: Penalty clocks

    static func budgets(_ rate: Double = 5, _ burst: Double = 10, ipRate: Double = 0, ipBurst: Double = 1) -> Budgets {
        Budgets(connection: BudgetRule(perSecond: rate, burst: burst),
                network: BudgetRule(perSecond: ipRate, burst: ipBurst), unitSeconds: 0.001)
    }

    @Test("A connection spends its burst at once, then waits; it may go on when its clock has caught up")
    func burstThenWait() {
        var b = Self.budgets()
        var clock = PenaltyClock()
        let now = 100.0
        var served = 0
        while b.verdict(own: clock, network: "n", now: now) == .serve && served < 100 {
            b.charge(1, own: &clock, network: "n", now: now)
            served += 1
        }
        #expect(served == 10)
        guard case .slowConnection(let until) = b.verdict(own: clock, network: "n", now: now) else {
            Issue.record("not slowed: \(b.verdict(own: clock, network: "n", now: now))")
            return
        }
        // One unit at 5 a second: 0.2 s later there is room for one more line.
        #expect(abs(until - (now + 0.2)) < 0.001)
        #expect(b.verdict(own: clock, network: "n", now: until) == .serve)
        #expect(b.verdict(own: clock, network: "n", now: now + 0.1) != .serve)
    }

    @Test("Every line counts: costs add up by their units (a 4-unit command uses four PINGs' worth)")
    func unitsAddUp() {
        var b = Self.budgets()
        var clock = PenaltyClock()
        b.charge(4, own: &clock, network: "n", now: 0)
        b.charge(4, own: &clock, network: "n", now: 0)
        #expect(b.verdict(own: clock, network: "n", now: 0) == .serve)   // 8 of 10
        b.charge(4, own: &clock, network: "n", now: 0)
        #expect(b.verdict(own: clock, network: "n", now: 0) != .serve)   // 12 of 10
        #expect(abs(clock.at - 12.0 / 5) < 1e-9)
    }

    @Test("A client typing a letter a second never comes near its budget")
    func humanNeverTouched() {
        var b = Self.budgets(50, 200)
        var clock = PenaltyClock()
        for second in 0..<3600 {
            let now = Double(second)
            #expect(b.verdict(own: clock, network: "n", now: now) == .serve)
            b.charge(1, own: &clock, network: "n", now: now)
        }
        #expect(clock.lead(3600) == 0)
    }

    @Test("Two connections of one network share its budget; another network is served meanwhile")
    func networkShared() {
        var b = Self.budgets(1000, 1000, ipRate: 5, ipBurst: 10)
        var first = PenaltyClock(), second = PenaltyClock(), elsewhere = PenaltyClock()
        var served = 0
        for i in 0..<100 {
            // Alternate the two connections of network "a".
            if i % 2 == 0 {
                guard b.verdict(own: first, network: "a", now: 0) == .serve else { break }
                b.charge(1, own: &first, network: "a", now: 0)
            } else {
                guard b.verdict(own: second, network: "a", now: 0) == .serve else { break }
                b.charge(1, own: &second, network: "a", now: 0)
            }
            served += 1
        }
        #expect(served == 10, "two connections of one network were served \(served) lines at once")
        guard case .pauseNetwork(let until) = b.verdict(own: first, network: "a", now: 0) else {
            Issue.record("network a not paused")
            return
        }
        #expect(abs(until - 0.2) < 0.001)
        #expect(b.verdict(own: second, network: "a", now: 0) != .serve)
        // Network "b" is not held back by "a".
        for _ in 0..<10 {
            #expect(b.verdict(own: elsewhere, network: "b", now: 0) == .serve)
            b.charge(1, own: &elsewhere, network: "b", now: 0)
        }
        // Caught-up networks are forgotten.
        b.prune(now: 100)
        #expect(b.networks.isEmpty)
    }

    @Test("A rate of 0 never limits")
    func unlimited() {
        var b = Self.budgets(0, 1)
        var clock = PenaltyClock()
        for _ in 0..<10_000 { b.charge(1_000, own: &clock, network: "n", now: 0) }
        #expect(b.verdict(own: clock, network: "n", now: 0) == .serve)
    }

    // MARK: What a line costs

    @Test("A line costs its verb's fixed cost, or its time in the loop if that is more (the clock is the test's)")
    func meteredCost() {
        let b = Self.budgets()
        final class FakeClock: @unchecked Sendable { var now = 50.0 }
        let fake = FakeClock()
        let meter = LineMeter(clock: { fake.now })
        let ping = meter.run(.line(Array("PING".utf8)), budgets: b) { fake.now += 0.000_01 }
        #expect(ping == 1)
        // An evil guess that took the lobby 37.5 ms: 37 units, not LETTER's 1.
        let guess = meter.run(.line(Array("LETTER q".utf8)), budgets: b) { fake.now += 0.0375 }
        #expect(guess == 37)
        #expect(guess > ping)
        // A fast NAMES still costs its fixed 4.
        let names = meter.run(.line(Array("names 100".utf8)), budgets: b) { fake.now += 0.000_2 }
        #expect(names == 4)
        #expect(b.cost(fixed: 2, elapsed: 0.0021) == 2 && b.cost(fixed: 2, elapsed: 0.0031) == 3)
    }

    @Test("Fixed costs come from the command table: blank and unknown lines 1, over-long 2, PING 1, database readers 4")
    func fixedCosts() {
        func cost(_ s: String) -> Int { LineMeter.fixedCost(.line(Array(s.utf8))) }
        #expect(cost("") == 1 && cost("   ") == 1 && cost("\t \t") == 1)
        #expect(LineMeter.fixedCost(.tooLong) == 2)
        #expect(cost("PING") == 1 && cost("ping") == 1 && cost("  Ping  ") == 1)
        #expect(cost("q") == 1 && cost("LETTER q") == 1)
        for verb in ["NAME x", "NAMES", "SCORES 3", "GAMES", "RESUME abc", "JOIN ABCDE", "NEW bot=easy", "STATS"] {
            #expect(cost(verb) == 4, "\(verb)")
        }
        #expect(cost("HELP") == 2 && cost("RESTART") == 2)
        #expect(cost("FROBNICATE") == 1 && cost("\u{00E9}t\u{00E9}") == 1 && cost("averyveryverylongword") == 1)
    }
}
