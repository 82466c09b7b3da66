import GhostWire
import GhostProtocol

/// The name screen: a name typed or picked from the names used here and the
/// server's (NAMES, asked as the typing narrows them).
enum NamePickerFeature {
    /// The name screen: typing searches (this client's names, then the
    /// server's: `askNames`), ↑/↓ pick, Enter takes the name.
    static func nameKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let names = st.filteredNames
        let typed = st.namePicker.nameField
        defer { if st.namePicker.nameField != typed { askNames(&st, &fx) } }
        switch key {
        case .char(let c):
            // Only what a name may hold (letters, digits, - and _, up to its
            // length): anything else (a space, !) is refused as it is typed,
            // and said, not at Enter.
            guard CommandParser.isValidName(st.namePicker.nameField + String(c)) else {
                return st.show(.serverError(code: .badName, text: ""))
            }
            st.namePicker.nameField.append(c)
            st.namePicker.nameCursor = nil
        case .backspace:
            if !st.namePicker.nameField.isEmpty { st.namePicker.nameField.removeLast() }
            st.namePicker.nameCursor = nil
            preselectLastName(&st)
        case .down:
            guard !names.isEmpty else { return }
            st.namePicker.nameCursor = st.namePicker.nameCursor.map { min($0 + 1, names.count - 1) } ?? 0
        case .up:
            guard let c = st.namePicker.nameCursor else { return }
            st.namePicker.nameCursor = c == 0 ? (st.namePicker.nameField.isEmpty ? 0 : nil) : c - 1
        case .tab:
            // Complete the typed prefix with the highlighted (or first) match.
            if let n = st.namePicker.nameCursor.flatMap({ names.indices.contains($0) ? names[$0] : nil }) ?? names.first {
                st.namePicker.nameField = n
                st.namePicker.nameCursor = nil
            }
        case .enter:
            let chosen = st.namePicker.nameCursor.flatMap { names.indices.contains($0) ? names[$0] : nil } ?? st.namePicker.nameField.trimmingSpaces
            guard !chosen.isEmpty else { return st.show(.typeAName) }
            // The game went on in another window (same settings file) and this
            // one was sent here: picking the game's name takes the game back
            // with the token; the server keeps the name
            // for the seat, so NAME alone would be refused.
            if st.seatTaken, let token = st.config.token, st.game == nil,
               chosen.lowercased() == (st.myName ?? st.config.lastName ?? "").lowercased() {
                st.seatTaken = false
                st.go(.resuming)
                st.send(.resume(token), &fx)
                return
            }
            // Not greeted yet (the client has just started): said so, and
            // the name goes with the greeting.
            guard st.link == .online else {
                st.namePicker.chosenBeforeGreeting = chosen
                return st.show(.notConnected)
            }
            AccountFeature.sendName(&st, chosen, &fx)
        case .escape:
            if st.named { st.goToMain() }
        default:
            break
        }
    }

    /// The name screen, with a fresh NAMES list and the last name preselected.
    static func goToNameScreen(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        st.go(.name)
        st.namePicker.nameField = ""
        st.namePicker.nameCursor = nil
        preselectLastName(&st)
        askNames(&st, fresh: true, &fx)
    }

    /// With nothing typed and nothing picked, the cursor goes to the last name used.
    static func preselectLastName(_ st: inout ClientState) {
        guard st.namePicker.nameField.isEmpty, st.namePicker.nameCursor == nil, let last = st.config.lastName else { return }
        st.namePicker.nameCursor = st.filteredNames.firstIndex(where: { $0.lowercased() == last.lowercased() })
    }

    /// Asks the server for the names the picker needs (`namesQuery`), unless
    /// its list already answers that (`fresh`: ask anyway) or a NAMES is
    /// unanswered (its answer asks again).
    static func askNames(_ st: inout ClientState, fresh: Bool = false, _ fx: inout [ClientEffect]) {
        guard st.link == .online, st.namePicker.namesAsked.isEmpty, var query = st.namePicker.namesQuery else { return }
        if st.namePicker.namesSearchRefused { query = "" }
        guard fresh || query != st.namePicker.knownNamesPrefix else { return }
        st.namePicker.incomingNames = []
        if st.send(.names(prefix: query.isEmpty ? nil : query, limit: CommandParser.defaultNames), &fx) {
            st.namePicker.namesAsked.append(query)
        }
    }

    /// NAME lines, the answer to NAMES coming in (`LineOwner.namePicker`).
    static func line(_ st: inout ClientState, _ line: ServerLine) {
        guard case .nameEntry(let name) = line else { return }
        if !name.isEmpty, st.namePicker.incomingNames.count < 10_000 { st.namePicker.incomingNames.append(name) }
    }

    /// OK NAMES: the list the picker shows, if it answers what is typed now.
    static func reply(_ st: inout ClientState, _ reply: Reply, _ fx: inout [ClientEffect]) {
        guard case .names(_, let more) = reply else { return }
        let asked = st.namePicker.namesAsked.isEmpty ? nil : st.namePicker.namesAsked.removeFirst()
        let answer = st.namePicker.incomingNames
        st.namePicker.incomingNames = []
        // Only the answer for what is typed now counts (a stale one
        // would put back names the typing has since ruled out).
        if let asked, asked == (st.namePicker.namesSearchRefused ? "" : st.namePicker.namesQuery) {
            let picked = st.namePicker.nameCursor.flatMap { st.filteredNames.indices.contains($0) ? st.filteredNames[$0] : nil }
            st.namePicker.knownNames = answer
            st.namePicker.knownNamesPrefix = asked
            st.namePicker.knownNamesMore = more
            // The cursor stays on the name it was on, if still listed.
            st.namePicker.nameCursor = picked.flatMap { st.filteredNames.firstIndex(of: $0) }
            NamePickerFeature.preselectLastName(&st)
        }
        // Typed on while this was asked: ask for what is typed now.
        if st.screen == .name { NamePickerFeature.askNames(&st, &fx) }
    }

    /// NAMES refused.
    static func refused(_ st: inout ClientState, _ code: ErrorCode, _ text: String) {
        st.namePicker.incomingNames = []
        let asked = st.namePicker.namesAsked.isEmpty ? "" : st.namePicker.namesAsked.removeFirst()
        if asked.isEmpty {
            st.show(.serverError(code: code, text: text))
        } else if code == .badArguments || code == .unknownCommand {
            // A server that does not search: filter the list it gave.
            st.namePicker.namesSearchRefused = true
        }
        // Not asked again here: the next keypress asks (a server that
        // refuses every NAMES is not asked in a loop).
    }
}
