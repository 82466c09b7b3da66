import Testing
@testable import GhostStore

/// The typed `run` and `first` bind text from the connection's arena, which
/// SQLite reads in place: what is stored must be exactly the
/// text given, short or long, empty (not NULL), several in one statement,
/// past the arena's size (SQLite's own copy), and a statement run again
/// must store its new values, not the old ones.
@Suite struct BoundTextTests {
    static let insert = SQL("INSERT INTO t(a, b, c, d) VALUES (?, ?, ?, ?)")
    static let find = SQL("SELECT a, b, c, d FROM t WHERE a = ? AND c = ?")

    @Test("Text bound in place is stored exactly: short, empty, long, past the arena, and new values on reuse")
    func boundTextIsStoredExactly() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let db = try SQLiteDatabase(path: dir.database)
        defer { db.close() }
        try db.execute("CREATE TABLE t (a TEXT, b TEXT, c TEXT, d INTEGER)")
        let big = String(repeating: "x", count: SQLiteDatabase.arenaSize - 10)
        let rows: [(String, String?, String, Int)] = [
            ("a", "é-ü", "", 1),                                  // short (inline in the String), non-ASCII, empty
            ("bb", nil, "a text longer than fifteen bytes", 2),   // NULL, a heap String
            ("c", big, "after the big one", 3),                   // fills the arena: the next does not fit
            (big + "y", "z", big, 4),                             // past the arena on its own
            ("a", "second", "", 5),                               // reused, new values
        ]
        for (a, b, c, d) in rows { try db.run(Self.insert, a, b, c, d) }
        // Long texts shown by their length and their ends (a failure stays readable).
        func show(_ text: String?) -> String {
            guard let text else { return "NULL" }
            return text.count <= 40 ? text : "\(text.prefix(3))…\(text.suffix(3))(\(text.utf8.count))"
        }
        let stored = try db.query("SELECT a, b, c, d FROM t ORDER BY d") { r in
            "\(show(r.text(0)))|\(show(r.optionalText(1)))|\(show(r.text(2)))|\(r.int(3))|\(r.optionalText(2) == nil ? "null" : "text")"
        }
        #expect(stored == rows.map { "\(show($0.0))|\(show($0.1))|\(show($0.2))|\($0.3)|text" })
        // A look-up binds in place too, and is not confused by an earlier binding.
        #expect(try db.first(Self.find, "c", "after the big one") { $0.int(3) } == 3)
        #expect(try db.first(Self.find, "a", "") { $0.text(1) } == "é-ü")
        #expect(try db.first(Self.find, big + "y", big) { $0.int(3) } == 4)
        #expect(try db.first(Self.find, "a", "nothing") { $0.int(3) } == nil)
    }
}
