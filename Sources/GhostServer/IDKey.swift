/// A dictionary key for an id the server hands out itself (a connection's,
/// a game's): hashed by a few multiplications instead of `Hasher`'s SipHash
/// (its rounds for every `Int`, and the lobby looks a session or a room
/// up several times a letter). The ids come from counters, not from clients,
/// so no one can choose keys that collide; the table's own seed is still
/// mixed in, and the mix (a bijection of 64 bits) spreads consecutive ids.
struct IDKey: Hashable, ExpressibleByIntegerLiteral, Comparable {
    let id: Int

    init(_ id: Int) { self.id = id }
    init(integerLiteral id: Int) { self.id = id }

    func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// What `Dictionary` and `Set` ask (the `Hashable` requirement behind `hashValue`).
    func _rawHashValue(seed: Int) -> Int {
        var x = UInt64(bitPattern: Int64(id)) ^ UInt64(bitPattern: Int64(seed))
        x = (x ^ (x >> 32)) &* 0xD6E8_FEB8_6659_FD93
        x = (x ^ (x >> 32)) &* 0xD6E8_FEB8_6659_FD93
        return Int(bitPattern: UInt(x ^ (x >> 32)))
    }

    static func < (a: IDKey, b: IDKey) -> Bool { a.id < b.id }
}
