/// The games in play, one `Lobby.Room` each, by game id; the ids of those
/// anyone may watch, in order (GAMES: `OpenGames`); and each person's seat
/// by resume token. A room goes in and out only through `add` and `remove`,
/// which keep `open` in step.
final class Rooms {
    /// Every room, by game id.
    private(set) var byID: [Int: Lobby.Room] = [:]
    /// The ids of the rooms anyone may watch, in order (GAMES).
    private(set) var open = OpenGames()
    /// Resume token → seat.
    var tokens: [String: (game: Int, seat: Int)] = [:]

    subscript(id: Int) -> Lobby.Room? { byID[id] }

    var count: Int { byID.count }
    var keys: Dictionary<Int, Lobby.Room>.Keys { byID.keys }
    var values: Dictionary<Int, Lobby.Room>.Values { byID.values }

    /// Puts a room in (a new game, one restored or reloaded) and, if anyone
    /// may watch it, in `open`. Every room goes in through here.
    func add(_ room: Lobby.Room) {
        if let old = byID.updateValue(room, forKey: room.id), old !== room { old.listed = false }
        room.listed = true
        if room.open { open.insert(room.id) } else { open.remove(room.id) }
    }

    /// Takes a room out (its game ended, or it is put back from the store,
    /// or unloaded), and out of `open`. Every room goes out through here.
    func remove(_ gameID: Int) {
        byID.removeValue(forKey: gameID)?.listed = false
        open.remove(gameID)
    }
}
