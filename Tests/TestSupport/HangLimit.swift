import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of every suite with one: a bound that catches a hang,
    /// never a slow test (every wait of a test is bounded on its own).
    ///
    /// Swift Testing starts a test's clock before its body has a thread: a
    /// test that blocks (on a daemon's line, a terminal, a browser) holds one
    /// of the pool's threads, as many as the machine has cores, and on 2 cores
    /// a test started early may wait for one most of a pass (about 5 minutes
    /// in CI). A limit of 2 minutes failed that way (EndToEndHalfCloseTests, a
    /// clean clone's CI run), so every suite takes this one: twice a pass.
    public static var hangLimit: Self { .timeLimit(.minutes(10)) }
}
