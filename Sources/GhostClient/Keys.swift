/// A key press, as the client's core sees it.
public enum Key: Equatable, Sendable {
    /// A printable character (letters, digits, punctuation, non-ASCII text).
    case char(Character)
    case enter
    case escape
    case tab
    case backspace
    case delete
    case up, down, left, right
    case home, end, pageUp, pageDown
    /// Ctrl-C: in raw mode it is a key, not a signal.
    case ctrlC
    /// Ctrl-D.
    case ctrlD
    /// Ctrl-L: redraw the whole screen (every screen; never sent).
    case ctrlL
    /// Ctrl-U: clear the text field being typed (every text field).
    case ctrlU
    /// Ctrl-W: erase the last word of the text field being typed.
    case ctrlW
    /// A function key, another control key or an escape sequence the client
    /// does not use.
    case other

    /// The lowercase ASCII letter a–z this key types, if any. The only check
    /// the client makes on a move: everything else the server judges.
    public var letter: Character? {
        guard case .char(let c) = self, let a = c.asciiValue else { return nil }
        switch a {
        case 0x61...0x7A: return c
        case 0x41...0x5A: return Character(Unicode.Scalar(a + 0x20))
        default: return nil
        }
    }

    /// The digit 0–9 this key types, if any.
    public var digit: Int? {
        guard case .char(let c) = self, let a = c.asciiValue, (0x30...0x39).contains(a) else { return nil }
        return Int(a - 0x30)
    }
}

/// Turns the bytes read from a terminal into keys. Handles UTF-8 split across
/// reads, CSI and SS3 sequences (arrows, Home/End, Delete, PageUp/Down), and a
/// lone ESC (the Esc key). Never fails: bytes it cannot read become `.other`.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Whether bytes are held waiting for the rest of a sequence.
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes what can be decoded; an incomplete UTF-8 character or escape
    /// sequence at the end is kept for the next call, except that with
    /// `final` (no more bytes came in time) a held ESC is the Esc key.
    public mutating func feed(_ bytes: [UInt8], final: Bool = true) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var i = 0
        let b = pending
        while i < b.count {
            let c = b[i]
            switch c {
            case 0x1B:
                guard i + 1 < b.count else {
                    if final { keys.append(.escape); i += 1; continue }
                    pending = Array(b[i...])
                    return keys
                }
                let next = b[i + 1]
                if next == 0x5B || next == 0x4F {  // ESC [ … or ESC O …
                    // A CSI ends with a byte in 0x40...0x7E; SS3 with the next byte.
                    var j = i + 2
                    if next == 0x5B {
                        while j < b.count && !(0x40...0x7E).contains(b[j]) { j += 1 }
                    }
                    guard j < b.count else {
                        if !final {
                            pending = Array(b[i...])
                            return keys
                        }
                        // A truncated sequence: the Esc key, then whatever followed.
                        keys.append(.escape)
                        i += 1
                        continue
                    }
                    keys.append(KeyDecoder.sequence(final: b[j], params: Array(b[(i + 2)..<j])))
                    i = j + 1
                } else if next == 0x1B {
                    keys.append(.escape)
                    i += 1
                } else {
                    // Alt+key: ESC then the key. Treat as Esc followed by the key.
                    keys.append(.escape)
                    i += 1
                }
            case 0x0D, 0x0A:
                keys.append(.enter)
                // CR LF from some terminals is one Enter.
                if c == 0x0D && i + 1 < b.count && b[i + 1] == 0x0A { i += 1 }
                i += 1
            case 0x09: keys.append(.tab); i += 1
            case 0x7F, 0x08: keys.append(.backspace); i += 1
            case 0x03: keys.append(.ctrlC); i += 1
            case 0x04: keys.append(.ctrlD); i += 1
            case 0x0C: keys.append(.ctrlL); i += 1
            case 0x15: keys.append(.ctrlU); i += 1
            case 0x17: keys.append(.ctrlW); i += 1
            case 0x00..<0x20: keys.append(.other); i += 1
            case 0x20..<0x7F: keys.append(.char(Character(Unicode.Scalar(c)))); i += 1
            default:
                // UTF-8: the lead byte says how long the character is.
                let length = (0xC2...0xDF).contains(c) ? 2 : (0xE0...0xEF).contains(c) ? 3 : (0xF0...0xF4).contains(c) ? 4 : 1
                guard length > 1 else {
                    keys.append(.other)  // a stray continuation byte or an invalid lead byte
                    i += 1
                    continue
                }
                guard i + length <= b.count else {
                    if !final {
                        pending = Array(b[i...])
                        return keys
                    }
                    keys.append(.other)
                    i += 1
                    continue
                }
                if let s = String(validating: b[i..<(i + length)], as: UTF8.self), let ch = s.first {
                    keys.append(.char(ch))
                    i += length
                } else {
                    keys.append(.other)
                    i += 1
                }
            }
        }
        pending = []
        return keys
    }

    private static func sequence(final: UInt8, params: [UInt8]) -> Key {
        switch final {
        case 0x41: return .up        // A
        case 0x42: return .down      // B
        case 0x43: return .right     // C
        case 0x44: return .left      // D
        case 0x48: return .home      // H
        case 0x46: return .end       // F
        case 0x5A: return .tab       // Z: shift-tab
        case 0x7E:                   // ~
            switch String(decoding: params, as: UTF8.self).split(separator: ";").first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            default: return .other
            }
        default: return .other
        }
    }
}
