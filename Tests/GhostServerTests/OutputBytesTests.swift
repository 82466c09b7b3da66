import Testing
@testable import GhostServer
import GhostProtocol

/// A connection's output buffer (OutputBytes.swift) against an array doing
/// the same appends and removals: growth past its capacity, sent bytes
/// trimmed from the front, withdrawn ones from the end.
@Suite struct OutputBytesTests {
    @Test func itHoldsWhatAnArrayWould() {
        var out = OutputBytes()
        var model: [UInt8] = []
        var next: UInt8 = 0
        for step in 0..<400 {
            let n = (step * 37) % 700
            let chunk = (0..<n).map { _ in next &+= 1; return next }
            out.append(contentsOf: chunk)
            model += chunk
            if step % 7 == 3 {
                let k = min(model.count, step % 300)
                out.removeFirst(k)
                model.removeFirst(k)
            }
            if step % 11 == 5 {
                let k = min(model.count, step % 90)
                out.removeLast(k)
                model.removeLast(k)
            }
            if step % 97 == 96 {
                out.removeAll(keepingCapacity: step % 2 == 0)
                model.removeAll()
            }
            #expect(out.bytes == model, "step \(step)")
            #expect(out.count == model.count)
            #expect(out.capacity >= out.count)
        }
    }

    @Test func aLineIsAppendedWithItsLineEnd() {
        var out = OutputBytes()
        out.append(ServerLine.ok(.ping))
        out.append(ServerLine.info(String(repeating: "x", count: 3000)))   // longer than the stack buffer
        var wire: [UInt8] = []
        ServerLine.ok(.ping).appendWire(to: &wire)
        ServerLine.info(String(repeating: "x", count: 3000)).appendWire(to: &wire)
        #expect(out.bytes == wire)
        out.withUnsafeBytes { #expect(Array($0) == wire) }
    }
}
