import GhostWire
import GhostProtocol
import GameKit

/// The friends screen (FOLLOWING, FOLLOW, UNFOLLOW, INVITE), the blocks
/// screen (BLOCKS, UNBLOCK), the settings others see you by (SET presence,
/// chat, invites), and the question before a block (BLOCK), asked from the
/// friends screen and from a profile.
enum SocialFeature {
    /// The friends screen, its list asked afresh (`f` on the main screen).
    static func openFriends(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        if case .social = st.screen {} else { st.social.friendsReturn = st.screen == .waiting ? .main : st.screen }
        st.go(.social(.friends))
        st.social.addField = nil
        askFriends(&st, &fx)
    }

    /// FOLLOWING: the list shown stays (and keys act on it) until the answer replaces it.
    static func askFriends(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        st.social.incomingFriends = []
        st.send(.following, &fx)
    }

    static func openBlocks(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        st.go(.social(.blocks))
        st.social.blocks = nil
        st.social.incomingBlocks = []
        st.send(.blocks, &fx)
    }

    static func openSettings(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        st.go(.social(.settings))
        st.menuIndex = st.social.settingsRow
        // SETTINGS lists them (with the games' own), once the server has them.
        st.send(.settings, &fx)
    }

    static func key(_ st: inout ClientState, _ sub: SocialScreen, _ key: Key, _ fx: inout [ClientEffect]) {
        switch sub {
        case .friends: friendsKey(&st, key, &fx)
        case .blocks: blocksKey(&st, key, &fx)
        case .settings: settingsKey(&st, key, &fx)
        }
    }

    /// The connection dropped: what was on its way will not be answered,
    /// and a hosted invitation is gone with the connection; the lists
    /// shown stay until asked again (r).
    static func disconnected(_ st: inout ClientState) {
        st.social.inviting = nil
        st.social.invited = nil
        st.social.incomingFriends = []
        st.social.incomingBlocks = []
        if st.social.friends == nil { st.social.friends = [] }
        if st.social.blocks == nil, st.screen == .social(.blocks) { st.social.blocks = [] }
    }

    // MARK: Friends

    static func friendsKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        if st.social.addField != nil { return addKey(&st, key, &fx) }
        let count = st.social.friends?.count ?? 0
        switch key {
        case .up: st.social.friendsCursor = max(0, st.social.friendsCursor - 1)
        case .down: st.social.friendsCursor = min(max(0, count - 1), st.social.friendsCursor + 1)
        case .home: st.social.friendsCursor = 0
        case .end: st.social.friendsCursor = max(0, count - 1)
        case .char("a"), .char("A"): st.social.addField = ""
        case .enter, .char("i"), .char("I"):
            if let friend = st.social.chosenFriend { invite(&st, friend.name, &fx) }
        case .char("w"), .char("W"):
            // Watch the game the chosen friend plays (as w on the main screen's list does).
            if let id = st.social.chosenFriend?.playing, st.watch.asked == nil, st.send(.watch(id), &fx) { st.watch.asked = id }
        case .char("u"), .char("U"):
            if let friend = st.social.chosenFriend { st.send(.unfollow(friend.name), &fx) }
        case .char("x"), .char("X"):
            if let friend = st.social.chosenFriend { askBlock(&st, friend.name) }
        case .char("k"), .char("K"): openBlocks(&st, &fx)
        case .char("p"), .char("P"): openSettings(&st, &fx)
        case .char("r"), .char("R"): askFriends(&st, &fx)
        case .escape, .backspace:
            let back = st.social.friendsReturn
            if back == .main || !st.named { st.goToMain() } else { st.go(back) }
        default: break
        }
    }

    /// The name to follow, as typed: a name's characters (letters, digits, - and _), Enter follows it.
    static func addKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let field = st.social.addField ?? ""
        switch key {
        case .char(let c):
            guard c.isASCII, c.isLetter || c.isNumber || c == "-" || c == "_" else { return }
            if field.count < 16 { st.social.addField = field + String(c) }
        case .backspace:
            if !field.isEmpty { st.social.addField = String(field.dropLast()) }
        case .enter:
            guard !field.isEmpty else { return st.show(.social(.typeAName)) }
            st.send(.follow(field), &fx)
        case .escape:
            st.social.addField = nil
        default: break
        }
    }

    /// `INVITE <name>` with the options the main screen's private game
    /// would have (its `i` entry, for the chosen game: kind, variant,
    /// rounds, clock, watchers), never the computer. The game's language is
    /// the connection's, as for NEW.
    static func invite(_ st: inout ClientState, _ name: String, _ fx: inout [ClientEffect]) {
        guard st.social.inviting == nil, st.lobby == nil else { return }
        guard let command = inviteCommand(st, name) else { return }
        if st.send(command, &fx) { st.social.inviting = name }
    }

    /// The INVITE the main screen's "new private game" entry would make,
    /// worked out on a copy of the state (so both make the same game).
    static func inviteCommand(_ st: ClientState, _ name: String) -> Command? {
        var copy = st
        copy.sent = []
        copy.link = .online
        var effects: [ClientEffect] = []
        LobbyFeature.mainChoice(&copy, .newPrivate, &effects)
        for case .send(.new(var options)) in effects {
            options.bot = nil
            options.botFirst = false
            return .invite(name: name, options: options)
        }
        return nil
    }

    // MARK: Blocks

    static func blocksKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let count = st.social.blocks?.count ?? 0
        switch key {
        case .up: st.social.blocksCursor = max(0, st.social.blocksCursor - 1)
        case .down: st.social.blocksCursor = min(max(0, count - 1), st.social.blocksCursor + 1)
        case .home: st.social.blocksCursor = 0
        case .end: st.social.blocksCursor = max(0, count - 1)
        case .char("u"), .char("U"):
            if let name = st.social.chosenBlock { st.send(.unblock(name), &fx) }
        case .char("r"), .char("R"): openBlocks(&st, &fx)
        case .escape, .backspace: openFriends(&st, &fx)
        default: break
        }
    }

    /// The block question: asked before BLOCK (the name is not told).
    static func askBlock(_ st: inout ClientState, _ name: String) {
        st.social.confirmBlock = name
    }

    /// y, j or Enter blocks; n, Esc or Backspace does not; other keys wait.
    static func blockQuestionKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        guard let name = st.social.confirmBlock else { return }
        switch key {
        case .enter, .char("y"), .char("Y"), .char("j"), .char("J"):
            st.social.confirmBlock = nil
            st.send(.block(name), &fx)
        case .escape, .backspace, .char("n"), .char("N"):
            st.social.confirmBlock = nil
        default: break
        }
    }

    // MARK: Settings

    static func settingsKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let rows = SocialSettingRow.allCases
        switch key {
        case .up: st.social.settingsRow = (st.social.settingsRow + rows.count - 1) % rows.count
        case .down: st.social.settingsRow = (st.social.settingsRow + 1) % rows.count
        case .enter, .right, .char(" "): change(&st, by: 1, &fx)
        case .left: change(&st, by: -1, &fx)
        case .escape, .backspace: openFriends(&st, &fx)
        default:
            if let d = key.digit, (1...rows.count).contains(d) { st.social.settingsRow = d - 1 }
        }
        st.menuIndex = st.social.settingsRow
    }

    /// The chosen setting's next (or previous) value, sent; shown once the server says it is saved.
    static func change(_ st: inout ClientState, by step: Int, _ fx: inout [ClientEffect]) {
        guard let row = SocialSettingRow(rawValue: st.social.settingsRow) else { return }
        let values = row.values
        let now = values.firstIndex(of: st.social.setting(row)) ?? 0
        let next = values[(now + step + values.count) % values.count]
        st.send(.set(key: row.key, value: next), &fx)
    }
}
