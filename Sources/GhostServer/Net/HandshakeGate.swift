import Glibc
import Synchronization

/// Test-only: a gate that holds the daemon's first TLS handshake step until
/// a test lets it go, so that a test can see what the server does while a
/// handshake is in progress, by events and not by time
/// (EndToEndTLSHandshakeThreadTests). Only when the environment names a
/// folder, `GHOSTD_TEST_HANDSHAKE_GATE=<folder>`, holding two FIFOs the test
/// made: `entered` (the step writes one byte there when it starts) and
/// `release` (the step then reads one byte from there before it goes on).
/// Later steps pass freely. Without the variable, `pass` is one atomic load.
struct HandshakeGate: Sendable {
    let entered: Int32
    let release: Int32

    static let environmentName = "GHOSTD_TEST_HANDSHAKE_GATE"
    /// Opened once, at the first step (both FIFOs read-write, so neither open blocks).
    private static let shared: HandshakeGate? = {
        guard let folder = getenv(environmentName).map({ String(cString: $0) }), !folder.isEmpty else { return nil }
        let entered = open(folder + "/entered", O_RDWR | O_CLOEXEC)
        let release = open(folder + "/release", O_RDWR | O_CLOEXEC)
        guard entered >= 0, release >= 0 else { return nil }
        return HandshakeGate(entered: entered, release: release)
    }()
    private static let spent = Atomic<Bool>(false)

    /// Called at the start of every handshake step, on the thread that runs
    /// it: the first one waits for the test's byte.
    static func pass() {
        guard !spent.load(ordering: .relaxed), !spent.exchange(true, ordering: .relaxed), let gate = shared else { return }
        var byte: UInt8 = 0x65
        _ = write(gate.entered, &byte, 1)
        while read(gate.release, &byte, 1) < 0 && errno == EINTR {}
    }
}
