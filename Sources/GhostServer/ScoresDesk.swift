import GameKit
import GhostProtocol
import GhostStore

/// High scores (a part of the lobby of its own): SCORES, a board
/// of wins or a kind's list of best games, read from the store, and how
/// the store keeps a game's fields. Boards are each kind's to declare
/// (GameKit's `GameDefinition`); this part keeps no state.
final class ScoresDesk: LobbyPart {
    let context: LobbyContext

    init(context: LobbyContext) {
        self.context = context
    }

    /// SCORES game=<kind> [mode=<mode>]: the best games of a kind's list, from the store.
    func bestGames(_ n: Int, game: GameKind, mode: String?, _ id: ConnectionID) {
        if let kind = kind(named: game.rawValue), kind.bestGamesBoard(mode: mode) == nil, let board = winsBoard(of: kind, mode: mode) {
            return listScores(n, board: board, id)
        }
        guard let kind = kind(named: game.rawValue), let board = kind.bestGamesBoard(mode: mode) else {
            return reply(id, .error(.badArguments, "no such high-score list: game=\(game.rawValue)" + (mode.map { " mode=\($0)" } ?? "")))
        }
        guard let rows = persist({ try store.scoreStore.bestGames(board: board, limit: n) }),
              let owners = persist({ try store.registered(among: rows.map(\.name)) }) else { return failed(id) }
        for r in rows {
            reply(id, .bestScore(rank: r.rank, name: r.name, fields: ScoresDesk.fields(stored: r.fields), registered: owners.contains(r.name)))
        }
        reply(id, .ok(.bestGames(count: rows.count, board: board)))
    }

    /// Fields as the store keeps them: `key=value`, separated by spaces.
    static func stored(_ fields: [Field]) -> String {
        stored(fields, [])
    }

    /// `stored(first + then)`, written straight into one string's storage
    /// (a game's end stores its final and end fields: no array of them, no
    /// string per field, no append that checks the join, at every game's end).
    static func stored(_ first: [Field], _ then: [Field]) -> String {
        var length = -1   // no space before the first field
        for f in first { length += f.key.utf8.count + f.value.utf8.count + 2 }
        for f in then { length += f.key.utf8.count + f.value.utf8.count + 2 }
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { out in
            var at = 0
            func put(_ text: String) {
                var text = text
                text.withUTF8 { src in
                    guard let from = src.baseAddress, let to = out.baseAddress, at + src.count <= out.count else { return }
                    (to + at).update(from: from, count: src.count)
                    at += src.count
                }
            }
            func put(_ byte: UInt8) {
                guard at < out.count else { return }
                out[at] = byte
                at += 1
            }
            func put(_ fields: [Field]) {
                for f in fields {
                    if at > 0 { put(0x20) }   // " "
                    put(f.key)
                    put(0x3D)                 // "="
                    put(f.value)
                }
            }
            put(first)
            put(then)
            return at
        }
    }

    /// The fields of `stored(_:)`'s text back.
    static func fields(stored text: String) -> [Field] {
        text.split(separator: " ").compactMap { (word: Substring) -> Field? in
            guard let eq = word.firstIndex(of: "=") else { return nil }
            return Field(String(word[..<eq]), String(word[word.index(after: eq)...]))
        }
    }

    /// `SCORES game=<kind> [mode=<board>]` of a kind that ranks people by
    /// wins: its board `<prefix>-<mode>` (`mode=game` by default; `match`,
    /// a level, `<level>-match`), as `SCORES` lists Ghost's. Nil when the
    /// kind ranks games instead; a best-games list of the kind with that
    /// mode comes first (the caller asks `bestGamesBoard` before this).
    func winsBoard(of kind: any GameDefinition, mode: String?) -> Board? {
        guard kind.ranksByWins else { return nil }
        let levels: [BotLevel?] = [nil] + kind.computerLevels.map { $0 }
        let boards = levels.flatMap { [Board(kind: kind.boardPrefix, computer: $0), Board(kind: kind.boardPrefix, computer: $0, match: true)] }
        let wanted = kind.boardPrefix.map { "\($0)-\(mode ?? "game")" } ?? (mode ?? "game")
        return boards.first { $0.name == wanted }
    }

    /// A board of wins, top n: `SCORE` lines, then `OK SCORES`.
    func listScores(_ n: Int, board: Board, _ id: ConnectionID) {
        guard let rows = persist({ try store.scoreStore.scores(board: board.name, limit: n) }),
              let owners = persist({ try store.registered(among: rows.map(\.name)) }) else { return failed(id) }
        for r in rows {
            reply(id, .score(rank: r.rank, name: r.name, wins: r.wins, played: r.played, registered: owners.contains(r.name)))
        }
        reply(id, .ok(.scores(count: rows.count, board: board)))
    }
}
