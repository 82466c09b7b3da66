import Testing
@testable import GhostStore

/// A pair's head-to-head record is kept once read or counted (a
/// rematch's start read it again): what the store answers must stay what
/// the `rivals` table holds through games counted, commands and turns
/// rolled back, and names in any case; a record read again costs no SQL.
@Suite struct HeadToHeadCacheTests {
    static let names = ["ann", "ANN", "bob", "Cy", "dee"]
    static let kinds = ["ghost", "hangman"]

    /// Every pair's record as the store answers it.
    private func answers(_ store: Store) throws -> [String] {
        try Self.kinds.flatMap { kind in
            try Self.names.flatMap { a in try Self.names.map { b in "\(kind) \(a)-\(b) \(try store.scoreStore.headToHead(kind: kind, a, b))" } }
        }
    }

    /// The same, read from the table (as the store read it before the cache).
    private func stored(_ db: StoreDB) throws -> [String] {
        try Self.kinds.flatMap { kind in
            try Self.names.flatMap { a in
                try Self.names.map { b in
                    let swapped = a.lowercased() > b.lowercased()
                    let (first, second) = swapped ? (b, a) : (a, b)
                    let row = try db.query("SELECT wins0, wins1 FROM rivals WHERE kind = ? AND player0 = ? AND player1 = ?",
                                           .text(kind), .text(first), .text(second)) { ($0.int(0), $0.int(1)) }.first ?? (0, 0)
                    return "\(kind) \(a)-\(b) \(swapped ? (row.1, row.0) : row)"
                }
            }
        }
    }

    @Test("Head-to-head records read again cost no SQL and stay what the table holds through counts, rollbacks and a restart")
    func recordsStayExact() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        var store = try openStore(dir.path)
        defer { store.close() }
        var mix: UInt64 = 11
        func next(_ n: Int) -> Int {
            mix = mix &* 6364136223846793005 &+ 1442695040888963407
            return Int((mix >> 33) % UInt64(n))
        }
        for step in 0..<300 {
            store.beginCommand(savepoint: next(2) == 0)
            let kind = Self.kinds[next(Self.kinds.count)]
            let a = Self.names[next(Self.names.count)], b = Self.names[next(Self.names.count)]
            _ = try store.scoreStore.headToHead(kind: kind, a, b)   // a game's start
            try store.scoreStore.recordHeadToHead(kind: kind, winner: a, loser: b)
            if next(6) == 0 {
                // Without a savepoint a written command is undone with the whole turn.
                if !store.rollbackCommand() { store.rollback() }
            } else {
                try store.endCommand()
            }
            if next(10) == 0 { store.rollback() } else if next(3) == 0 { try store.commit() }
            #expect(try answers(store) == (try stored(store.db)), "step \(step)")
        }
        store.db.statementLog = []
        _ = try answers(store)
        #expect(store.db.statementLog == [])
        store.db.statementLog = nil
        try store.commit()
        let before = try answers(store)
        store.close()
        store = try openStore(dir.path)
        #expect(try answers(store) == before)
    }
}
