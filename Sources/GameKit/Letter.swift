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

    /// A letter from a one-character string such as "p" or "P".
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 1, let l = Letter(ascii: bytes[0]) else { return nil }
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
