import Foundation
import Testing
@testable import GhostStore

/// PooledRandom (Sources/CGhostSys/ghost_random.c): the kernel's bytes from
/// a per-thread buffer of 256, each handed out once.
@Suite struct PooledRandomTests {
    /// 1,000 draws (the buffer refilled 31 times): no value twice, and
    /// every bit position set in some draws and clear in others.
    @Test func drawsAcrossRefillsAreNeverRepeated() {
        var rng = PooledRandom()
        let draws = (0..<1_000).map { _ in rng.next() }
        #expect(Set(draws).count == draws.count)
        let ored = draws.reduce(UInt64(0), |), anded = draws.reduce(UInt64.max, &)
        #expect(ored == UInt64.max && anded == 0)
    }

    /// Each thread has its own buffer: two threads' draws share nothing.
    @Test func threadsDrawFromTheirOwnBuffers() async {
        async let a = Task.detached { var r = PooledRandom(); return (0..<100).map { _ in r.next() } }.value
        async let b = Task.detached { var r = PooledRandom(); return (0..<100).map { _ in r.next() } }.value
        let (x, y) = await (a, b)
        #expect(Set(x).isDisjoint(with: y))
    }
}
