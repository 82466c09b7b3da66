import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

struct ProgramError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The package's built programs, run to completion with stdin from
/// /dev/null and stdout and stderr captured in files.
enum Program {
    /// The package root, from this file's path (Tests/OptionKitTests/Support/…).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `name` next to the running test bundle, else in `<root>/.build/debug`.
    static func path(_ name: String) throws -> String {
        let fm = FileManager.default
        var candidates: [String] = []
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(dir.appendingPathComponent(name).path)
                dir.deleteLastPathComponent()
            }
        }
        candidates.append(packageRoot + "/.build/debug/" + name)
        for c in candidates {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: c, isDirectory: &isDir), !isDir.boolValue, fm.isExecutableFile(atPath: c) { return c }
        }
        throw ProgramError("cannot find \(name); looked at \(candidates). Run `swift build --build-tests`.")
    }

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `name` with `arguments`; the exit status is 128+n if killed by signal n.
    static func run(_ name: String, _ arguments: [String], timeout: Double = 30) throws -> Run {
        let binary = try path(name)
        let folder = try TemporaryFolder()
        let out = folder.path + "/stdout", err = folder.path + "/stderr"

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // The test runner's threads block signals; the child must not inherit that.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = [binary] + arguments
        var cargs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, binary, &actions, &attr, &cargs, environ)
        guard rc == 0 else { throw ProgramError("posix_spawn \(binary): \(String(cString: strerror(rc)))") }

        let deadline = now() + timeout
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { throw ProgramError("waitpid: \(String(cString: strerror(errno)))") }
            if now() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw ProgramError("\(name) \(arguments) did not finish within \(timeout) s")
            }
            usleep(2_000)
        }
        let signal = status & 0x7F
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return Run(status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal, stdout: read(out), stderr: read(err))
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// A fresh folder under /tmp, removed with everything in it on deinit.
final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/optionkit-tests-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap(mkdtemp) }) else {
            throw ProgramError("mkdtemp: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
