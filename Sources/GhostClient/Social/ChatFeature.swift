import GhostWire
import GhostProtocol
import GameKit

/// Chat in a game (SAY, SAID) and the answer to an invitation (JOIN or
/// DECLINE its code). Their keys are the same on every screen and no
/// screen uses them for anything else: `:` opens the chat line (a letter
/// is a move; Tab, Enter, Esc, ?, !, - and = are taken), `+` accepts an
/// invitation and `-` declines it (outside a game: in one, `-` concedes a
/// challenge, and a player in a game is never invited).
enum ChatFeature {
    static let openKey = Key.char(":")
    static let acceptKey = Key.char("+")
    static let declineKey = Key.char("-")

    /// A game is on screen, played or watched, and not over: the chat line may open.
    static func available(_ s: ClientState) -> Bool {
        guard let g = s.game else { return false }
        if g.watching { return !s.watch.ended }
        return s.screen == .game || s.screen == .hangman(.play)
    }

    /// A key while the chat line is open: it takes every key (letters never
    /// reach the game); Enter sends the line as `SAY`, Esc closes it unsent.
    static func chatKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let line = st.social.chat ?? ""
        switch key {
        case .char(let c):
            // Only what chat may hold, up to its length (the server's rule, ChatText).
            guard !c.unicodeScalars.contains(where: { ChatText.isDropped($0.value) }),
                  line.unicodeScalars.count + c.unicodeScalars.count <= CommandTable.maxChatText else { return }
            st.social.chat = line + String(c)
        case .backspace:
            if !line.isEmpty { st.social.chat = String(line.dropLast()) }
        case .enter:
            st.social.chat = nil
            guard case .success(let text) = ChatText.cleaned(line) else { return }
            if st.send(.say(text), &fx), let g = st.game {
                // Your own line, shown as the others' are.
                said(&st, SaidLine(game: g.id, player: st.myName ?? "", text: text))
            }
        case .escape:
            st.social.chat = nil
        default:
            break
        }
    }

    /// Keeps a line of chat, the last `keptLines` of the game on screen.
    static func said(_ st: inout ClientState, _ line: SaidLine) {
        st.social.said.removeAll { $0.game != line.game }
        st.social.said.append(line)
        if st.social.said.count > SocialClient.keptLines { st.social.said.removeFirst(st.social.said.count - SocialClient.keptLines) }
    }

    /// The lines of chat to show: the game on screen's.
    static func shownLines(_ s: ClientState) -> [SaidLine] {
        guard let g = s.game else { return [] }
        return s.social.said.filter { $0.game == g.id }
    }

    // MARK: Invitations

    /// The invitation shown (the oldest), when there is one and no game of
    /// yours is on screen (watching one, it shows).
    static func shownInvitation(_ s: ClientState) -> Invitation? {
        guard s.game == nil || s.watchingAGame || s.screen == .over, s.named else { return nil }
        return s.social.invitations.first
    }

    /// Whether `+` and `-` answer the invitation shown: one is shown and no
    /// text field is open (a name, a code, a password, a word, the chat line).
    static func answersInvitation(_ s: ClientState) -> Bool {
        shownInvitation(s) != nil && TextEditing.typedField(s) == nil
    }

    /// `+`: JOIN its code (the game starts); `-`: DECLINE it (the inviter is told).
    static func invitationKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        guard let invitation = shownInvitation(st) else { return }
        st.social.invitations.removeFirst()
        if key == acceptKey {
            // Waiting for a game of your own, or watching one: that is left
            // first (the server would say busy).
            if st.lobby != nil { st.send(.leave, &fx) }
            if st.watchingAGame { WatchFeature.backToWatchList(&st, &fx) }
            st.send(.join(invitation.code), &fx)
        } else {
            st.send(.declineInvite(invitation.code), &fx)
            st.show(.social(.youDeclined(invitation.from)))
        }
    }
}
