/// One letter a–z: what Ghost appends and what Hangman guesses.
public struct Letter: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 0 = a … 25 = z.
    public let index: UInt8

    public init?(index: UInt8) {
        guard index < 26 else { return nil }
        self.index = index
    }

    /// A letter from a single ASCII byte, either case.
    public init?(ascii: UInt8) {
        let lower = ascii | 0x20
        guard (0x61...0x7A).contains(lower) else { return nil }
        self.index = lower - 0x61
    }

    /// A letter from a one-character string such as "p" or "P" (read in
    /// place: every move's letter comes through here).
    public init?(_ text: some StringProtocol) {
        var bytes = text.utf8.makeIterator()
        guard let b = bytes.next(), bytes.next() == nil, let l = Letter(ascii: b) else { return nil }
        self = l
    }

    public static let all: [Letter] = (0..<26).compactMap { Letter(index: $0) }

    public var character: Character { Character(Unicode.Scalar(index + 0x61)) }
    /// "a" … "z", from a table: each move says its letter (MOVE's `letter=`) and
    /// appends it to the fragment: no Character made and destroyed for it on every move.
    public var description: String { Letter.text[Int(index)] }
    private static let text: [String] = (0..<26).map { String(Unicode.Scalar(UInt8(0x61 + $0))) }
    public static func < (a: Letter, b: Letter) -> Bool { a.index < b.index }
}
