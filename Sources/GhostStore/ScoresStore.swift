/// What the finished games count for (the store split by what it
/// stores): the boards of wins (`scores`), two people's head-to-head
/// records (`rivals`) and the best-games lists (`best_games`), with their
/// statements and the caches that keep a game's end from reading a board
/// back. `Store` owns one over its connection, and the server calls it as
/// `Store.scoreStore` (a game's end counts through `Store.finishGame`); it
/// writes only inside `Store`'s transaction (`willWrite`), and `Store`'s
/// `Transactions` tell it when a rollback undoes its writes.
public final class ScoresStore {
    private let db: StoreDB
    /// Opens the turn's transaction (and the command's savepoint): `Transactions.write()`.
    var willWrite: () throws -> Void = {}

    /// Per board: how many names have each number of wins (names that have
    /// played), as a tree that answers a rank in O(log wins). Ranks come from
    /// here, not from counting rows in SQL: a game's end must not cost a scan
    /// of the scores, nor a walk of the board's numbers of wins.
    private var winCounts: [String: WinTally] = [:]
    /// Per name (lowercased), then per board: the name as stored, its wins
    /// and games played; filled on first use, then kept in step with every
    /// write, so the end of a game reads nothing back from SQLite. Name
    /// first: a name has a row on a few boards, found by a short walk, so a
    /// game's end hashes each name once per look-up, not a board and a name;
    /// and a name stored with another spelling is forgotten in one step.
    private var scoreCache: [String: BoardScores] = [:]
    /// One name's cached rows, by board.
    private struct BoardScores {
        var entries: [(board: String, row: ScoreRow)] = []
        subscript(board: String) -> ScoreRow? {
            get {
                for e in entries where e.board == board { return e.row }
                return nil
            }
            set {
                if let i = entries.firstIndex(where: { $0.board == board }) {
                    if let newValue { entries[i].row = newValue } else { entries.remove(at: i) }
                } else if let newValue {
                    entries.append((board, newValue))
                }
            }
        }
    }
    /// Since the last commit, in order: each score row a finished game
    /// changed, before and after, so that a rollback puts the caches back
    /// as they were, entry by entry, without reading a board again (which
    /// would cost as much as the board is long).
    private var journal: [(board: String, key: String, before: ScoreRow, after: ScoreRow)] = []
    /// Head-to-head records read or counted since the last rollback, by
    /// kind and pair in the order they are stored (names folded as NOCASE
    /// folds them): a pair's next game reads its record without SQL (a
    /// rematch's start read it again). Kept in step with each count;
    /// forgotten at any rollback, and all at once past `rivalsCached` pairs.
    private var rivals: [RivalsKey: (Int, Int)] = [:]
    static let rivalsCached = 4096
    private struct RivalsKey: Hashable {
        var kind: String, first: String, second: String
        init(_ kind: String, _ first: String, _ second: String) {
            self.kind = kind
            self.first = ActiveSeats.folded(first)
            self.second = ActiveSeats.folded(second)
        }
    }

    init(db: StoreDB) {
        self.db = db
    }

    /// Reads every board's win counts (at start).
    func loadWinCounts() throws {
        winCounts = [:]
        for (board, wins, count) in try db.query("SELECT board, wins, count(*) FROM scores WHERE played > 0 GROUP BY board, wins", row: {
            ($0.text(0), $0.int(1), $0.int(2))
        }) {
            winCounts[board, default: WinTally()].add(wins, count)
        }
    }

    // MARK: Caches and rollbacks

    /// Where the journal stands now (a command's start, for `undo(from:)`).
    var journalMark: Int { journal.count }

    /// After a rollback: puts back the cached score rows and win counts that
    /// the journal's entries from `start` on changed, the latest first.
    func undo(from start: Int) {
        if !rivals.isEmpty { rivals.removeAll() }   // the rolled-back writes may have counted some
        guard start < journal.count else { return }
        for entry in journal[start...].reversed() {
            if entry.after.played > 0 { winCounts[entry.board, default: WinTally()].add(entry.after.wins, -1) }
            if entry.before.played > 0 { winCounts[entry.board, default: WinTally()].add(entry.before.wins) }
            scoreCache[entry.key, default: BoardScores()][entry.board] = entry.before
        }
        journal.removeSubrange(start...)
    }

    /// Nothing written so far can be rolled back any more.
    func committed() {
        if !journal.isEmpty { journal.removeAll(keepingCapacity: true) }
    }

    /// A name (lowercased) may now be stored with another spelling: its
    /// cached rows are read again.
    func forget(_ key: String) {
        scoreCache[key] = nil
    }

    // MARK: Boards of wins

    /// Counts a finished game on `board` for `person`, won or not (within
    /// `countFinished`, once `Store.finishGame` has begun the write). Returns the name's
    /// row after it (its rank not set: `ranked(_:board:)` once every count
    /// of the game is made).
    @discardableResult
    func count(_ person: String, key given: String? = nil, won: Bool, board: String) throws -> ScoreRow {
        let key = given ?? person.lowercased()
        // The name's entry found once, and changed in place through its index
        // (the SQL below does not touch the cache, so the index stays valid).
        var slot = scoreCache.index(forKey: key)
        let before: ScoreRow
        if let i = slot, let row = scoreCache.values[i][board] {
            before = row
        } else {
            before = try cachedScore(of: person, key: key, board: board)
            slot = scoreCache.index(forKey: key)
        }
        var row = before
        if db.isPostgres {
            try db.run(SQLs.countScore, person, board, won ? 1 : 0)
        } else {
            try db.run(won ? SQLs.countWin : SQLs.countLoss, person, board)
            if try db.changes == 0 { try db.run(SQLs.firstScore, person, board, won ? 1 : 0) }
        }
        row.wins += won ? 1 : 0
        row.played += 1
        if before.played == 0 || row.wins != before.wins {
            // In place (a copy of the board's counts would cost as many
            // entries as it has), and the board found once.
            winCounts[board, default: WinTally()].move(from: before.played > 0 ? before.wins : nil, to: row.wins)
        }
        if let i = slot { scoreCache.values[i][board] = row } else { scoreCache[key, default: BoardScores()][board] = row }
        journal.append((board: board, key: key, before: before, after: row))
        return row
    }

    /// `first` then `second` (names' rows on `board`, as `count` returned
    /// them), those not nil, with their places: 1 + the names with more
    /// wins, from the board's `WinTally` (found once).
    func ranked(_ first: ScoreRow?, _ second: ScoreRow?, board: String) -> [ScoreRow] {
        guard first != nil || second != nil else { return [] }
        let tally = winCounts[board]
        func placed(_ row: ScoreRow) -> ScoreRow {
            var row = row
            row.rank = 1 + (tally?.above(row.wins) ?? 0)
            return row
        }
        if let first {
            if let second { return [placed(first), placed(second)] }
            return [placed(first)]
        }
        if let second { return [placed(second)] }
        return []
    }

    /// Counts a finished game on `board` for the players who are people
    /// (`people`; nil: both) and returns the places after it of the winner,
    /// then the loser, each if counted: from the rows the counts wrote, so
    /// no look-up of a name again (`Store.finishGame`). A draw (`winner` and
    /// `loser` nil) counts a game for each of `people`, won by neither.
    func countFinished(winner: String?, loser: String?, board: String, people: [String]?) throws -> [ScoreRow] {
        guard let winner, let loser else {
            var rows: [ScoreRow] = []
            for person in people ?? [] {
                rows.append(try count(person, key: person.lowercased(), won: false, board: board))
            }
            return ranked(rows.first, rows.dropFirst().first, board: board)
        }
        let winnerKey = winner.lowercased(), loserKey = loser.lowercased()
        var winnerRow: ScoreRow?, loserRow: ScoreRow?
        // Each count's row; a name in both seats (any case) keeps the last.
        func counted(_ person: String, key: String) throws {
            let row = try count(person, key: key, won: key == winnerKey, board: board)
            if key == winnerKey { winnerRow = row }
            if key == loserKey { loserRow = row }
        }
        if let people {
            for person in people {
                try counted(person, key: person == winner ? winnerKey : person == loser ? loserKey : person.lowercased())
            }
        } else {
            // Both, with no array of them.
            try counted(winner, key: winnerKey)
            try counted(loser, key: loserKey)
        }
        // The places once every count is made (the winner's win can pass the loser).
        return ranked(people?.contains(winner) ?? true ? winnerRow : nil,
                      people?.contains(loser) ?? true ? loserRow : nil, board: board)
    }

    /// The top `limit` names on a board by wins (ties share a rank: 1 + the
    /// names with more wins; then by name). Walks the board's index, best
    /// first, and stops after `limit` rows; the ranks are counted here.
    public func scores(board: String, limit: Int) throws -> [ScoreRow] {
        var rows = try db.query("""
            SELECT p.name, s.wins, s.played
            FROM scores s JOIN players p ON p.name = s.player
            WHERE s.board = ? AND s.played > 0
            ORDER BY s.wins DESC, s.player LIMIT ?
            """, .text(board), .of(max(0, limit))) { ScoreRow(rank: 0, name: $0.text(0), wins: $0.int(1), played: $0.int(2)) }
        for i in rows.indices {
            rows[i].rank = i > 0 && rows[i].wins == rows[i - 1].wins ? rows[i - 1].rank : i + 1
        }
        return rows
    }

    /// A name's place on a board: 1 + the number of names with more wins,
    /// from the board's `WinTally` in O(log wins).
    public func rank(of name: String, board: String) throws -> ScoreRow {
        var row = try cachedScore(of: name, board: board)
        row.rank = 1 + (winCounts[board]?.above(row.wins) ?? 0)
        return row
    }

    private func cachedScore(of name: String, key: String? = nil, board: String) throws -> ScoreRow {
        let key = key ?? name.lowercased()
        if let row = scoreCache[key]?[board] { return row }
        let row = try db.first(SQLs.score, board, name) {
            ScoreRow(rank: 0, name: $0.text(0), wins: $0.int(1), played: $0.int(2))
        } ?? ScoreRow(rank: 0, name: name, wins: 0, played: 0)
        scoreCache[key, default: BoardScores()][board] = row
        return row
    }

    // MARK: Head-to-head records

    /// How many finished games of `kind` each of two people has won against
    /// the other (a match counts once): `a`'s wins, then `b`'s. One look-up.
    public func headToHead(kind: String, _ a: String, _ b: String) throws -> (Int, Int) {
        let swapped = a.lowercased() > b.lowercased()
        let (first, second) = swapped ? (b, a) : (a, b)
        let key = RivalsKey(kind, first, second)
        let row: (Int, Int)
        if let cached = rivals[key] {
            row = cached
        } else {
            row = try db.first(SQLs.headToHead, kind, first, second) { ($0.int(0), $0.int(1)) } ?? (0, 0)
            if rivals.count >= Self.rivalsCached { rivals.removeAll() }
            rivals[key] = row
        }
        return swapped ? (row.1, row.0) : row
    }

    /// Counts a finished game of `kind` between two people in their head-to-head record.
    public func recordHeadToHead(kind: String, winner: String, loser: String) throws {
        let (w, l) = (winner.lowercased(), loser.lowercased())
        guard w != l else { return }
        try willWrite()
        let winnerFirst = w < l
        let (first, second) = winnerFirst ? (winner, loser) : (loser, winner)
        if db.isPostgres {
            try db.run(SQLs.countHeadToHead, kind, first, second, winnerFirst ? 1 : 0, winnerFirst ? 0 : 1)
        } else {
            try db.run(winnerFirst ? SQLs.headToHeadWin0 : SQLs.headToHeadWin1, kind, first, second)
            if try db.changes == 0 { try db.run(SQLs.firstHeadToHead, kind, first, second, winnerFirst ? 1 : 0, winnerFirst ? 0 : 1) }
        }
        if !rivals.isEmpty, let i = rivals.index(forKey: RivalsKey(kind, first, second)) {
            if winnerFirst { rivals.values[i].0 += 1 } else { rivals.values[i].1 += 1 }
        }
    }

    // MARK: Best-games lists

    /// Records a finished game's entry on a best-games list (`board`), under
    /// `name`, ranked by `key1`, then `key2` (lower is better), then by game.
    /// `fields` are what the list shows, as the game kind wrote them.
    /// Recording the same game on the same board again replaces its entry.
    public func recordBestGame(board: String, game: Int, name: String, key1: Int, key2: Int, fields: String, now: Int) throws {
        try willWrite()
        try db.run(SQLs.recordBestGame, board, game, name, key1, key2, fields, now)
    }

    /// The best `limit` entries of a best-games list, best first, with their
    /// places: 1, 2, 3 … (entries equal on both keys are ranked by game, the
    /// earlier first, so no two share a place). Read from the ranking index.
    public func bestGames(board: String, limit: Int) throws -> [BestGameRow] {
        var rank = 0
        return try db.query("SELECT game, name, fields FROM best_games WHERE board = ? ORDER BY key1, key2, game LIMIT ?",
                            .text(board), .of(limit)) { r in
            rank += 1
            return BestGameRow(rank: rank, game: r.int(0), name: r.text(1), fields: r.text(2))
        }
    }

    /// The place of `game`'s entry on a best-games list, or nil if it has
    /// none there. With `within`, nil too when it is not among the best
    /// `within` entries: that reads at most `within` rows of the index;
    /// without, it counts the entries ranked above it.
    public func bestGameRank(board: String, game: Int, within limit: Int? = nil) throws -> Int? {
        if let limit {
            let games = try db.query("SELECT game FROM best_games WHERE board = ? ORDER BY key1, key2, game LIMIT ?",
                                     .text(board), .of(limit)) { $0.int(0) }
            return games.firstIndex(of: game).map { $0 + 1 }
        }
        return try db.query("""
            SELECT (SELECT count(*) FROM best_games b WHERE b.board = g.board AND (b.key1, b.key2, b.game) < (g.key1, g.key2, g.game)) + 1
            FROM best_games g WHERE g.board = ? AND g.game = ?
            """, .text(board), .of(game)) { $0.int(0) }.first
    }
}
