/// Resume tokens as the store keeps them (schema 14). A token is
/// 32 lowercase hex digits: 12 of `game id * 2 + seat`, then 20 of a secret
/// (80 random bits). The row keeps `~` and the secret, so the token indexes
/// (partial: `< '~'`) hold none of them, and a new game's INSERT writes no
/// token index; RESUME reads the row by its id and compares the secrets.
/// A token of any other form (those issued before schema 14: 128 random
/// bits; a game whose id is past `maxGame`) is kept as it is, and found
/// through the token indexes.
public enum ResumeTokens {
    /// Hex digits of the id and seat, and of the secret.
    public static let prefixDigits = 12, secretDigits = 20
    /// The highest game id whose tokens carry it (`id * 2 + 1` < 16^12).
    public static let maxGame = (1 << 47) - 1
    /// What a token's row stores before its secret; above every hex digit.
    static let mark: UInt8 = 0x7E   // "~"

    /// The 12 hex digits that start each token of `game`'s `seat`, or nil
    /// when the id is too large (its tokens are then 128 random bits).
    public static func prefix(game: Int, seat: Int) -> String? {
        named(game: game, seat: seat).map { n in
            String(unsafeUninitializedCapacity: prefixDigits) { out in
                writeHex(n, into: out)
                return prefixDigits
            }
        }
    }

    /// `game * 2 + seat`, the number a token's first 12 digits spell; nil
    /// when the id is too large for them.
    public static func named(game: Int, seat: Int) -> UInt64? {
        guard (1...maxGame).contains(game), (0...1).contains(seat) else { return nil }
        return UInt64(game * 2 + seat)
    }

    /// Writes `value`'s last 12 hex digits, lowercase, most significant
    /// first, into the start of `out` (which has room for them).
    public static func writeHex(_ value: UInt64, into out: UnsafeMutableBufferPointer<UInt8>) {
        var x = value
        for i in stride(from: prefixDigits - 1, through: 0, by: -1) {
            out[i] = hexDigit(x)
            x >>= 4
        }
    }

    /// A new token for `game`'s `seat`: its 12 digits of id and seat, then 80
    /// random bits from the kernel's generator (`PooledRandom`; 128 random bits for an id
    /// past `maxGame`). The token's 128 bits as two words, each written as
    /// 16 hex digits eight at a time (`hexWord`) straight into the string's
    /// storage (not a digit at a time with a check per byte; two tokens a
    /// game).
    public static func new(game: Int, seat: Int) -> String {
        var rng = PooledRandom()
        let random: UInt64 = rng.next(), low: UInt64 = rng.next()
        let high = named(game: game, seat: seat).map { $0 << 16 | random & 0xFFFF } ?? random
        let digits = prefixDigits + secretDigits
        return String(unsafeUninitializedCapacity: digits) { out in
            guard out.count >= digits, let base = out.baseAddress else { return 0 }
            let raw = UnsafeMutableRawPointer(base)
            raw.storeBytes(of: hexWord(UInt32(truncatingIfNeeded: high >> 32)), as: UInt64.self)
            raw.storeBytes(of: hexWord(UInt32(truncatingIfNeeded: high)), toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: hexWord(UInt32(truncatingIfNeeded: low >> 32)), toByteOffset: 16, as: UInt64.self)
            raw.storeBytes(of: hexWord(UInt32(truncatingIfNeeded: low)), toByteOffset: 24, as: UInt64.self)
            return digits
        }
    }

    /// The 8 lowercase hex digits of `x`, most significant first, as the
    /// 8 bytes of a word in memory order: each nibble spread to a byte,
    /// 0x30 added to each and 0x27 more to those of 10 and above.
    static func hexWord(_ x: UInt32) -> UInt64 {
        var v = UInt64(x)
        v = (v | v << 16) & 0x0000_FFFF_0000_FFFF
        v = (v | v << 8) & 0x00FF_00FF_00FF_00FF
        v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // A byte is 16 or more after adding 6 exactly when its nibble is 10 or more.
        let letters = ((v &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let ascii = v &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
        // The most significant nibble is now in the lowest byte's place: the
        // first in memory on a little-endian machine, so the bytes are swapped.
        return (ascii.bigEndian)
    }

    /// The lowercase hex digit of `x`'s last 4 bits.
    private static func hexDigit(_ x: UInt64) -> UInt8 {
        let d = UInt8(x & 15)
        return d < 10 ? 0x30 + d : 0x57 + d
    }

    /// The game, seat and secret a token names, if it has the new form.
    static func parse(_ token: String) -> (game: Int, seat: Int, secret: String)? {
        var token = token
        return token.withUTF8 { bytes in
            guard let n = named(bytes) else { return nil }
            return (n >> 1, n & 1, String(decoding: UnsafeBufferPointer(rebasing: bytes[prefixDigits...]), as: UTF8.self))
        }
    }

    /// `id * 2 + seat` of a token of the new form (all 32 digits hex), or nil.
    private static func named(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count == prefixDigits + secretDigits, let n = prefixValue(bytes) else { return nil }
        for b in bytes[prefixDigits...] where hexValue(b) == nil { return nil }
        return n
    }

    /// The game and seat a token's first `prefixDigits` bytes name, if
    /// they are lowercase hex digits and name a game (the server's rooms
    /// keep only the tokens they do not name; whether the token is that
    /// seat's, the room says).
    public static func seat(named token: String) -> (game: Int, seat: Int)? {
        prefixValue(token.utf8).map { ($0 >> 1, $0 & 1) }
    }

    /// `id * 2 + seat` from the first `prefixDigits` bytes, if they are
    /// lowercase hex digits and name a game (ids start at 1), else nil.
    @inline(__always)
    private static func prefixValue<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        var n = 0, i = 0
        for b in bytes {
            guard i < prefixDigits else { break }
            guard let d = hexValue(b) else { return nil }
            n = n << 4 | d
            i += 1
        }
        return i == prefixDigits && n >= 2 ? n : nil
    }

    @inline(__always)
    private static func hexValue(_ b: UInt8) -> Int? {
        var d = b &- 0x30   // "0"…"9"
        if d > 9 {
            d = b &- 0x57   // "a"…"f"
            guard d >= 10 && d <= 15 else { return nil }
        }
        return Int(d)
    }

    /// What the row stores for `token` of `game`'s `seat`: `~` and the
    /// secret for a token of the new form naming that seat, else the token.
    static func stored(_ token: String, game: Int, seat: Int) -> String {
        var utf8 = token
        return utf8.withUTF8 { bytes in
            guard let n = named(bytes), n == game &* 2 &+ seat else { return token }
            return String(unsafeUninitializedCapacity: 1 + secretDigits) { out in
                out[0] = mark
                for i in 0..<secretDigits { out[1 + i] = bytes[prefixDigits + i] }
                return 1 + secretDigits
            }
        }
    }

    /// The token a stored value stands for (the inverse of `stored`).
    static func token(stored: String, game: Int, seat: Int) -> String {
        guard stored.utf8.first == mark, let prefix = prefix(game: game, seat: seat) else { return stored }
        return prefix + stored.dropFirst()
    }

    /// Whether the stored value is `~` and `secret`, in a time that does not
    /// depend on where they differ: every byte is compared, no early exit.
    static func matches(stored: String, secret: String) -> Bool {
        let a = Array(stored.utf8), b = [mark] + Array(secret.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
