#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work a game kind does once in a process's life and a command may have to
/// wait for: an index built on first use (Superghost's infixes for a
/// language). The server charges a line its loop time when that
/// is more than its fixed cost (`LineMeter`, GhostServer/Net/Budget.swift);
/// a line during which the loop waited for such work pays its fixed cost
/// only, since the wait is not its sender's doing.
///
/// Counted per thread: a kind calls `noteWait()` on the caller's thread
/// before it waits for (or does) the work, and the server compares `waits`
/// on its loop thread before and after each line, so work on other threads
/// (the kinds' background builds, other tests) never changes what a line costs.
public enum OneOffWork {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        _ = pthread_key_create(&key, nil)
        return key
    }()

    /// How many times the calling thread has waited for one-off work so far.
    public static var waits: Int { Int(bitPattern: pthread_getspecific(key)) }

    /// The calling thread is about to wait for one-off work (or do it).
    public static func noteWait() {
        _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: waits &+ 1))
    }
}
