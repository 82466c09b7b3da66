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
    appendTimestamp(seconds: Int(now.tv_sec), millis: Int(now.tv_nsec / 1_000_000), to: &bytes)
    bytes.append(0x20)
    bytes.append(contentsOf: text.utf8)
    bytes.append(0x0A)
}

/// `2026-11-22T03:04:05.678Z` for a Unix time, in UTC: the civil date is
/// computed here (days from 1970-01-01, Gregorian), not by gmtime_r, which
/// takes glibc's time-zone lock, and the digits go straight into `bytes`
/// (this runs for every game's end).
func appendTimestamp(seconds: Int, millis: Int, to bytes: inout [UInt8]) {
    func digits(_ value: Int, _ width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var v = value
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: 0x30 + (v / divisor) % 10))
            v %= divisor
            divisor /= 10
        }
    }
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let second = seconds - days * 86_400
    // Civil date from days (H. Hinnant's days_from_civil, inverted).
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    digits(year, 4); bytes.append(0x2D)
    digits(month, 2); bytes.append(0x2D)
    digits(day, 2); bytes.append(0x54)
    digits(second / 3600, 2); bytes.append(0x3A)
    digits(second / 60 % 60, 2); bytes.append(0x3A)
    digits(second % 60, 2); bytes.append(0x2E)
    digits(millis, 3); bytes.append(0x5A)
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
