import Foundation
import Testing
import GhostProtocol
@testable import GhostServer

/// Issue #44, item 27: HISTORY of an aborted game said `reason=aborted`, a
/// reason documented nowhere, while its `ABORTED` (and `RESUME`) said why.
/// One vocabulary: HISTORY says what `ABORTED` said.
@Suite struct HistoryReasonTests {
    @Test("A game left before its first move: ABORTED reason=left, and HISTORY's RESULT says result=aborted reason=left")
    func abortedGameKeepsItsReason() throws {
        let h = try Harness()
        h.named(1, "alice")
        h.send(1, "NEW bot=easy")
        _ = h.drain()
        h.send(1, "LEAVE")
        let left = h.drain()[1] ?? []
        #expect(left.contains { $0.hasPrefix("ABORTED id=1 reason=left") }, "\(left)")
        h.send(1, "HISTORY")
        let d = h.drain()[1] ?? []
        let result = try #require(d.first { $0.hasPrefix("RESULT id=1 ") }, "\(d)")
        #expect(result.contains(" result=aborted reason=left "), "\(result)")
    }
}
