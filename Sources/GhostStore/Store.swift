#if canImport(Glibc)
import Glibc
#endif

/// ghostd's durable state in one SQLite database (WAL journal).
///
/// Writes open a transaction lazily; the server calls `commit()` once per
/// event-loop turn, before it sends that turn's replies, so a reply never
/// confirms a change that is not on disk.
///
/// Within a turn, each command's writes can be made one unit: between
/// `beginCommand()` and `endCommand()`, the first write takes a SAVEPOINT, so
/// `rollbackCommand()` undoes that command's writes and nothing else. A
/// command that writes nothing costs no SQL. A command begun without a
/// savepoint (a letter: it costs about as much as the letter's insert) is
/// still undone alone if its first write fails, as SQLite undoes a failed
/// statement; if a later one fails, the whole transaction is rolled back.
public final class Store {
    public static let fileName = "ghostd.sqlite3"

    /// How hard commits wait for the disk.
    public enum Durability: String, Sendable, CaseIterable {
        /// fsync on every commit: survives power loss (the default).
        case full
        /// WAL with synchronous=NORMAL: survives a process crash; the last
        /// commits may be lost on power loss.
        case normal
    }

    public let path: String
    /// Whether a commit is durable only once the caller has synced `walPath`.
    public let callerSyncs: Bool
    /// The write-ahead log beside the database.
    public var walPath: String { path + "-wal" }
    /// The folder that holds both.
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
    let db: SQLiteDatabase
    /// The boards of wins, head-to-head records and best-games lists, with
    /// their statements and caches (ScoresStore.swift).
    let scoreStore: ScoresStore
    /// Where the current command's entries start in the score store's journal.
    private var commandJournalStart = 0
    /// The caps' counts of games in progress, once read (ActiveGameCounts.swift).
    var activeCounts = ActiveGameCounts()

    /// Between beginCommand() and endCommand()/rollbackCommand().
    private var inCommand = false
    /// The current command takes a savepoint at its first write.
    private var commandUsesSavepoint = true
    /// The current command has written (called `write()`).
    private var commandWrote = false
    /// The current command has taken its savepoint.
    private var commandSavepoint = false
    /// `totalChanges` before the current command's first write.
    private var changesBeforeCommand = 0
    /// A command that wrote has ended (kept) in the open transaction.
    private var keptCommands = false

    /// Failures that are not SQLite's own.
    public enum Failure: Error, CustomStringConvertible {
        /// SQLite rolled back the whole transaction after a failed statement:
        /// writes of earlier commands this turn are gone too. Writes are
        /// refused until `commit()` or `rollback()` ends the turn.
        case transactionLost
        /// The data folder (or one of its parents) could not be created.
        case cannotCreateDirectory(String, reason: String)
        public var description: String {
            switch self {
            case .transactionLost: return "the transaction was rolled back after a failed write"
            case .cannotCreateDirectory(let path, let reason): return "cannot create the folder \(path): \(reason)"
            }
        }
    }

    /// `mkdir -p`: creates `directory` and any missing parents (mode 0755).
    static func makeDirectories(_ directory: String) throws {
        var path = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + part
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw Failure.cannotCreateDirectory(path, reason: String(cString: strerror(errno)))
            }
        }
        var info = stat()
        guard stat(directory.isEmpty ? "." : directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure.cannotCreateDirectory(directory, reason: "not a folder")
        }
    }
    /// Set when the open transaction was lost (see `Failure.transactionLost`).
    public private(set) var transactionLost = false

    /// Opens (creating if there is no file) the database in `directory`,
    /// checks it (throwing `Refusal` for an empty, damaged or newer file,
    /// untouched), and migrates it.
    /// `maxPageCount` > 0 caps the database at that many pages of 4 KiB
    /// (`Store.limitPageSize`, whatever the file's own page size; `PRAGMA
    /// max_page_count`, never below its current size): a write that needs
    /// more fails, as on a full disk.
    ///
    /// `syncedByCaller`: with `.full`, COMMIT does not wait for the disk
    /// (SQLite's synchronous=NORMAL); the caller promises to fdatasync the
    /// file at `walPath` before it treats a commit as done. Checkpoints still
    /// sync the WAL before copying it and the database after, so a WAL frame
    /// is only ever overwritten once its page is on disk in the database.
    public init(directory: String, durability: Durability = .full, maxPageCount: Int = 0,
                syncedByCaller: Bool = false) throws {
        callerSyncs = durability == .full && syncedByCaller
        try Store.makeDirectories(directory)
        path = directory.hasSuffix("/") ? directory + Store.fileName : directory + "/" + Store.fileName
        db = try Store.openChecked(path: path)   // refuses a damaged or newer database (Store+Startup.swift)
        scoreStore = ScoresStore(db: db)
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=\(durability == .full && !callerSyncs ? "FULL" : "NORMAL")")
        try db.execute("PRAGMA foreign_keys=ON")
        try Migrations.migrate(db)   // Store+Schema.swift
        if maxPageCount > 0 {
            let bytes = maxPageCount * Store.limitPageSize
            try db.execute("PRAGMA max_page_count = \(min((bytes + pageSize - 1) / pageSize, 4_294_967_294))")
        }
        try scoreStore.loadWinCounts()
        scoreStore.willWrite = { [unowned self] in try self.write() }
    }

    /// The database's page size in bytes (1,024 for a database made by
    /// this version, 4,096 for an older one: `Store.newPageSize`).
    public var pageSize: Int {
        let size = (try? db.query("PRAGMA page_size") { $0.int(0) }.first) ?? nil
        return max(512, size ?? Store.limitPageSize)
    }

    /// The database's size, and the most it may have (`PRAGMA page_count`,
    /// `max_page_count`), both in pages of 4 KiB (`Store.limitPageSize`,
    /// the unit of `maxPageCount` and `--max-db-pages`), rounded up.
    public func pageCounts() throws -> (pages: Int, max: Int) {
        let pages = try db.query("PRAGMA page_count") { $0.int(0) }.first ?? 0
        let max = try db.query("PRAGMA max_page_count") { $0.int(0) }.first ?? 0
        let size = pageSize, unit = Store.limitPageSize
        return ((pages * size + unit - 1) / unit, (max * size + unit - 1) / unit)
    }

    public func close() { db.close() }

    // MARK: Schema (the migrations: Migrations, in Store+Schema.swift)

    public var userVersion: Int {
        (try? db.query("PRAGMA user_version") { $0.int(0) }.first) ?? 0
    }

    // MARK: Transactions

    func write() throws {
        if transactionLost { throw Failure.transactionLost }
        if !db.isInTransaction { try db.run(SQLs.begin) }   // prepared once, not parsed every turn
        if !inCommand {
            keptCommands = true
        } else if !commandWrote {
            commandWrote = true
            changesBeforeCommand = db.totalChanges
            if commandUsesSavepoint {
                try db.run(SQLs.savepoint)   // prepared once too
                commandSavepoint = true
            }
        }
    }

    /// Whether writes are waiting for `commit()`.
    public var hasPendingWrites: Bool { db.isInTransaction }

    /// Commits the writes made since the last commit, if any. If that fails,
    /// every one of them is rolled back (nothing of the turn is stored) and
    /// the error is thrown; the store is then ready for the next turn.
    public func commit() throws {
        inCommand = false
        commandSavepoint = false
        keptCommands = false
        if transactionLost {
            rollback()
            throw Failure.transactionLost
        }
        guard db.isInTransaction else { return }
        do {
            try db.run(SQLs.commit)
        } catch {
            rollback()
            throw error
        }
        committedCaches()
    }

    /// Rolls back every write since the last commit.
    public func rollback() {
        if db.isInTransaction { try? db.run("ROLLBACK") }
        inCommand = false
        commandSavepoint = false
        keptCommands = false
        transactionLost = false
        scoreStore.undo(from: 0)
        activeCounts.forgetAll()
        committedCaches()
    }

    /// Nothing written so far can be rolled back any more.
    private func committedCaches() {
        scoreStore.committed()
        commandJournalStart = 0
    }

    // MARK: Commands

    /// Starts a command: its writes, if any, can be undone alone. Costs no
    /// SQL. Without `savepoint`, only a failure of its first write statement
    /// is undone alone (see `rollbackCommand()`).
    public func beginCommand(savepoint: Bool = true) {
        inCommand = true
        commandUsesSavepoint = savepoint
        commandWrote = false
        commandSavepoint = false
        commandJournalStart = scoreStore.journalMark
    }

    /// Keeps the command's writes (in the turn's transaction, for `commit()`).
    /// Returns whether the command wrote anything.
    @discardableResult
    public func endCommand() throws -> Bool {
        if commandSavepoint {
            try db.run(SQLs.release)   // on failure the command is still open, for rollbackCommand()
            commandSavepoint = false
        }
        inCommand = false
        guard commandWrote else { return false }
        commandWrote = false
        keptCommands = true
        return true
    }

    /// Undoes the command's writes and ends it. Returns false if that was not
    /// possible without losing the writes of earlier commands of this turn
    /// (SQLite rolled the whole transaction back): `transactionLost` is then
    /// set, writes are refused, and the turn must end with `commit()` (which
    /// throws) or `rollback()`.
    @discardableResult
    public func rollbackCommand() -> Bool {
        inCommand = false
        // Whatever happens below, this command's writes are undone (alone, or
        // with the whole turn: then rollback() undoes the rest).
        scoreStore.undo(from: commandJournalStart)
        activeCounts.forgetAll()
        guard commandWrote else { return !transactionLost }
        commandWrote = false
        let savepoint = commandSavepoint
        commandSavepoint = false
        guard db.isInTransaction else {
            // The failed statement took the whole transaction with it: that
            // is this command alone unless an earlier one wrote in it.
            if keptCommands { transactionLost = true }
            return !transactionLost
        }
        if savepoint {
            do {
                try db.run("ROLLBACK TO command")
                try db.run("RELEASE command")
                return true
            } catch {}
        } else if db.totalChanges == changesBeforeCommand {
            // SQLite undid the failed statement, and nothing before it changed.
            return true
        }
        // This command's earlier writes cannot be undone alone.
        try? db.run("ROLLBACK")
        if keptCommands { transactionLost = true }
        return !transactionLost
    }

    // MARK: Names and preferences

    /// Remembers a name (the first spelling wins) and when it was last used.
    /// Returns the name as stored.
    @discardableResult
    public func registerName(_ name: String, now: Int) throws -> String {
        try write()
        // A name seen before it was registered may now be stored with this spelling.
        let key = name.lowercased()
        scoreStore.forget(key)
        try db.run("INSERT INTO players(name, first_seen, last_seen) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET last_seen = excluded.last_seen",
                   .text(name), .of(now), .of(now))
        return try db.query("SELECT name FROM players WHERE name = ?", .text(name)) { $0.text(0) }.first ?? name
    }

    public func preference(_ key: Preference, for name: String) throws -> String {
        try preferences(for: name)[key.rawValue] ?? key.defaultValue
    }

    public func setPreference(_ key: Preference, _ value: String, for name: String, now: Int) throws {
        try setPreference(key.rawValue, value, for: name, now: now)
    }

    /// Every preference a name has saved, by key (`lang`, and the game
    /// kinds' settings such as `hangman-mode`); keys never saved are absent.
    public func preferences(for name: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for (key, value) in try db.query("SELECT key, value FROM preferences WHERE player = ?", .text(name), row: { ($0.text(0), $0.text(1)) }) {
            out[key] = value
        }
        return out
    }

    /// Saves one preference under any key: the store does not check keys or
    /// values (the server does). Registers the name if it is new.
    public func setPreference(_ key: String, _ value: String, for name: String, now: Int) throws {
        try registerName(name, now: now)
        try db.run("INSERT INTO preferences(player, key, value) VALUES (?, ?, ?) ON CONFLICT(player, key) DO UPDATE SET value = excluded.value",
                   .text(name), .text(key), .text(value))
    }

    // MARK: Games

    /// Records a new game and returns its id. With `networks`, it is also
    /// what `noteStarted` records (the people's networks, and `now` as its
    /// last activity), in the same INSERT: an UPDATE after it cost as much
    /// again, and moved the row in the index of untouched games.
    public func createGame(_ g: NewGame, networks: [String]? = nil, now: Int) throws -> Int {
        try write()
        if let networks {
            try db.run(SQLs.createStartedGame,
                       g.kind, g.variant, g.settings, Int(Int64(bitPattern: g.seed)), g.lang,
                       g.players[safe: 0] ?? "?", g.players[safe: 1] ?? "?",
                       g.tokens[safe: 0] ?? "", g.tokens[safe: 1] ?? "",
                       g.bots[safe: 0] ?? nil, g.bots[safe: 1] ?? nil, g.rounds, g.starter, now, g.clock,
                       g.watch ? 1 : 0, now, networks[safe: 0] ?? "", networks[safe: 1] ?? "")
        } else {
            try db.run(SQLs.createGame,
                       g.kind, g.variant, g.settings, Int(Int64(bitPattern: g.seed)), g.lang,
                       g.players[safe: 0] ?? "?", g.players[safe: 1] ?? "?",
                       g.tokens[safe: 0] ?? "", g.tokens[safe: 1] ?? "",
                       g.bots[safe: 0] ?? nil, g.bots[safe: 1] ?? nil, g.rounds, g.starter, now, g.clock,
                       g.watch ? 1 : 0)
        }
        activeCounts.change(players: g.players[safe: 0] ?? "?", g.players[safe: 1] ?? "?",
                            networks: networks?[safe: 0] ?? "", networks?[safe: 1] ?? "", by: 1)
        return Int(db.lastInsertRowID)
    }

    /// A match goes on: the rounds lost so far, and the next round.
    public func nextRound(game: Int, round: Int, losses: [Int], starter: Int) throws {
        try write()
        try db.run("UPDATE games SET round = ?, lost0 = ?, lost1 = ?, starter = ?, offer_seat = NULL, offer_kind = NULL, offer_lang = NULL, offer_spent0 = 0, offer_spent1 = 0 WHERE id = ?",
                   .of(round), .of(losses[safe: 0] ?? 0), .of(losses[safe: 1] ?? 0), .of(starter), .of(game))
    }

    /// Records a move of the round in play. This is the hot path (one call
    /// per move), so it is one insert: the moves are the record of the round
    /// in play, and the game row is not touched.
    public func recordMove(game: Int, round: Int, ply: Int, seat: Int, move: String, now: Int) throws {
        try write()
        try db.run(SQLs.recordMove, game, round, ply, seat, move, now)
    }

    /// Stores the pending offer (or none) and which seats have spent theirs.
    public func setOffer(game: Int, offer: StoredGame.Offer?, spent: [Bool]) throws {
        try write()
        try db.run("UPDATE games SET offer_seat = ?, offer_kind = ?, offer_lang = ?, offer_spent0 = ?, offer_spent1 = ? WHERE id = ?",
                   .of(offer?.seat), .of(offer?.kind), .of(offer?.lang),
                   .of(spent.first == true ? 1 : 0), .of(spent.last == true ? 1 : 0), .of(game))
    }

    /// Starts a new round of a game, possibly in another language.
    public func restartGame(game: Int, round: Int, lang: String, starter: Int = 0) throws {
        try write()
        try db.run("UPDATE games SET round = ?, lang = ?, starter = ?, offer_seat = NULL, offer_kind = NULL, offer_lang = NULL, offer_spent0 = 0, offer_spent1 = 0 WHERE id = ?",
                   .of(round), .text(lang), .of(starter), .of(game))
    }

    /// Records the end of a game (or match) and counts it on `board` for the
    /// players who are people (`people`; by default both). `finalState` is
    /// the last public state as the kind shows it (`fragment=qx`).
    public func finishGame(game: Int, winner: String, loser: String, reason: String, finalState: String,
                           losses: [Int]? = nil, board: String = "game", people: [String]? = nil, now: Int) throws {
        try write()
        try endActive(game: game)
        try db.run(SQLs.finishGame, winner, loser, reason, finalState, now, losses?[safe: 0], losses?[safe: 1], game)
        for person in people ?? [winner, loser] {
            try scoreStore.count(person, won: person.lowercased() == winner.lowercased(), board: board)
        }
    }

    /// Before a statement ends `game`: if it is in progress, the caps'
    /// counts lose it (one primary-key look-up, and only while some count is
    /// remembered).
    func endActive(game: Int) throws {
        guard activeCounts.remembersAny,
              let seats = try db.first(SQLs.activeSeats, game, row: { [$0.text(0), $0.text(1), $0.text(2), $0.text(3)] })
        else { return }
        activeCounts.change(players: seats[0], seats[1], networks: seats[2], seats[3], by: -1)
    }

    /// Every game in progress, oldest first, with the moves of its round in play.
    public func activeGames() throws -> [StoredGame] {
        try loadActive("status = 'active'")
    }

    /// One game, if it is in progress.
    public func activeGame(id: Int) throws -> StoredGame? {
        try loadActive("status = 'active' AND id = ?", .of(id)).first
    }

    /// Games in progress that match `condition`, oldest first, with the moves
    /// of their round in play.
    func loadActive(_ condition: String, _ values: SQLValue...) throws -> [StoredGame] {
        var games = try db.query("""
            SELECT id, kind, variant, settings, seed, lang, player0, player1, token0, token1, bot0, bot1,
                   rounds, lost0, lost1, round, starter, offer_seat, offer_kind, offer_lang, offer_spent0, offer_spent1, started_at, clock, watch
            FROM games WHERE \(condition) ORDER BY id
            """, arguments: values) { r in
            StoredGame(id: r.int(0), kind: r.text(1), variant: r.text(2), settings: r.text(3),
                       seed: UInt64(bitPattern: Int64(r.int(4))), lang: r.text(5),
                       players: [r.text(6), r.text(7)], tokens: [r.text(8), r.text(9)],
                       bots: [r.optionalText(10), r.optionalText(11)], rounds: r.int(12), losses: [r.int(13), r.int(14)],
                       round: r.int(15), starter: r.int(16),
                       offer: r.optionalInt(17).map { StoredGame.Offer(seat: $0, kind: r.text(18), lang: r.optionalText(19)) },
                       offerSpent: [r.int(20) != 0, r.int(21) != 0], startedAt: r.int(22), clock: r.int(23),
                       watch: r.int(24) != 0)
        }
        var index: [Int: Int] = [:]
        for (i, g) in games.enumerated() { index[g.id] = i }
        for (id, seat, move) in try db.query("""
            SELECT m.game_id, m.seat, m.move FROM moves m JOIN games g ON g.id = m.game_id AND g.round = m.round
            WHERE g.\(condition.replacing("AND id", with: "AND g.id")) ORDER BY m.game_id, m.ply
            """, arguments: values, row: { ($0.int(0), $0.int(1), $0.text(2)) }) {
            if let i = index[id] { games[i].moves.append(StoredMove(seat: seat, move: move)) }
        }
        return games
    }

    /// The moves of a game's round, in order.
    public func moves(game: Int, round: Int) throws -> [StoredMove] {
        try db.query("SELECT seat, move FROM moves WHERE game_id = ? AND round = ? ORDER BY ply", .of(game), .of(round)) {
            StoredMove(seat: $0.int(0), move: $0.text(1))
        }
    }

    /// A game's final record, or nil if not over.
    /// The finished game `token` was a seat's resume token of: its id, how it
    /// ended, and when (unix seconds; 0 if unknown).
    public func finishedGame(token: String) throws -> (id: Int, winner: String, loser: String, reason: String,
                                                       finalState: String, endedAt: Int)? {
        guard !token.isEmpty else { return nil }
        // One look-up in each seat's token index (partial: `<> ''` lets SQLite use them).
        return try db.query("""
            SELECT id, winner, loser, reason, coalesce(final_state, ''), coalesce(ended_at, 0) FROM games
            WHERE status = 'over' AND ((token0 = ? AND token0 <> '') OR (token1 = ? AND token1 <> '')) LIMIT 1
            """, .text(token), .text(token)) {
            (id: $0.int(0), winner: $0.text(1), loser: $0.text(2), reason: $0.text(3), finalState: $0.text(4), endedAt: $0.int(5))
        }.first
    }

    public func result(game: Int) throws -> (winner: String, loser: String, reason: String, finalState: String)? {
        try db.query("SELECT winner, loser, reason, coalesce(final_state, '') FROM games WHERE id = ? AND status = 'over'", .of(game)) {
            (winner: $0.text(0), loser: $0.text(1), reason: $0.text(2), finalState: $0.text(3))
        }.first
    }

}
