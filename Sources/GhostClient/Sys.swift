#if canImport(Glibc)
import Glibc
#endif

/// Small system helpers shared by the terminal, connection and config code.
enum Sys {
    /// Writes all of `bytes` to a blocking fd, retrying on EINTR. False on error.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buf -> Int in
                guard let base = buf.baseAddress else { return 0 }
                return write(fd, base + offset, buf.count - offset)
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, 1000)
                continue
            }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Monotonic seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }
