/// The caps' counts of games in progress (`activeGameCount(player:limit:)`
/// and `(network:limit:)`), kept in memory once read (issue #29). Each NEW
/// and JOIN asked SQLite for two of them, about 10,000 instructions each:
/// a third of the work of starting a game. A count is read from SQLite the
/// first time it is asked for, remembered when it is below the limit asked
/// with (then it is exact: no seat's count reached its LIMIT), and from then
/// on kept in step with every statement that starts or ends a game in
/// progress: `createGame` adds the new game, `finishGame` and `abortGame`
/// take it away (they read its players and networks, and whether it was in
/// progress, by its primary key first: an UPDATE … RETURNING cost more
/// than that read, measured).
/// Anything else that could change them (`noteStarted`, a rollback of a
/// command or of the turn) forgets every count, which are then read again.
/// Nothing here grows with the database: at most one entry per name or
/// network asked about since the last rollback.
struct ActiveGameCounts {
    enum Key: Hashable {
        /// A name, ASCII letters folded as SQLite's NOCASE folds them.
        case player(String)
        /// A network exactly as stored (`net0`/`net1` compare as BINARY).
        case network(String)
    }

    private var counts: [Key: Int] = [:]

    /// The name as the `games_active_player` indexes compare it.
    static func folded(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return name }
        return String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The exact count for `key` when it is known and below `limit` (so that
    /// it is what the bounded SQL count would return), else nil.
    func count(_ key: Key, below limit: Int) -> Int? {
        guard let n = counts[key], n < limit else { return nil }
        return n
    }

    /// What the SQL count returned with `limit`: kept when below it (exact).
    mutating func read(_ key: Key, _ n: Int, limit: Int) {
        if n < limit { counts[key] = n }
    }

    /// A game in progress was added (+1) or taken away (-1): each remembered
    /// count it is in changes. A name in both seats counts twice (once per
    /// seat, as the SQL counts it); a network in both seats once.
    mutating func change(players p0: String, _ p1: String, networks n0: String, _ n1: String, by delta: Int) {
        guard !counts.isEmpty else { return }
        adjust(.player(Self.folded(p0)), delta)
        adjust(.player(Self.folded(p1)), delta)
        if !n0.isEmpty { adjust(.network(n0), delta) }
        if !n1.isEmpty && n1 != n0 { adjust(.network(n1), delta) }
    }

    private mutating func adjust(_ key: Key, _ delta: Int) {
        guard let n = counts[key] else { return }
        counts[key] = n + delta >= 0 ? n + delta : nil
    }

    /// Whether any count is remembered (else no change needs looking at).
    var remembersAny: Bool { !counts.isEmpty }

    /// Forgets every count: they are read from SQLite again when asked for.
    mutating func forgetAll() {
        if !counts.isEmpty { counts.removeAll() }
    }
}
