import CGhostSys

/// The kernel's random numbers, as `SystemRandomNumberGenerator` gives them
/// (getrandom), drawn from a buffer of the calling thread's own that is
/// refilled 256 bytes at a time (Sources/CGhostSys/ghost_random.c): one
/// system call per 32 draws instead of one per draw. For secrets (resume
/// tokens) as for seeds and join codes.
public struct PooledRandom: RandomNumberGenerator {
    public init() {}
    @inline(__always)
    public mutating func next() -> UInt64 { ghost_random_u64() }

    /// A game's seed: 64 random bits.
    public static func seed() -> UInt64 { ghost_random_u64() }
}
