import GhostProtocol

/// A connection's queued replies: bytes in memory it owns, appended in
/// place. An `[UInt8]` paid for each line appended
/// (`append(contentsOf:)`'s uniqueness and capacity checks, through the
/// generic path), several lines a letter; here an append is a capacity check and
/// a copy. Not copyable: the one owner frees the memory.
struct OutputBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>?
    private(set) var capacity = 0
    private(set) var count = 0

    init() {}

    deinit { base?.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// Appends `bytes` (growing the memory, doubled, when they do not fit).
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, bytes.count > 0 else { return }
        let n = bytes.count
        let to = capacity &- count >= n ? base : grow(toHold: count &+ n)
        guard let to else { return }
        (to + count).initialize(from: from, count: n)
        count &+= n
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the line and its CRLF, rendered on the stack (`ServerLine.withWire`).
    mutating func append(_ line: ServerLine) {
        line.withWire { append($0) }
    }

    /// Drops the last `n` bytes (withdrawn replies).
    mutating func removeLast(_ n: Int) {
        count -= min(max(0, n), count)
    }

    /// Drops the first `n` bytes (sent ones), moving the rest to the front.
    mutating func removeFirst(_ n: Int) {
        let n = min(max(0, n), count)
        guard n > 0, let base else { return }
        let left = count &- n
        if left > 0 { UnsafeMutableRawPointer(base).copyMemory(from: base + n, byteCount: left) }   // memmove
        count = left
    }

    /// Empties it; its memory goes too unless kept.
    mutating func removeAll(keepingCapacity keep: Bool) {
        count = 0
        guard !keep else { return }
        base?.deallocate()
        base = nil
        capacity = 0
    }

    /// The bytes queued, for a send.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// A copy of the bytes queued (tests, and what is not on the hot path).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Moves the bytes to memory that holds at least `needed`; returns it.
    private mutating func grow(toHold needed: Int) -> UnsafeMutablePointer<UInt8>? {
        let size = max(needed, capacity &* 2, 256)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        if let base {
            if count > 0 { bigger.initialize(from: base, count: count) }
            base.deallocate()
        }
        base = bigger
        capacity = size
        return bigger
    }
}
