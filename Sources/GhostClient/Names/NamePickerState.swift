import GhostProtocol

/// The name screen's state: the name typed, the cursor, and the server's
/// list of names (NAMES), asked as the typing narrows it. The names used
/// from this client are the config's (`ClientState.pickerNames` joins both).
public struct NamePickerState: Equatable, Sendable {
    /// The name picker's server list: the last NAMES answer that counted
    /// (the most recent names, or those starting with `knownNamesPrefix`),
    /// and whether the server has more (`more=yes`).
    public var knownNames: [String] = []
    /// The prefix `knownNames` answers; "" for the most recent names.
    public var knownNamesPrefix = ""
    public var knownNamesMore = false
    /// The NAMES being received.
    var incomingNames: [String] = []
    /// NAMES sent and not yet answered, oldest first: the prefix each asked
    /// for ("" for the most recent). At most one is in flight: typing while
    /// it is asks again once it is answered, so a keypress sends at most one
    /// NAMES, and an answer for a prefix no longer typed is ignored.
    var namesAsked: [String] = []
    /// The server refused `NAMES prefix=` (an older server): the picker only
    /// filters the list it has, until the next connection.
    var namesSearchRefused = false
    public var nameField = ""
    /// Index into `filteredNames`, or nil for the typed name.
    public var nameCursor: Int?
    /// A name chosen (Enter) before the server's greeting: sent with it,
    /// instead of being refused as "not connected yet".
    var chosenBeforeGreeting: String?

    /// What the picker asks the server for now: "" for the most recent
    /// names, the typed text while it can be the start of a name, nil when
    /// it cannot (no name starts with it).
    public var namesQuery: String? {
        if nameField.isEmpty { return "" }
        return CommandParser.isValidName(nameField) ? nameField : nil
    }

    /// The server's list does not answer what is typed now, and a NAMES is
    /// on its way (for it, or before the one for it).
    public var namesSearching: Bool {
        !namesAsked.isEmpty && !namesSearchRefused && namesQuery != nil && knownNamesPrefix != namesQuery
    }

    /// The server said it has more names than it listed, for what is typed now.
    public var moreNames: Bool { knownNamesMore && knownNamesPrefix == namesQuery }
}
