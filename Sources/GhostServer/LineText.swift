import GameKit

/// A line of text built as bytes, for the lines the game path writes once
/// a game (the log's "started" and "over", NEW's INFO): String
/// interpolation, `joined` and `map` make arrays and strings along the
/// way for the same text. The builders below write
/// into a buffer on the stack (`build`) and make one String of it; a line
/// longer than the buffer goes on in an array (`spill`), the same text.
struct LineText {
    /// Where the bytes go first (the stack buffer of `build`; empty for `init()`).
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var count = 0
    /// The whole line so far, once it outgrew `buffer`.
    private var spill: [UInt8]?

    /// A line with no buffer of its own: every byte goes to `spill`.
    init() { buffer = UnsafeMutableBufferPointer(start: nil, count: 0) }

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// Runs `body` on a line whose first `capacity` bytes are on the stack,
    /// and returns the line's text.
    static func build(capacity: Int = 256, _ body: (inout LineText) -> Void) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var line = LineText(buffer)
            body(&line)
            return line.text
        }
    }

    /// Appends raw bytes: copied into the buffer while they fit, then to `spill`.
    private mutating func append(_ src: UnsafeBufferPointer<UInt8>) {
        if spill == nil, count + src.count <= buffer.count {
            if let from = src.baseAddress, let to = buffer.baseAddress {
                (to + count).update(from: from, count: src.count)
            }
            count += src.count
            return
        }
        if spill == nil {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(max(2 * buffer.count, count + src.count))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
            spill = bytes
        }
        spill?.append(contentsOf: src)
    }

    mutating func add(_ s: String) {
        var s = s   // withUTF8 gives small strings' bytes too (withContiguousStorageIfAvailable does not)
        s.withUTF8 { append($0) }
    }

    /// A literal piece: its bytes are in the binary, copied with no String made.
    mutating func put(_ s: StaticString) {
        s.withUTF8Buffer { append($0) }
    }

    /// A number's decimal digits, written without making a String.
    mutating func add(_ n: Int) {
        if n < 0 { put("-") }
        addDigits(n.magnitude)
    }

    private mutating func addDigits(_ n: UInt) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes: UInt.max has 20 digits
        var count = 0
        var rest = n
        withUnsafeMutableBytes(of: &digits) { raw in
            let digits = raw.bindMemory(to: UInt8.self)
            repeat {
                count += 1
                digits[24 - count] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest > 0
            append(UnsafeBufferPointer(rebasing: digits[(24 - count)...]))
        }
    }

    var text: String {
        if let spill { return String(decoding: spill, as: UTF8.self) }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
    }

    /// `game <id> started: <lang> <a> vs <b>[ (<kind> <variant>)][ (a match of <n> rounds)]`;
    /// `kind` nil for the server's default kind, `rounds` nil for a single game.
    static func started(_ id: Int, lang: String, names: [String], kind: (name: String, variant: String)?, rounds: Int?) -> String {
        build { line in
            line.put("game "); line.add(id); line.put(" started: "); line.add(lang); line.put(" ")
            for (i, name) in names.enumerated() {
                if i > 0 { line.put(" vs ") }
                line.add(name)
            }
            if let kind { line.put(" ("); line.add(kind.name); line.put(" "); line.add(kind.variant); line.put(")") }
            if let rounds { line.put(" (a match of "); line.add(rounds); line.put(" rounds)") }
        }
    }

    /// NEW's INFO to the host of a private game.
    static func giveTheCode(_ code: String) -> String {
        build(capacity: 128) { line in
            line.put("Give the code "); line.add(code); line.put(" to your opponent: they send JOIN "); line.add(code); line.put(".")
        }
    }

    /// `game <id> over: <winner> beat <loser> (<reason>, <key> "<value>", …)`,
    /// or `<a> drew with <b>` when nobody lost (`loser` nil).
    static func over(_ id: Int, names: [String], loser: Int?, reason: String, fields: [Field]) -> String {
        build { line in
            line.put("game "); line.add(id); line.put(" over: ")
            if let loser {
                line.add(names[1 - loser]); line.put(" beat "); line.add(names[loser])
            } else {
                line.add(names[0]); line.put(" drew with "); line.add(names[1])
            }
            line.put(" ("); line.add(reason)
            for f in fields { line.put(", "); line.add(f.key); line.put(" \""); line.add(f.value); line.put("\"") }
            line.put(")")
        }
    }
}
