/// Between people (the store split by what it stores, schema 17): who
/// follows and who blocks whom, reports for the operator, and the
/// operator's sanctions. `Store` owns one over its connection; it writes
/// only inside `Store`'s transaction (`willWrite`). Every read is by a
/// primary key or an index, and a name's own lists are bounded by the
/// server's caps, which it checks before it adds to them.
public final class SocialStore {
    let db: StoreDB
    /// Opens the turn's transaction (and the command's savepoint): `Transactions.write()`.
    var willWrite: () throws -> Void = {}

    init(db: StoreDB) {
        self.db = db
    }

    // MARK: Follows

    /// The names `follower` follows, as first used (their spelling in
    /// `players`), with when each was last seen; at most `limit`.
    public func follows(of follower: String, limit: Int) throws -> [(name: String, lastSeen: Int)] {
        try db.query("""
            SELECT coalesce(p.name, f.followee), coalesce(p.last_seen, 0) FROM follows f
            LEFT JOIN players p ON p.name = f.followee WHERE f.follower = ? LIMIT ?
            """, .text(follower), .of(limit)) { ($0.text(0), $0.int(1)) }
    }

    /// How many names `follower` follows.
    public func followCount(of follower: String) throws -> Int {
        try db.query("SELECT count(*) FROM follows WHERE follower = ?", .text(follower)) { $0.int(0) }.first ?? 0
    }

    /// Whether it was new.
    @discardableResult
    public func follow(_ follower: String, _ followee: String, now: Int) throws -> Bool {
        try willWrite()
        try db.run("INSERT OR IGNORE INTO follows(follower, followee, since) VALUES (?, ?, ?)", .text(follower), .text(followee), .of(now))
        return try db.changes > 0
    }

    public func unfollow(_ follower: String, _ followee: String) throws {
        try willWrite()
        try db.run("DELETE FROM follows WHERE follower = ? AND followee = ?", .text(follower), .text(followee))
    }

    // MARK: Blocks

    /// The names `blocker` blocks, at most `limit`, by name.
    public func blocks(of blocker: String, limit: Int) throws -> [String] {
        try db.query("SELECT blocked FROM blocks WHERE blocker = ? ORDER BY blocked LIMIT ?", .text(blocker), .of(limit)) { $0.text(0) }
    }

    public func block(_ blocker: String, _ blocked: String, now: Int) throws {
        try willWrite()
        try db.run("INSERT OR IGNORE INTO blocks(blocker, blocked, since) VALUES (?, ?, ?)", .text(blocker), .text(blocked), .of(now))
    }

    public func unblock(_ blocker: String, _ blocked: String) throws {
        try willWrite()
        try db.run("DELETE FROM blocks WHERE blocker = ? AND blocked = ?", .text(blocker), .text(blocked))
    }

    // MARK: Reports

    /// A report, as the operator reads it.
    public struct Report: Equatable, Sendable {
        public var id: Int
        public var reporter: String
        public var reported: String
        public var at: Int
        public var game: Int?
        public var reason: String
        /// The reported name's last lines to the reporter, oldest first.
        public var chat: [String]
    }

    public func addReport(reporter: String, reported: String, at: Int, game: Int?, reason: String, chat: [String]) throws {
        try willWrite()
        try db.run("INSERT INTO reports(reporter, reported, at, game_id, reason, chat) VALUES (?, ?, ?, ?, ?, ?)",
                   .text(reporter), .text(reported), .of(at), .of(game), .text(reason), .text(chat.joined(separator: "\n")))
    }

    /// How many reports `reporter` made since `since`, counted up to `limit` (an index range, stopped there).
    public func reportCount(by reporter: String, since: Int, limit: Int) throws -> Int {
        try db.query("SELECT count(*) FROM (SELECT 1 FROM reports WHERE reporter = ? AND at >= ? LIMIT ?) AS recent",
                     .text(reporter), .of(since), .of(limit)) { $0.int(0) }.first ?? 0
    }

    /// The newest reports first, at most `limit`, before report `before` if given.
    public func reports(limit: Int, before: Int? = nil) throws -> [Report] {
        try db.query("SELECT id, reporter, reported, at, game_id, reason, chat FROM reports WHERE id < ? ORDER BY id DESC LIMIT ?",
                     .of(before ?? Int.max), .of(limit)) { row in
            let chat = row.text(6)
            return Report(id: row.int(0), reporter: row.text(1), reported: row.text(2), at: row.int(3), game: row.optionalInt(4),
                          reason: row.text(5), chat: chat.isEmpty ? [] : chat.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
    }

    // MARK: Sanctions

    /// What the operator did to a name or a network.
    public enum SanctionKind: String, Sendable, CaseIterable {
        /// The name may not chat.
        case mute
        /// The name may not be used.
        case ban
        /// Nobody may connect from the network.
        case banNetwork = "ban-network"
    }

    public struct Sanction: Equatable, Sendable {
        public var kind: SanctionKind
        /// A name, or a network's key.
        public var target: String
        /// Unix seconds; nil: until lifted.
        public var until: Int?
        public var at: Int

        public init(kind: SanctionKind, target: String, until: Int?, at: Int) {
            self.kind = kind
            self.target = target
            self.until = until
            self.at = at
        }
    }

    /// The sanction of that kind on `target` in force at `now`, if any.
    public func sanction(_ kind: SanctionKind, on target: String, now: Int) throws -> Sanction? {
        try db.query("SELECT until, at FROM sanctions WHERE kind = ? AND target = ? AND (until IS NULL OR until > ?)",
                     .text(kind.rawValue), .text(target), .of(now)) { Sanction(kind: kind, target: target, until: $0.optionalInt(0), at: $0.int(1)) }.first
    }

    public func setSanction(_ sanction: Sanction) throws {
        try willWrite()
        try db.run("INSERT INTO sanctions(kind, target, until, at) VALUES (?, ?, ?, ?) ON CONFLICT(kind, target) DO UPDATE SET until = excluded.until, at = excluded.at",
                   .text(sanction.kind.rawValue), .text(sanction.target), .of(sanction.until), .of(sanction.at))
    }

    /// Lifts sanctions of those kinds on `target`; how many there were.
    @discardableResult
    public func liftSanctions(_ kinds: [SanctionKind], on target: String) throws -> Int {
        try willWrite()
        var n = 0
        for kind in kinds {
            try db.run("DELETE FROM sanctions WHERE kind = ? AND target = ?", .text(kind.rawValue), .text(target))
            n += try db.changes
        }
        return n
    }

    /// The sanctions in force at `now`, of `kind` (all kinds if nil), by
    /// target, at most `limit` after `after`: the operator's list, and the
    /// server's banned networks at its start.
    public func sanctions(_ kind: SanctionKind? = nil, now: Int, after: String? = nil, limit: Int) throws -> [Sanction] {
        try db.query("""
            SELECT kind, target, until, at FROM sanctions WHERE (CAST(? AS TEXT) IS NULL OR kind = ?) AND (until IS NULL OR until > ?)
            AND target > ? ORDER BY target, kind LIMIT ?
            """, .of(kind?.rawValue), .of(kind?.rawValue), .of(now), .text(after ?? ""), .of(limit)) { row in
            Sanction(kind: SanctionKind(rawValue: row.text(0)) ?? .ban, target: row.text(1), until: row.optionalInt(2), at: row.int(3))
        }
    }

    // MARK: Presence

    /// A name was last seen now (it left).
    public func touch(_ name: String, now: Int) throws {
        try willWrite()
        try db.run("UPDATE players SET last_seen = ? WHERE name = ?", .of(now), .text(name))
    }
}
