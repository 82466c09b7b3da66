extension Store {
    // MARK: Registered names (schema 10): each call one primary-key look-up,
    // or a bounded walk of the accounts in name order

    /// A registered name: as first used, with its password hash.
    public struct Account: Equatable, Sendable {
        public var name: String
        public var hash: String
        public var created: Int
        public var changed: Int
    }

    /// The account of `name` (any case), or nil for a guest's name.
    public func account(_ name: String) throws -> Account? {
        try db.query("SELECT name, hash, created, changed FROM accounts WHERE name = ?", .text(name)) {
            Account(name: $0.text(0), hash: $0.text(1), created: $0.int(2), changed: $0.int(3))
        }.first
    }

    /// Whether `name` (any case) is registered.
    public func isRegistered(_ name: String) throws -> Bool {
        try !db.query("SELECT 1 FROM accounts WHERE name = ?", .text(name)) { $0.int(0) }.isEmpty
    }

    /// Registers `name` (stored as a player first if it is new) with
    /// `hash`. Returns false, changing nothing, when it is registered already.
    public func createAccount(_ name: String, hash: String, now: Int) throws -> Bool {
        guard try !isRegistered(name) else { return false }
        let stored = try registerName(name, now: now)   // begins the write
        try db.run("INSERT INTO accounts(name, hash, created, changed) VALUES (?, ?, ?, ?)",
                   .text(stored), .text(hash), .of(now), .of(now))
        return true
    }

    /// Replaces the password hash of a registered name. False: no such account.
    public func setPasswordHash(_ name: String, hash: String, now: Int) throws -> Bool {
        guard try isRegistered(name) else { return false }
        try write()
        try db.run("UPDATE accounts SET hash = ?, changed = ? WHERE name = ?", .text(hash), .of(now), .text(name))
        return true
    }

    /// Removes the registration of `name`: it becomes a guest's name again;
    /// its games and scores stay. False: it was not registered.
    public func deleteAccount(_ name: String) throws -> Bool {
        guard try isRegistered(name) else { return false }
        try write()
        try db.run("DELETE FROM accounts WHERE name = ?", .text(name))
        try unlistRatings(of: name)   // TOP lists registered names only
        return true
    }

    /// Registered names in alphabetical order (any case), after `after` when
    /// given, at most `limit`: pages through the accounts, each page a walk of
    /// the primary key.
    public func accounts(after: String? = nil, limit: Int) throws -> [Account] {
        try db.query("SELECT name, hash, created, changed FROM accounts WHERE name > ? ORDER BY name LIMIT ?",
                     .text(after ?? ""), .of(max(0, limit))) {
            Account(name: $0.text(0), hash: $0.text(1), created: $0.int(2), changed: $0.int(3))
        }
    }

    /// Which of `names` are registered (one primary-key look-up each): for
    /// marking a page of SCORES.
    public func registered(among names: [String]) throws -> Set<String> {
        var out: Set<String> = []
        for n in names where try isRegistered(n) { out.insert(n) }
        return out
    }
}
