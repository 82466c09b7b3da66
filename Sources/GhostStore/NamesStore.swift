/// Names (the store split by what it stores): the names ever
/// used and when, their preferences, and the registered ones with their
/// password hashes (schema 10). `Store` owns one over its connection and
/// answers for it (Store+Names.swift); it writes only inside `Store`'s
/// transaction (`willWrite`).
final class NamesStore {
    let db: StoreDB
    /// Opens the turn's transaction (and the command's savepoint): `Transactions.write()`.
    var willWrite: () throws -> Void = {}
    /// A name (lowercased) was stored, perhaps with a new spelling: the
    /// score store's cached rows of it are read again.
    var nameStored: (String) -> Void = { _ in }

    init(db: StoreDB) {
        self.db = db
    }

    /// At most this many names starting with a prefix are looked at by
    /// `recentNames(prefix:limit:)`: the first ones in alphabetical order.
    static let namesPrefixScan = 1000

    /// Remembers a name (the first spelling wins) and when it was last used.
    /// Returns the name as stored.
    @discardableResult
    func registerName(_ name: String, now: Int) throws -> String {
        try willWrite()
        // A name seen before it was registered may now be stored with this spelling.
        let key = name.lowercased()
        nameStored(key)
        try db.run("INSERT INTO players(name, first_seen, last_seen) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET last_seen = excluded.last_seen",
                   .text(name), .of(now), .of(now))
        return try db.query("SELECT name FROM players WHERE name = ?", .text(name)) { $0.text(0) }.first ?? name
    }

    func preference(_ key: Preference, for name: String) throws -> String {
        try preferences(for: name)[key.rawValue] ?? key.defaultValue
    }

    func setPreference(_ key: Preference, _ value: String, for name: String, now: Int) throws {
        try setPreference(key.rawValue, value, for: name, now: now)
    }

    /// Every preference a name has saved, by key (`lang`, and the game
    /// kinds' settings such as `hangman-mode`); keys never saved are absent.
    func preferences(for name: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for (key, value) in try db.query("SELECT key, value FROM preferences WHERE player = ?", .text(name), row: { ($0.text(0), $0.text(1)) }) {
            out[key] = value
        }
        return out
    }

    /// Saves one preference under any key: the store does not check keys or
    /// values (the server does). Registers the name if it is new.
    func setPreference(_ key: String, _ value: String, for name: String, now: Int) throws {
        try registerName(name, now: now)
        try db.run("INSERT INTO preferences(player, key, value) VALUES (?, ?, ?) ON CONFLICT(player, key) DO UPDATE SET value = excluded.value",
                   .text(name), .text(key), .text(value))
    }

    // MARK: Looking names up (NAMES, NAME): each bounded by an index of schema 8


    /// The most recently used names (by their last NAME; names used in the
    /// same second alphabetically), newest first, at most `limit`. `more`:
    /// other names match too. Both walk an index and stop early: without a
    /// prefix, the names by last use, `limit` + 1 of them; with a prefix
    /// (any case), the names in alphabetical order from the prefix, at most
    /// `namesPrefixScan` of them, of which the most recent are listed:
    /// exact when no more names match; when more do, `more` is true.
    func recentNames(prefix: String?, limit: Int) throws -> (names: [String], more: Bool) {
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
        let scan = NamesStore.namesPrefixScan
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
    func isKnownName(_ name: String) throws -> Bool {
        try !db.query("SELECT 1 FROM players WHERE name = ?", .text(name)) { $0.int(0) }.isEmpty
    }

    /// Every name ever used, sorted case-insensitively.
    func allNames() throws -> [String] {
        try db.query("SELECT name FROM players ORDER BY name COLLATE NOCASE") { $0.text(0) }
    }

    // MARK: Registered names (schema 10): each call one primary-key look-up,
    // or a bounded walk of the accounts in name order


    /// The account of `name` (any case), or nil for a guest's name.
    func account(_ name: String) throws -> Store.Account? {
        try db.query("SELECT name, hash, created, changed FROM accounts WHERE name = ?", .text(name)) {
            Store.Account(name: $0.text(0), hash: $0.text(1), created: $0.int(2), changed: $0.int(3))
        }.first
    }

    /// Whether `name` (any case) is registered.
    func isRegistered(_ name: String) throws -> Bool {
        try !db.query("SELECT 1 FROM accounts WHERE name = ?", .text(name)) { $0.int(0) }.isEmpty
    }

    /// Registers `name` (stored as a player first if it is new) with
    /// `hash`. Returns false, changing nothing, when it is registered already.
    func createAccount(_ name: String, hash: String, now: Int) throws -> Bool {
        guard try !isRegistered(name) else { return false }
        let stored = try registerName(name, now: now)   // begins the write
        try db.run("INSERT INTO accounts(name, hash, created, changed) VALUES (?, ?, ?, ?)",
                   .text(stored), .text(hash), .of(now), .of(now))
        return true
    }

    /// Replaces the password hash of a registered name. False: no such account.
    func setPasswordHash(_ name: String, hash: String, now: Int) throws -> Bool {
        guard try isRegistered(name) else { return false }
        try willWrite()
        try db.run("UPDATE accounts SET hash = ?, changed = ? WHERE name = ?", .text(hash), .of(now), .text(name))
        return true
    }

    /// Removes the registration of `name`: it becomes a guest's name again;
    /// its games and scores stay. False: it was not registered.
    func deleteAccount(_ name: String) throws -> Bool {
        guard try isRegistered(name) else { return false }
        try willWrite()
        try db.run("DELETE FROM accounts WHERE name = ?", .text(name))
        return true
    }

    /// Registered names in alphabetical order (any case), after `after` when
    /// given, at most `limit`: pages through the accounts, each page a walk of
    /// the primary key.
    func accounts(after: String? = nil, limit: Int) throws -> [Store.Account] {
        try db.query("SELECT name, hash, created, changed FROM accounts WHERE name > ? ORDER BY name LIMIT ?",
                     .text(after ?? ""), .of(max(0, limit))) {
            Store.Account(name: $0.text(0), hash: $0.text(1), created: $0.int(2), changed: $0.int(3))
        }
    }

    /// Which of `names` are registered (one primary-key look-up each): for
    /// marking a page of SCORES.
    func registered(among names: [String]) throws -> Set<String> {
        var out: Set<String> = []
        for n in names where try isRegistered(n) { out.insert(n) }
        return out
    }

    /// `name` as first used here (any case), nil for a name never used: one primary-key look-up.
    func storedName(_ name: String) throws -> String? {
        try db.query("SELECT name FROM players WHERE name = ?", .text(name)) { $0.text(0) }.first
    }
}
