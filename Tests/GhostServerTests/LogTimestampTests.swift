import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import GhostServer

/// The log's timestamps, computed without gmtime_r, are the ones
/// gmtime_r gives, across leap years, century rules and the 2038 and 10000
/// boundaries' neighbourhoods.
@Suite struct LogTimestampTests {
    private func reference(_ seconds: Int, _ millis: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ v: Int32, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }

    private func ours(_ seconds: Int, _ millis: Int) -> String {
        var bytes: [UInt8] = []
        appendTimestamp(seconds: seconds, millis: millis, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("Every day from 1970 to 2400 at a few times of day, and known instants")
    func agreesWithGmtime() {
        #expect(ours(0, 0) == "1970-01-01T00:00:00.000Z")
        #expect(ours(1_700_000_000, 5) == "2023-11-14T22:13:20.005Z")
        #expect(ours(951_782_400, 999) == "2000-02-29T00:00:00.999Z")
        #expect(ours(4_107_542_400, 0) == "2100-03-01T00:00:00.000Z")
        var day = 0
        while day < 157_000 {   // to about 2399
            for second in [0, 1, 3599, 43_210, 86_399] {
                let t = day * 86_400 + second
                if ours(t, day % 1000) != reference(t, day % 1000) {
                    Issue.record("\(t): \(ours(t, day % 1000)) != \(reference(t, day % 1000))")
                    return
                }
            }
            day += 1
        }
    }

    @Test("A remembered timestamp: the same second with other milliseconds, then the next second and an earlier one")
    func rememberedStampFollowsTheClock() {
        var stamp = LogStamp()
        var bytes: [UInt8] = []
        let times = [(1_700_000_000, 5), (1_700_000_000, 987), (1_700_000_000, 40), (1_700_000_001, 0), (1_699_999_999, 999), (1_699_999_999, 1)]
        var expected = ""
        for (seconds, millis) in times {
            stamp.append(seconds: seconds, millis: millis, to: &bytes)
            expected += reference(seconds, millis)
        }
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }
}
