import Foundation

/// A shell loop that outlives the test process to clean up after it: what a
/// test started (a daemon, PostgreSQL, HAProxy, a browser) is killed and its
/// folder removed if the test process dies first (Swift Testing's time
/// limit, a crash, kill -9). Each harness gives its own script; `$1` is
/// always the test process's PID, then its `arguments`.
public enum Watchdog {
    /// `alive PID`: the process exists and is not a zombie (a killed test
    /// process may linger unreaped), for the scripts.
    public static let aliveFunction = #"alive() { [ -e "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }"#

    /// Starts `/bin/sh -c <aliveFunction; script> <name> <test pid> <arguments…>`
    /// with its standard streams on /dev/null; nil if it could not start.
    public static func start(_ name: String, script: String, arguments: [String]) -> Process? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", aliveFunction + "\n" + script, name, String(getpid())] + arguments
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        return p
    }
}
