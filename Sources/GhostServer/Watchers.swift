import GhostProtocol

/// Who watches each game in play (WatchDesk.swift), kept apart from the
/// rooms, which a failed write replaces: each game's `WatchGroup` and the
/// lines on their way to it, the games whose watchers have something due,
/// those whose watching ended with the game, and the marks a command that
/// is undone goes back to.
final class Watchers {
    /// Who watches each game, by game id.
    var groups: [Int: WatchGroup] = [:]
    /// Games whose watchers have lines waiting or whose number changed untold.
    var due: Set<Int> = []
    /// Games whose watching ended with the game: their groups go at the commit.
    var closed: [Int] = []
    /// Each group's pending lines and closing state before the command in
    /// progress first touched it, for a command that is undone.
    var marks: [Int: (pending: Int, closing: Bool)] = [:]

    /// How many watch the game now.
    func count(_ gameID: Int) -> Int {
        guard let group = groups[gameID], !group.closing else { return 0 }
        return group.members.count
    }

    /// Everyone watching a game, for STATS.
    var total: Int { groups.values.reduce(0) { $0 + ($1.closing ? 0 : $1.members.count) } }

    /// At the commit: the groups of finished games whose lines are out go.
    func dropClosed() {
        closed.removeAll { gameID in
            guard let group = groups[gameID] else { return true }
            guard group.closing else { return true }
            guard group.pending.isEmpty, !group.delivering else { return false }
            groups[gameID] = nil
            due.remove(gameID)
            return true
        }
    }
}

/// The people watching one game, and the lines on their way to them.
final class WatchGroup {
    /// Who watches, in the order they came.
    var members: [ConnectionID] = []
    /// Lines for the watchers not delivered yet, oldest first.
    var pending: [ServerLine] = []
    /// Members who came while lines were pending: the first pending line
    /// for them (they got the full state instead of the ones before).
    var joinedAt: [ConnectionID: Int] = [:]
    /// When the pending lines were last delivered (monotonic).
    var deliveredAt = -Double.infinity
    /// The number of watchers the players and watchers were last told
    /// (WATCHERS), and when (monotonic).
    var told = 0
    var toldAt = -Double.infinity
    /// The game is over: its last lines go out, then the group goes.
    var closing = false
    /// A batch on its way: its lines, who gets them, and how many have
    /// (a batch goes out `Lobby.watchSlice` watchers per loop turn).
    var sending: [ServerLine] = []
    var sendingTo: [ConnectionID] = []
    var sent = 0
    var delivering: Bool { sent < sendingTo.count }
}
