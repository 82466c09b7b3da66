/// Failed logins, per name and per network (an IPv4 address, an IPv6 /64),
/// for the exponential backoff: after k failures the next try
/// is allowed only min(2^(k-1), `maxWait`) seconds after the last one.
/// Failures are forgotten `memory` seconds after the last one; a success
/// clears the name's. Each table holds at most `capacity` keys: past it
/// the forgotten ones go, then the one whose last failure is oldest.
struct LoginBackoff {
    struct Failures {
        var count: Int
        var last: Double
    }

    let maxWait: Double
    let memory: Double
    let capacity: Int
    private(set) var names: [String: Failures] = [:]
    private(set) var networks: [String: Failures] = [:]

    init(maxWait: Double, memory: Double, capacity: Int) {
        self.maxWait = max(0, maxWait)
        self.memory = max(0, memory)
        self.capacity = max(1, capacity)
    }

    /// The wait after `count` failures: 1, 2, 4 … seconds, at most `maxWait`.
    func delay(after count: Int) -> Double {
        guard count > 0 else { return 0 }
        return min(Double(1 << min(count - 1, 30)), maxWait)
    }

    /// Seconds until `name` (lowercased) may be tried from `network` ("":
    /// no network, not counted), nil when it may now.
    func wait(name: String, network: String, at now: Double) -> Double? {
        var longest = 0.0
        for f in [names[name], network.isEmpty ? nil : networks[network]] {
            guard let f, now - f.last < memory else { continue }
            longest = max(longest, f.last + delay(after: f.count) - now)
        }
        return longest > 0 ? longest : nil
    }

    mutating func failed(name: String, network: String, at now: Double) {
        LoginBackoff.count(name, in: &names, at: now, memory: memory, capacity: capacity)
        if !network.isEmpty { LoginBackoff.count(network, in: &networks, at: now, memory: memory, capacity: capacity) }
    }

    /// The right password: the name's failures are forgotten (the network's are not).
    mutating func succeeded(name: String) {
        names[name] = nil
    }

    private static func count(_ key: String, in table: inout [String: Failures], at now: Double, memory: Double, capacity: Int) {
        if var f = table[key] {
            f.count = now - f.last < memory ? f.count + 1 : 1
            f.last = now
            table[key] = f
            return
        }
        if table.count >= capacity {
            table = table.filter { now - $0.value.last < memory }
            if table.count >= capacity, let oldest = table.min(by: { $0.value.last < $1.value.last }) {
                table[oldest.key] = nil
            }
        }
        table[key] = Failures(count: 1, last: now)
    }
}
