import GhostStore

/// Join codes of private games, and how failed `JOIN`s slow an address down;
/// a value of it holds the codes of the private games open now, each with
/// its host (the lobby's `hosted`).
///
/// A code is 8 characters of a 32-character alphabet (40 bits) from the
/// system's random generator: Crockford's base 32, which leaves out I, L, O
/// and U; a code typed with O, I or L for 0, 1 and 1 still joins. With 2,000
/// open private games, a guess hits one in 2^40 / 2,000 ≈ 550 million, and each
/// address may miss only `Lobby.Settings.failedJoinsPerMinute` times a minute.
struct JoinCodes {
    /// Join code → the connection hosting its game.
    private var hosts: [String: ConnectionID] = [:]

    subscript(code: String) -> ConnectionID? {
        get { hosts[code] }
        set { hosts[code] = newValue }
    }

    /// 40 random bits (`random`), not the code of another open game.
    func newCode() -> String {
        while true {
            let code = JoinCodes.random()
            if hosts[code] == nil { return code }
        }
    }

    static let alphabet: [Character] = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    static let length = 8

    /// A fresh code: 40 random bits, five to a character.
    static func random() -> String {
        var rng = PooledRandom()   // the kernel's bits, a buffer of them at a time
        return code(rng.next() as UInt64)
    }

    /// The code of 40 bits (the low ones of `bits`), five to a character,
    /// the lowest first: written as bytes (appending Characters to a String
    /// checks and grows it at each one, for every code made).
    static func code(_ bits: UInt64) -> String {
        var bits = bits
        // Straight into the string's storage (8 bytes: a small string, no array first).
        return String(unsafeUninitializedCapacity: length) { out in
            alphabetBytes.withUnsafeBufferPointer { digits in
                for i in 0..<length {
                    out[i] = digits[Int(bits & 31)]
                    bits >>= 5
                }
            }
            return length
        }
    }

    /// `alphabet` as ASCII bytes.
    private static let alphabetBytes: [UInt8] = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// A code as typed, in the form codes are given out: capitals, and the
    /// look-alikes O, I and L read as 0, 1 and 1 (JOIN has upper-cased it).
    static func normalized(_ typed: String) -> String {
        // ASCII, every code typed as given out: byte by byte, the same mapping
        // (upper case, then the look-alikes) without Unicode case tables.
        var typed = typed
        let ascii = typed.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                for (i, b) in bytes.enumerated() {
                    let upper = b >= 0x61 && b <= 0x7A ? b - 0x20 : b
                    switch upper {
                    case 0x4F: out[i] = 0x30               // O → 0
                    case 0x49, 0x4C: out[i] = 0x31         // I, L → 1
                    default: out[i] = upper
                    }
                }
                return bytes.count
            }
        }
        if let ascii { return ascii }
        return String(typed.uppercased().map { c -> Character in
            switch c {
            case "O": "0"
            case "I", "L": "1"
            default: c
            }
        })
    }
}
