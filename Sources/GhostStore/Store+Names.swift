/// The names' part of `Store`'s API, answered by its `NamesStore`.
extension Store {
    /// A registered name: as first used, with its password hash.
    public struct Account: Equatable, Sendable {
        public var name: String
        public var hash: String
        public var created: Int
        public var changed: Int
    }

    /// Remembers a name (the first spelling wins) and when it was last used.
    /// Returns the name as stored.
    @discardableResult
    public func registerName(_ name: String, now: Int) throws -> String {
        try nameStore.registerName(name, now: now)
    }

    public func preference(_ key: Preference, for name: String) throws -> String {
        try nameStore.preference(key, for: name)
    }

    public func setPreference(_ key: Preference, _ value: String, for name: String, now: Int) throws {
        try nameStore.setPreference(key, value, for: name, now: now)
    }

    /// Every preference a name has saved, by key (`lang`, and the game
    /// kinds' settings such as `hangman-mode`); keys never saved are absent.
    public func preferences(for name: String) throws -> [String: String] {
        try nameStore.preferences(for: name)
    }

    /// Saves one preference under any key: the store does not check keys or
    /// values (the server does). Registers the name if it is new.
    public func setPreference(_ key: String, _ value: String, for name: String, now: Int) throws {
        try nameStore.setPreference(key, value, for: name, now: now)
    }

    /// The most recently used names (by their last NAME; names used in the
    /// same second alphabetically), newest first, at most `limit`. `more`:
    /// other names match too. Both walk an index and stop early: without a
    /// prefix, the names by last use, `limit` + 1 of them; with a prefix
    /// (any case), the names in alphabetical order from the prefix, at most
    /// `NamesStore.namesPrefixScan` of them, of which the most recent are listed:
    /// exact when no more names match; when more do, `more` is true.
    public func recentNames(prefix: String?, limit: Int) throws -> (names: [String], more: Bool) {
        try nameStore.recentNames(prefix: prefix, limit: limit)
    }

    /// Whether `name` has been used before (any case).
    public func isKnownName(_ name: String) throws -> Bool {
        try nameStore.isKnownName(name)
    }

    /// The account of `name` (any case), or nil for a guest's name.
    public func account(_ name: String) throws -> Account? {
        try nameStore.account(name)
    }

    /// Whether `name` (any case) is registered.
    public func isRegistered(_ name: String) throws -> Bool {
        try nameStore.isRegistered(name)
    }

    /// Registers `name` (stored as a player first if it is new) with
    /// `hash`. Returns false, changing nothing, when it is registered already.
    public func createAccount(_ name: String, hash: String, now: Int) throws -> Bool {
        try nameStore.createAccount(name, hash: hash, now: now)
    }

    /// Replaces the password hash of a registered name. False: no such account.
    public func setPasswordHash(_ name: String, hash: String, now: Int) throws -> Bool {
        try nameStore.setPasswordHash(name, hash: hash, now: now)
    }

    /// Removes the registration of `name`: it becomes a guest's name again;
    /// its games and scores stay. False: it was not registered.
    public func deleteAccount(_ name: String) throws -> Bool {
        guard try nameStore.deleteAccount(name) else { return false }
        try ratingStore.unlistRatings(of: name)   // TOP lists registered names only
        return true
    }

    /// Registered names in alphabetical order (any case), after `after` when
    /// given, at most `limit`: pages through the accounts, each page a walk of
    /// the primary key.
    public func accounts(after: String? = nil, limit: Int) throws -> [Account] {
        try nameStore.accounts(after: after, limit: limit)
    }

    /// Which of `names` are registered (one primary-key look-up each): for
    /// marking a page of SCORES.
    public func registered(among names: [String]) throws -> Set<String> {
        try nameStore.registered(among: names)
    }

    /// `name` as first used here (any case), nil for a name never used: one primary-key look-up.
    public func storedName(_ name: String) throws -> String? {
        try nameStore.storedName(name)
    }
}
