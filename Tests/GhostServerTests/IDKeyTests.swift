@testable import GhostServer
import Testing

/// `IDKey` (IDKey.swift): the sessions' and rooms' dictionaries are keyed by
/// an id hashed with a few multiplications; they must find what they hold
/// and spread the consecutive ids the server hands out over their buckets.
@Suite struct IDKeyTests {
    @Test func consecutiveIdsSpreadOverTheBuckets() {
        for seed in [0, 1, -7, Int.max] {
            // The low bits pick the bucket: 1,024 consecutive ids in a table of 1,024 buckets.
            let buckets = Set((1...1_024).map { IDKey($0)._rawHashValue(seed: seed) & 1_023 })
            #expect(buckets.count > 600, "seed \(seed): \(buckets.count) buckets")
            // The same id hashes the same, and another seed moves it.
            #expect(IDKey(42)._rawHashValue(seed: seed) == IDKey(42)._rawHashValue(seed: seed))
            #expect(IDKey(42)._rawHashValue(seed: seed) != IDKey(42)._rawHashValue(seed: seed ^ 0x5555))
        }
    }

    @Test func dictionariesFindEveryKey() {
        var table: [IDKey: Int] = [:]
        let ids = Array(1...5_000) + [0, -1, Int.max, Int.min]
        for id in ids { table[IDKey(id)] = id &* 3 }
        #expect(table.count == ids.count)
        #expect(ids.allSatisfy { table[IDKey($0)] == $0 &* 3 })
        #expect(table[IDKey(5_001)] == nil)
        for id in ids where id % 2 == 0 { table[IDKey(id)] = nil }
        #expect(ids.allSatisfy { table[IDKey($0)] == ($0 % 2 == 0 ? nil : $0 &* 3) })
        let sessions = Sessions()
        sessions.byID[7] = Lobby.Session(lang: "en")
        #expect(sessions.has(7) && !sessions.has(8) && sessions.keys == [7])
        #expect(sessions.map(\.key) == [7])
    }
}
