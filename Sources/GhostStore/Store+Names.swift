extension Store {
    // MARK: Looking names up (NAMES, NAME): each bounded by an index of schema 8

    /// At most this many names starting with a prefix are looked at by
    /// `recentNames(prefix:limit:)`: the first ones in alphabetical order.
    public static let namesPrefixScan = 1000

    /// The most recently used names (by their last NAME; names used in the
    /// same second alphabetically), newest first, at most `limit`. `more`:
    /// other names match too. Both walk an index and stop early: without a
    /// prefix, the names by last use, `limit` + 1 of them; with a prefix
    /// (any case), the names in alphabetical order from the prefix, at most
    /// `namesPrefixScan` of them, of which the most recent are listed:
    /// exact when no more names match; when more do, `more` is true.
    public func recentNames(prefix: String?, limit: Int) throws -> (names: [String], more: Bool) {
        let limit = max(0, limit)
        guard let prefix, !prefix.isEmpty else {
            let rows = try db.query("SELECT name FROM players ORDER BY last_seen DESC, name LIMIT ?",
                                    .of(limit + 1)) { $0.text(0) }
            return (Array(rows.prefix(limit)), rows.count > limit)
        }
        // The index range of names that start with the prefix (NOCASE folds
        // ASCII letters, as LIKE does); LIKE keeps exactly those. `_` and `%`
        // in a prefix are literal.
        let pattern = prefix.reduce(into: "") { out, c in
            if c == "_" || c == "%" || c == "\\" { out.append("\\") }
            out.append(c)
        } + "%"
        let scan = Store.namesPrefixScan
        var place = 0
        var rows = try db.query("""
            SELECT name, last_seen FROM players WHERE name >= ? AND name < ? AND name LIKE ? ESCAPE '\\'
            ORDER BY name LIMIT ?
            """, .text(prefix), .text(prefix + "\u{10FFFF}"), .text(pattern), .of(scan + 1)) { r in
            place += 1
            return (name: r.text(0), seen: r.int(1), place: place)
        }
        let cut = rows.count > scan
        if cut { rows.removeLast() }
        // Newest first; names used in the same second in alphabetical order,
        // the order of the walk.
        rows.sort { $0.seen != $1.seen ? $0.seen > $1.seen : $0.place < $1.place }
        return (rows.prefix(limit).map(\.name), cut || rows.count > limit)
    }

    /// Whether `name` has been used before (any case).
    public func isKnownName(_ name: String) throws -> Bool {
        try !db.query("SELECT 1 FROM players WHERE name = ?", .text(name)) { $0.int(0) }.isEmpty
    }

    /// Every name ever used, sorted case-insensitively.
    public func allNames() throws -> [String] {
        try db.query("SELECT name FROM players ORDER BY name COLLATE NOCASE") { $0.text(0) }
    }
}
