/// One token bucket per key (an address): `burst` tokens at most, refilled
/// at `perSecond`. Keys whose bucket is full again are forgotten once there
/// are many, so an attacker with many addresses costs memory only while they
/// are actually spending tokens.
struct TokenBuckets {
    let perSecond: Double
    let burst: Double
    private var buckets: [String: (tokens: Double, at: Double)] = [:]
    /// Past this many keys, full buckets are dropped.
    static let pruneAbove = 10_000

    init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = max(1, burst)
    }

    /// Takes one token for `key` at monotonic time `now`: nil when there was
    /// one, else the seconds until there will be. A rate of 0 never limits.
    mutating func take(_ key: String, at now: Double) -> Double? {
        guard perSecond > 0 else { return nil }
        var (tokens, at) = buckets[key] ?? (burst, now)
        tokens = min(burst, tokens + max(0, now - at) * perSecond)
        guard tokens >= 1 else {
            buckets[key] = (tokens, now)
            return (1 - tokens) / perSecond
        }
        buckets[key] = (tokens - 1, now)
        if buckets.count > TokenBuckets.pruneAbove {
            buckets = buckets.filter { $0.value.tokens + (now - $0.value.at) * perSecond < burst }
        }
        return nil
    }

    /// Seconds until `key` has a token at monotonic time `now`, without
    /// taking it; nil when it has one now (or there is no limit).
    func wait(_ key: String, at now: Double) -> Double? {
        guard perSecond > 0, let (tokens, at) = buckets[key] else { return nil }
        let available = min(burst, tokens + max(0, now - at) * perSecond)
        return available >= 1 ? nil : (1 - available) / perSecond
    }

    var count: Int { buckets.count }
}
