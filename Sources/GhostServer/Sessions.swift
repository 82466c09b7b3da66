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
    var byID: [ConnectionID: Lobby.Session] = [:]
    /// Lowercased name → the connection that holds it.
    var names: [String: ConnectionID] = [:]

    /// A connection's session, to read.
    subscript(id: ConnectionID) -> Lobby.Session? { byID[id] }

    var keys: Dictionary<ConnectionID, Lobby.Session>.Keys { byID.keys }
    var count: Int { byID.count }
    func makeIterator() -> Dictionary<ConnectionID, Lobby.Session>.Iterator { byID.makeIterator() }

    /// Changes `id`'s session in place, if it has one. Through the
    /// dictionary's values by index: `byID[id]?.x = y` moves the whole
    /// session out of the dictionary and back (a copy of each field and a
    /// destroy: about 1,400 instructions, scripts/callgrind-letters.py).
    func update(_ id: ConnectionID, _ change: (inout Lobby.Session) -> Void) {
        guard let i = byID.index(forKey: id) else { return }
        change(&byID.values[i])
    }

    /// `id` no longer holds `name` (if it held it).
    func release(_ name: String, by id: ConnectionID) {
        if names[name.lowercased()] == id { names[name.lowercased()] = nil }
    }
}
