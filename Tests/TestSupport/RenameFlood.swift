import Foundation
import Testing

/// The rename attack: one connection takes 30,000 new names.
/// Shared by the daemon's limits test and the client's end-to-end picker test.
public enum RenameFlood {
    /// `c` sends `NAME u00000` … `NAME u29999`, 1,000 lines per write,
    /// reading the replies between writes; returns how many were taken and
    /// how many refused with `ERR too-many-names`.
    public static func rename30000(_ c: LineClient) throws -> (ok: Int, limited: Int) {
        var ok = 0, limited = 0
        for batch in 0..<30 {
            let lines = (0..<1000).map { String(format: "NAME u%05d\n", batch * 1000 + $0) }.joined()
            try c.sendRaw(Array(lines.utf8))
            for _ in 0..<1000 {
                let line = try c.readLine(timeout: 30)
                if line.hasPrefix("OK NAME name=u") { ok += 1 }
                else if line.hasPrefix("ERR too-many-names ") { limited += 1 }
                else { Issue.record("unexpected reply to a rename: \(line)") }
            }
        }
        return (ok, limited)
    }
}
