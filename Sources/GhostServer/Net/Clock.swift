#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_REALTIME for records, CLOCK_MONOTONIC for grace periods.
public struct SystemClock: LobbyClock {
    public init() {}
    public var wall: Int { SystemClock.wallSeconds() }
    static func wallSeconds() -> Int { Int(time(nil)) }
    public var monotonic: Double { monotonicSeconds() }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
