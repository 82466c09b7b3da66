import GhostWire
import GhostProtocol
import GameKit

/// The social lines (`LineOwner.social`): FRIEND and BLOCKED data lines,
/// presence, invitations and chat, the games' settings lines for
/// presence, chat and invites, and the answers to the social commands.
extension SocialFeature {
    /// The commands whose answers are this feature's.
    static let verbs: Set<Verb> = [.follow, .unfollow, .following, .invite, .say, .block, .unblock, .blocks, .report]

    static func line(_ st: inout ClientState, _ line: ServerLine, _ fx: inout [ClientEffect]) {
        switch line {
        case let .setting(key, value, _):
            st.social.settings[key] = value
        case .social(let social):
            self.social(&st, social, &fx)
        default:
            break
        }
    }

    static func social(_ st: inout ClientState, _ line: SocialLine, _ fx: inout [ClientEffect]) {
        switch line {
        case let .friend(name, online, playing, seen):
            if st.social.incomingFriends.count < SocialClient.maxList {
                st.social.incomingFriends.append(Friend(name: name, online: online, playing: playing, seen: seen))
            }
        case let .blocked(name):
            if st.social.incomingBlocks.count < SocialClient.maxList { st.social.incomingBlocks.append(name) }
        case let .online(name), let .offline(name):
            let online: Bool = if case .online = line { true } else { false }
            if let i = st.social.friends?.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
                st.social.friends?[i].online = online
                st.social.friends?[i].playing = nil
                st.social.friends?[i].seen = nil
            }
            // A short notice, except over a game's own (its turn, its moves)
            // and over any other notice (a refusal just caused) but presence's.
            let overPresence: Bool = switch st.alert?.notice {
            case nil, .social(.cameOnline)?, .social(.wentOffline)?: true
            default: false
            }
            if st.game == nil || st.game?.watching == true, overPresence {
                st.show(.social(online ? .cameOnline(name) : .wentOffline(name)))
            }
        case let .invite(from, code, fields):
            st.social.invitations.removeAll { $0.code == code }
            st.social.invitations.append(Invitation(from: from, code: code, fields: fields))
            if st.social.invitations.count > SocialClient.maxInvitations { st.social.invitations.removeFirst() }
            // In a game of yours it waits, said once: a key there is a move, never an answer.
            if ChatFeature.shownInvitation(st) == nil, st.game != nil { st.show(.social(.invitationWaits(from))) }
        case let .withdrawn(from, code):
            let had = st.social.invitations.contains { $0.code == code }
            st.social.invitations.removeAll { $0.code == code }
            if had, st.game == nil { st.show(.social(.withdrawn(from))) }
        case let .declined(name, code):
            guard st.social.invitedCode == code else { return }
            st.social.invited = nil
            // No longer hosting: back to the friends screen, saying who said no.
            if case .hosting(let hosted, _, _, _)? = st.lobby, hosted == code {
                st.lobby = nil
                if st.screen == .waiting { openFriends(&st, &fx) }
            }
            st.show(.social(.declinedInvitation(name)))
        case let .said(id, player, _, text):
            // Already clean (no control characters); what chat drops is dropped again here.
            let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter { !ChatText.isDropped($0.value) }))
            guard st.game?.id == id, !clean.isEmpty else { return }
            ChatFeature.said(&st, SaidLine(game: id, player: player, text: clean))
        }
    }

    // MARK: Replies

    static func reply(_ st: inout ClientState, _ reply: Reply, to first: SentLine?, _ fx: inout [ClientEffect]) {
        if case let .set(key, value) = reply {
            st.social.settings[key] = value
            return st.show(.social(.saved))
        }
        guard case .command(let command)? = first else { return }
        let fields: [Field] = if case .other(_, let f) = reply { f } else { [] }
        switch command {
        case .follow(let asked):
            st.social.addField = nil
            st.show(.social(.followed(fields["name"] ?? asked)))
            if st.screen == .social(.friends) { askFriends(&st, &fx) }
        case .unfollow(let name):
            st.social.friends?.removeAll { $0.name.lowercased() == name.lowercased() }
            clampCursors(&st)
            st.show(.social(.unfollowed(name)))
        case .following:
            st.social.friends = st.social.incomingFriends
            st.social.incomingFriends = []
            clampCursors(&st)
        case .invite(let name, _):
            st.social.inviting = nil
            guard let code = fields["code"], st.game == nil else { return }
            st.social.invited = (fields["name"] ?? name, code)
            // No game= is the server's default kind (the client's catalog says which).
            let game = fields["game"].map { GameKind(rawValue: $0) } ?? ClientGames.defaultKind
            let match = fields["rounds"].flatMap(Rounds.init(rawValue:)) == .ghost
            st.lobby = .hosting(code: code, lang: fields["lang"] ?? "", match: match, game: game)
            st.go(.waiting)
        case .block(let name):
            // A block ends a follow too.
            st.social.friends?.removeAll { $0.name.lowercased() == name.lowercased() }
            if st.social.blocks != nil, !(st.social.blocks ?? []).contains(name) { st.social.blocks?.append(name) }
            clampCursors(&st)
            st.show(.social(.blocked(fields["name"] ?? name)))
        case .unblock(let name):
            st.social.blocks?.removeAll { $0.lowercased() == name.lowercased() }
            clampCursors(&st)
            st.show(.social(.unblocked(name)))
        case .blocks:
            st.social.blocks = st.social.incomingBlocks
            st.social.incomingBlocks = []
            clampCursors(&st)
        default:
            break  // OK SAY, OK DECLINE <code>, OK REPORT: said when sent
        }
    }

    static func refused(_ st: inout ClientState, _ code: ErrorCode, _ text: String, to first: SentLine?, _ fx: inout [ClientEffect]) {
        guard case .command(let command)? = first else { return }
        switch command {
        case .invite(let name, _):
            st.social.inviting = nil
            if code == .unavailable { return st.show(.social(.unavailable(name: name, reason: UnavailableReason.read(text)))) }
        case .following:
            // Not stuck on "asking": an empty list, and why.
            st.social.friends = st.social.friends ?? []
            st.social.incomingFriends = []
        case .blocks:
            st.social.blocks = st.social.blocks ?? []
            st.social.incomingBlocks = []
        default:
            break
        }
        st.show(.social(.refused(code: code, text: text)))
    }

    static func clampCursors(_ st: inout ClientState) {
        st.social.friendsCursor = min(st.social.friendsCursor, max(0, (st.social.friends?.count ?? 0) - 1))
        st.social.blocksCursor = min(st.social.blocksCursor, max(0, (st.social.blocks?.count ?? 0) - 1))
    }
}
