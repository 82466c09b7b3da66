#if canImport(Glibc)
import Glibc
#endif

/// Log lines collected during a loop turn and written with one write().
final class LogBuffer {
    private var bytes: [UInt8] = []
    func append(_ line: String) { appendLogLine(line, to: &bytes) }
    func flush() {
        guard !bytes.isEmpty else { return }
        writeToStderr(bytes)
        bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 16)
    }
}

/// Writes one line to stderr, prefixed with a UTC timestamp
/// (`2026-11-22T03:04:05.678Z`). Cheap enough to call per game.
public func logLine(_ text: String) {
    var bytes: [UInt8] = []
    appendLogLine(text, to: &bytes)
    writeToStderr(bytes)
}

/// Appends one timestamped log line to `bytes`.
func appendLogLine(_ text: String, to bytes: inout [UInt8]) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var t = time_t(now.tv_sec)
    var parts = tm()
    gmtime_r(&t, &parts)
    func digits(_ value: Int, _ width: Int) {
        var v = value
        var tmp = [UInt8](repeating: 0x30, count: width)
        for i in stride(from: width - 1, through: 0, by: -1) {
            tmp[i] = UInt8(0x30 + v % 10)
            v /= 10
        }
        bytes.append(contentsOf: tmp)
    }
    digits(Int(parts.tm_year) + 1900, 4); bytes.append(0x2D)
    digits(Int(parts.tm_mon) + 1, 2); bytes.append(0x2D)
    digits(Int(parts.tm_mday), 2); bytes.append(0x54)
    digits(Int(parts.tm_hour), 2); bytes.append(0x3A)
    digits(Int(parts.tm_min), 2); bytes.append(0x3A)
    digits(Int(parts.tm_sec), 2); bytes.append(0x2E)
    digits(Int(now.tv_nsec / 1_000_000), 3); bytes.append(0x5A); bytes.append(0x20)
    bytes.append(contentsOf: text.utf8)
    bytes.append(0x0A)
}

/// Writes all of `bytes` to stderr.
func writeToStderr(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(2, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
        if n <= 0 { break }
        offset += n
    }
}

func errnoText() -> String {
    String(cString: strerror(errno))
}
