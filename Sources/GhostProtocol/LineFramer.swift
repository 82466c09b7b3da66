/// Splits a byte stream into lines, in bounded memory.
///
/// A line ends with LF; a CR just before the LF is dropped. A line may be at
/// most `maxLineBytes` long including its end. Bytes of a longer line are
/// discarded up to its LF, and the framer reports `.tooLong` once, as soon as
/// the limit is passed, so a client streaming an endless line hears about it
/// at once. The framer never holds more than `maxLineBytes` bytes.
public struct LineFramer: Sendable {
    public enum Frame: Sendable, Equatable {
        case line([UInt8])
        case tooLong
    }

    /// The longest line accepted, counting its CRLF or LF.
    public static let defaultMaxLineBytes = 512

    public let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var discarding = false
    /// The array of the last line of one or two bytes (a letter, with its
    /// CR), refilled for the next one: a letter's line was an allocation
    /// and a free, and most lines of a game are letters. Its
    /// reader has nearly always let it go by the next read; if not (a line
    /// kept, or a second short line in one read), the refill copies it
    /// first, as a new array would be made.
    private var short: [UInt8] = []

    public init(maxLineBytes: Int = LineFramer.defaultMaxLineBytes) {
        self.maxLineBytes = max(2, maxLineBytes)
        buffer.reserveCapacity(64)
    }

    /// Bytes held for an unfinished line.
    public var pendingBytes: Int { buffer.count }

    /// Whether the framer is throwing away the rest of an over-long line.
    public var isDiscarding: Bool { discarding }

    /// Feeds bytes; calls `emit` for each finished line or over-long line, in order.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Frame) -> Void) {
        var i = 0
        let n = bytes.count
        var shortEmitted = false   // a second short line in this read gets an array of its own
        while i < n {
            // Find the next LF from i.
            var j = i
            while j < n && bytes[j] != 0x0A { j += 1 }
            let chunk = UnsafeRawBufferPointer(rebasing: bytes[i..<j])
            let foundEnd = j < n
            if !discarding {
                // Bytes the line needs at least: what we have, this chunk, and an LF.
                let needed = buffer.count + chunk.count + 1
                if needed > maxLineBytes {
                    buffer.removeAll(keepingCapacity: true)
                    discarding = !foundEnd
                    emit(.tooLong)
                } else if foundEnd {
                    // Each line is its own array of its own size (none for a
                    // blank line). Emitting `buffer` itself and then emptying
                    // it kept its capacity in a fresh copy per line: every
                    // line cost a buffer of the largest line's size, about
                    // 2 MB of heap per connection holding 16 KiB of framed
                    // blank lines while its budget was spent.
                    var line: [UInt8]
                    if buffer.isEmpty, chunk.count == 1 || chunk.count == 2, !shortEmitted {
                        while !short.isEmpty { short.removeLast() }
                        short.append(contentsOf: chunk)
                        if short.last == 0x0D { short.removeLast() }
                        shortEmitted = true
                        emit(.line(short))
                        i = j + 1
                        continue
                    } else if buffer.isEmpty {
                        line = Array(chunk)
                    } else {
                        buffer.append(contentsOf: chunk)
                        line = buffer.withUnsafeBufferPointer { Array($0) }   // a copy, not a share of `buffer`
                        buffer.removeAll(keepingCapacity: true)
                    }
                    if line.last == 0x0D { line.removeLast() }
                    emit(.line(line))
                } else {
                    buffer.append(contentsOf: chunk)
                }
            } else if foundEnd {
                discarding = false
            }
            i = foundEnd ? j + 1 : j
        }
    }

    /// Convenience for tests and tools: feeds an array, returns the frames.
    public mutating func feed(_ bytes: [UInt8]) -> [Frame] {
        var out: [Frame] = []
        bytes.withUnsafeBytes { feed($0) { out.append($0) } }
        return out
    }
}
