#if canImport(Glibc)
import Glibc
#endif

/// Log lines collected during a loop turn and written with one write().
final class LogBuffer {
    private var bytes: [UInt8] = []
    /// The last line's timestamp, kept for the next in the same second.
    private var stamp = LogStamp()
    func append(_ line: String) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        stamp.append(seconds: Int(now.tv_sec), millis: Int(now.tv_nsec / 1_000_000), to: &bytes)
        bytes.append(0x20)
        var line = line
        line.withUTF8 { bytes.append(contentsOf: $0) }   // the bytes at once, not by the view
        bytes.append(0x0A)
    }
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

/// A timestamp (`appendTimestamp`) remembered with its second: a line in
/// the same second as the one before it changes only the milliseconds'
/// three digits (not the date and time worked out from the seconds for
/// every log line; two lines a game).
struct LogStamp {
    private var second = Int.min
    private var text: [UInt8] = []

    /// Appends the timestamp of `seconds` and `millis` to `bytes`.
    mutating func append(seconds: Int, millis: Int, to bytes: inout [UInt8]) {
        if seconds != second || text.count != 24 {
            text.removeAll(keepingCapacity: true)
            appendTimestamp(seconds: seconds, millis: millis, to: &text)
            second = seconds
        } else {
            text.withUnsafeMutableBufferPointer { t in
                func digit(_ v: Int) -> UInt8 { UInt8(truncatingIfNeeded: 0x30 + v % 10) }
                t[20] = digit(millis / 100); t[21] = digit(millis / 10); t[22] = digit(millis)
            }
        }
        bytes.append(contentsOf: text)
    }
}

/// `2026-11-22T03:04:05.678Z` for a Unix time, in UTC: the civil date is
/// computed here (days from 1970-01-01, Gregorian), not by gmtime_r, which
/// takes glibc's time-zone lock, and the digits go straight into `bytes`
/// (this runs for every game's end).
func appendTimestamp(seconds: Int, millis: Int, to bytes: inout [UInt8]) {
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
    // The 24 bytes on the stack, then one append; each digit by a division
    // by a constant, a multiplication (a loop over a variable divisor is a
    // division a digit, and an append a byte a check each; two lines a game).
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { out in
        guard out.count == 24 else { return }
        func digit(_ v: Int) -> UInt8 { UInt8(truncatingIfNeeded: 0x30 + v % 10) }
        out[0] = digit(year / 1000); out[1] = digit(year / 100); out[2] = digit(year / 10); out[3] = digit(year)
        out[4] = 0x2D
        out[5] = digit(month / 10); out[6] = digit(month)
        out[7] = 0x2D
        out[8] = digit(day / 10); out[9] = digit(day)
        out[10] = 0x54
        let hour = second / 3600, minute = second / 60 % 60, sec = second % 60
        out[11] = digit(hour / 10); out[12] = digit(hour)
        out[13] = 0x3A
        out[14] = digit(minute / 10); out[15] = digit(minute)
        out[16] = 0x3A
        out[17] = digit(sec / 10); out[18] = digit(sec)
        out[19] = 0x2E
        out[20] = digit(millis / 100); out[21] = digit(millis / 10); out[22] = digit(millis)
        out[23] = 0x5A
        bytes.append(contentsOf: UnsafeBufferPointer(out))
    }
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
