import GhostStore

/// The games in play, one `Lobby.Room` each, by game id; the ids of those
/// anyone may watch, in order (GAMES: `OpenGames`); and each person's seat
/// by resume token. A room goes in and out only through `add` and `remove`,
/// which keep `open` in step.
final class Rooms {
    /// Every room, by game id.
    /// Keyed by `IDKey` (a game id, hashed cheaply: IDKey.swift).
    private(set) var byID: [IDKey: Lobby.Room] = [:]
    /// The ids of the rooms anyone may watch, in order (GAMES).
    private(set) var open = OpenGames()
    /// Resume token → seat (`tokens[t]`, set when a person's seat comes into
    /// memory and cleared when it goes). A token that names its own game and
    /// seat (`ResumeTokens`: all of today's) is not stored: its seat is read
    /// from its first digits and holds if that room is in and its person's
    /// token is this one. Only the others (tokens issued before schema 14)
    /// are kept, in `otherTokens`. A dictionary of every token cost two
    /// string hashes a game at its start and two at its end.
    var tokens: ResumeSeats { ResumeSeats(rooms: self) }
    /// The tokens that do not name their own seat, and their seats.
    private(set) var otherTokens: [String: (game: Int, seat: Int)] = [:]

    /// Resume token → seat, as `Rooms.tokens` reads and writes it.
    /// Used at once (`rooms.tokens[t]`): a strong reference, made and
    /// dropped around the look-up.
    struct ResumeSeats {
        let rooms: Rooms

        subscript(token: String) -> (game: Int, seat: Int)? {
            get { rooms.seat(ofToken: token) }
            nonmutating set { rooms.setSeat(newValue, ofToken: token) }
        }
    }

    private func seat(ofToken token: String) -> (game: Int, seat: Int)? {
        if !otherTokens.isEmpty, let seat = otherTokens[token] { return seat }
        guard let (game, seat) = Rooms.named(token), let room = byID[IDKey(game)], room.bot(seat) == nil,
              room.tokens.indices.contains(seat), room.tokens[seat] == token else { return nil }
        return (game, seat)
    }

    private func setSeat(_ seat: (game: Int, seat: Int)?, ofToken token: String) {
        if let seat, let named = Rooms.named(token), named == seat { return }
        // Nothing to clear when none is kept (nearly always): no hash of the token.
        if seat == nil && otherTokens.isEmpty { return }
        otherTokens[token] = seat
    }

    /// The game and seat a token's first digits name (`ResumeTokens`);
    /// whether the token is that seat's, its room says.
    static func named(_ token: String) -> (game: Int, seat: Int)? {
        ResumeTokens.seat(named: token)
    }

    subscript(id: Int) -> Lobby.Room? { byID[IDKey(id)] }

    var count: Int { byID.count }
    var keys: [Int] { byID.keys.map(\.id) }
    var values: Dictionary<IDKey, Lobby.Room>.Values { byID.values }

    /// Puts a room in (a new game, one restored or reloaded) and, if anyone
    /// may watch it, in `open`. Every room goes in through here.
    func add(_ room: Lobby.Room) {
        if let old = byID.updateValue(room, forKey: IDKey(room.id)), old !== room { unlist(old) }
        room.listed = true
        if room.open { open.insert(room.id) } else { open.remove(room.id) }
    }

    /// Takes a room out (its game ended, or it is put back from the store,
    /// or unloaded), and out of `open`. Every room goes out through here.
    func remove(_ gameID: Int) {
        if let old = byID.removeValue(forKey: IDKey(gameID)) { unlist(old) }
        open.remove(gameID)
    }

    /// A room out of `byID` is not listed, and its deadline goes at the next
    /// refresh (it holds its own: `Deadlines`).
    private func unlist(_ room: Lobby.Room) {
        room.listed = false
        room.deadlines.touch(room)
    }
}
