/// Who is connected (a `Lobby.Session` per connection: its name, language,
/// what it does), and which connection holds each name in use. A
/// connection's session lives from `connected` to `disconnected`; a name is
/// held by one connection at a time. A reference: the lobby's parts share
/// the one table (`LobbyContext.sessions`).
final class Sessions: Sequence {
    /// Every session, by connection. Changed in place through here
    /// (`sessions.byID[id]?.state = …`): a stored property, so that a change
    /// is the dictionary's own in-place access, as cheap as before the split
    /// (a `_modify` subscript here was a coroutine call that moved the
    /// session out and back, with a malloc, on every change: callgrind).
    /// Keyed by `IDKey` (a connection id, hashed cheaply: IDKey.swift).
    var byID: [IDKey: Lobby.Session] = [:]
    /// Lowercased name → the connection that holds it.
    var names = NameHolders()

    /// A connection's session, to read.
    subscript(id: ConnectionID) -> Lobby.Session? { byID[IDKey(id)] }

    /// Where `id` plays (its game and seat, nil if it does not) and the
    /// game it watches, if it has a session (a move's `perform`). Read
    /// through the `inout`, in place: `byID.values[i].state` copied the
    /// whole session out and destroyed it, on every move.
    func seatAndWatching(_ id: ConnectionID) -> (ServerCommands.Seat?, Int?)? {
        guard let i = byID.index(forKey: IDKey(id)) else { return nil }
        return Self.peek(&byID.values[i])
    }

    private static func peek(_ session: inout Lobby.Session) -> (ServerCommands.Seat?, Int?) {
        if case let .playing(game, seat) = session.state { return ((game, seat), session.watching) }
        return (nil, session.watching)
    }

    /// What `read` says of `id`'s session, read in place (nil without a
    /// session): `sessions[id]?.name` copied the whole session out first and
    /// destroyed it after, every time.
    func peek<T>(_ id: ConnectionID, _ read: (inout Lobby.Session) -> T) -> T? {
        guard let i = byID.index(forKey: IDKey(id)) else { return nil }
        return read(&byID.values[i])
    }

    /// Whether `id` has a session, without copying it out.
    func has(_ id: ConnectionID) -> Bool { byID.index(forKey: IDKey(id)) != nil }

    var keys: [ConnectionID] { byID.keys.map(\.id) }
    var count: Int { byID.count }
    func makeIterator() -> IndexingIterator<[(key: ConnectionID, value: Lobby.Session)]> {
        byID.map { (key: $0.key.id, value: $0.value) }.makeIterator()
    }

    /// Changes `id`'s session in place, if it has one. Through the
    /// dictionary's values by index: `byID[id]?.x = y` moves the whole
    /// session out of the dictionary and back (a copy of each field and a
    /// destroy, each time).
    ///
    /// A session's `awaitingPassword` is changed only through here (AccountDesk),
    /// so that `awaitingPasswords` stays true.
    func update(_ id: ConnectionID, _ change: (inout Lobby.Session) -> Void) {
        guard let i = byID.index(forKey: IDKey(id)) else { return }
        Self.apply(change, to: &byID.values[i], counting: &awaitingPasswords)
    }

    /// `change` on a session in place, counting its start or end of waiting
    /// for a password (read through the `inout`: `byID.values[i].x` copied
    /// the whole session each time, on every letter).
    private static func apply(_ change: (inout Lobby.Session) -> Void, to session: inout Lobby.Session, counting n: inout Int) {
        let was = session.awaitingPassword != nil
        change(&session)
        if was != (session.awaitingPassword != nil) { n += was ? -1 : 1 }
    }

    /// How many sessions wait for a password's answer: with none (nearly
    /// always), the loop's three questions a line, "does this connection
    /// wait for one?" (`Lobby.isWaitingForPassword`, twice, and
    /// `Lobby.received`), are answered without a look-up and a copy of the
    /// session each, on every line, PING's too.
    private(set) var awaitingPasswords = 0

    /// Whether `id`'s session waits for a password's answer.
    func isAwaitingPassword(_ id: ConnectionID) -> Bool {
        awaitingPasswords > 0 && byID[IDKey(id)]?.awaitingPassword != nil
    }

    /// The connection is gone: its session goes.
    func remove(_ id: ConnectionID) {
        if let gone = byID.removeValue(forKey: IDKey(id)), gone.awaitingPassword != nil { awaitingPasswords -= 1 }
    }

    /// `id` no longer holds `name` (if it held it).
    func release(_ name: String, by id: ConnectionID) {
        if names[name.lowercased()] == id { names[name.lowercased()] = nil }
    }
}

/// Lowercased name → the connection that holds it, remembering which names
/// were taken or given up since it was last asked (`takeTouched`): the
/// presence of names (SocialDesk.swift) follows from it, however a name
/// changed hands (NAME, a login, RESUME, a lost turn's recovery).
struct NameHolders {
    private var holders: [String: ConnectionID] = [:]
    /// Names set or cleared since the last `takeTouched()`.
    private(set) var touched: Set<String> = []

    subscript(key: String) -> ConnectionID? {
        get { holders[key] }
        set {
            holders[key] = newValue
            touched.insert(key)
        }
    }

    var count: Int { holders.count }

    /// Every name held and its holder (checks and tests).
    var all: [String: ConnectionID] { holders }

    mutating func removeAll() {
        touched.formUnion(holders.keys)
        holders.removeAll()
    }

    /// The names touched since the last call, and forgets them.
    mutating func takeTouched() -> Set<String> {
        guard !touched.isEmpty else { return [] }
        defer { touched = [] }
        return touched
    }
}
