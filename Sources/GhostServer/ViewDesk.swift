import GameKit
import GhostProtocol

/// `VIEW <id>`: a game in progress as a client that does not know its kind
/// draws it (GameKit's `GameView`, the kind's `view`): a `ROW` line per row
/// of the board, a `CAN` line per move the asker may send now, then `OK VIEW
/// id= game= lang= turn= rows= moves=`. A player gets their seat's view
/// (their own secrets, their moves); anyone else the watchers' view of a
/// game they may watch (never a secret, no moves). O(1): one room in memory,
/// rows and moves a handful; no read of the store. A part with no state.
final class ViewDesk: LobbyPart {
    let context: LobbyContext
    private let rooms: Rooms

    init(context: LobbyContext, rooms: Rooms) {
        self.context = context
        self.rooms = rooms
    }

    func showView(_ gameID: Int, _ id: ConnectionID, _ session: Session) {
        // A private game is answered as one that does not exist to whoever
        // does not play in it, as WATCH and MOVES answer.
        let found = rooms[gameID]
        let seat = found?.seats.firstIndex { $0 == id }
        guard let room = found, !room.gameIsOver, seat != nil || room.open else {
            return reply(id, .error(.noSuchGame, "no game in progress has the id \(gameID) that you may see"))
        }
        let view = room.kind.view(of: room.game, match: room.match, for: seat.map(Viewer.seat) ?? .watcher, language: room.lang)
        for row in view.rows { reply(id, .view(ViewData(row, names: room.names))) }
        for move in view.moves { reply(id, .view(ViewData(move))) }
        reply(id, .ok(.other(verb: Verb.view.rawValue,
                             fields: [Field("id", String(gameID)), Field("game", room.kind.name), Field("lang", room.lang),
                                      Field("turn", room.turnPlayer),
                                      Field("rows", String(view.rows.count)), Field("moves", String(view.moves.count))])))
    }
}
