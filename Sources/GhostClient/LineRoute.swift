import GhostProtocol
import HangmanWire

/// The feature a server line belongs to. Decided once, by what the line is
/// (its verb, the game it is about, whether that game is the one played or
/// watched), before any feature sees it: a feature is handed only its own
/// lines, and no feature's answer decides whether another sees a line.
enum LineOwner: Equatable, Sendable {
    /// The record's data lines: RESULT, RATING, VERSUS, LEADER, PLAYED, PLY (Record/).
    case record
    /// LIVE, a game this client stopped watching (UNWATCH crossed its lines),
    /// the end of a watched game shown already, a watched game aborted (Watch/).
    case watch
    /// Hangman's GAME and OVER, its lists (BEST), its settings (SETTING),
    /// and the INFO, REMATCH and CANCELLED about its last end (Games/Hangman).
    case hangman
    /// HELP's kind lines, VIEW, and the GAME, TURN, MOVE, OVER and INFO of a
    /// game of a kind this client has no code for (Games/Generic).
    case generic
    /// Ghost's GAME, OVER and MATCH, and a round's INFO (Games/Ghost).
    case ghost
    /// The table every game has: who is to move, moves, the audience, an
    /// absent player, offers, rematches, an abort, the end's INFO and RANK.
    case table
    /// The greeting (HELLO) and BYE (Link/).
    case link
    /// NAME lines, and the answer to NAMES (Names/).
    case namePicker
    /// SCORE lines, and the answer to SCORES (Scores/).
    case scores
    /// WAITING, and the answers to SEEK, NEW, JOIN and LEAVE (Lobby/).
    case lobby
    /// Friends, blocks, presence, invitations, chat, and the settings
    /// presence, chat and invites (Social/).
    case social
    /// The rest: OK and ERR (each then routed on its own), the name taken,
    /// and a refusal for want of a name.
    case client
    /// A reply to a command that carries a password (Account/).
    case account
}

extension LineOwner {
    /// The owner of `line` in `s`.
    static func of(_ line: ServerLine, in s: ClientState) -> LineOwner {
        let watch = s.watch
        // The events of a game this client stopped watching are dropped by the watch feature.
        if let id = line.gameID, id == watch.left { return .watch }
        switch line {
        case .ratingData, .played, .ply:
            return .record
        case .live:
            return .watch
        case let .setting(key, _, _) where SocialSettingRow.row(key) != nil:
            return .social
        case .bestRank, .bestScore, .setting:
            return .hangman
        case .social:
            return .social
        case .helpEntry, .view:
            return .generic
        case let .game(_, kind, _, _, _, _, _, _, _, _, _, _):
            if s.plainScreens, kind != nil { return .generic }
            if kind == .hangman { return .hangman }
            if let kind, !ClientGames.plays(kind.rawValue) { return .generic }
            return (kind ?? ClientGames.defaultKind) == .ghost ? .ghost : .client
        case let .over(id, _, _, _, _, _):
            if id == watch.left || (watch.ended && id == watch.id) { return .watch }
            if s.currentGame(id)?.hangman != nil { return .hangman }
            if s.currentGame(id)?.generic != nil { return .generic }
            // The OVER that answers RESUME: a kind drawn from VIEW's is the
            // generic feature's, any other Ghost's (its words, as protocol 1's).
            if s.game == nil, s.resumedOverKind != nil { return .generic }
            return .ghost
        case let .drawn(id, _, _, _, _):
            // Only a kind the client draws from VIEW ends drawn.
            if id == watch.left || (watch.ended && id == watch.id) { return .watch }
            return .generic
        case let .match(id, _, _, _):
            if id == watch.left || (watch.ended && id == watch.id) { return .watch }
            return .ghost
        case let .aborted(id, _, _):
            if (id == watch.id && !watch.ended) || id == watch.left { return .watch }
            return .table
        case .info:
            // The INFO after an end says why, in words: it goes where that end went.
            if s.game == nil, s.hangmanScreen == .play || s.hangmanScreen == .settings, let end = s.hangman.ended,
               end.info == nil { return .hangman }
            if watch.ended, s.game?.generic != nil, watch.result != nil, watch.result?.info == nil { return .generic }
            if let end = s.game?.ghost?.roundEnd, end.info == nil { return .ghost }
            return .table
        case let .turn(id, _, _, _, _), let .move(id, _, _):
            return s.currentGame(id)?.generic != nil ? .generic : .table
        case let .rematch(id, _):
            return s.result == nil && s.hangman.ended?.id == id ? .hangman : .table
        case let .cancelled(id, _, kind):
            return kind == .rematch && s.result == nil && s.hangman.ended?.id == id ? .hangman : .table
        case .watchers, .adjourned, .returned, .claimable, .offer, .accepted, .declined, .rank:
            return .table
        case .hello, .bye:
            return .link
        case .nameEntry:
            return .namePicker
        case .score:
            return .scores
        case .waiting:
            return .lobby
        case .ok, .error, .stat:
            return .client
        }
    }
}

/// Replies (OK, ERR) answer the oldest command awaiting one: their owner is
/// read from what they are and from that command.
extension LineOwner {
    /// The record's commands: their OK is `OK <verb> …` with fields (`Reply.other`).
    static let recordVerbs: Set<Verb> = [.history, .moves, .review, .profile, .top]

    /// The owner of an OK answering `first`. A login's OK is the client's
    /// (the name taken); the account notes it on its way (`ClientState.ok`).
    static func of(reply: Reply, to first: SentLine?, in s: ClientState) -> LineOwner {
        if case .account(let command)? = first {
            if case .login = command {} else { return .account }
        }
        let verb = first?.verb
        if let verb, SocialFeature.verbs.contains(verb) { return .social }
        if case .command(.declineInvite)? = first { return .social }
        if case .set(let key, _) = reply, SocialSettingRow.row(key) != nil { return .social }
        switch reply {
        case .games, .watch, .unwatch:
            return .watch
        case .other where verb.map(recordVerbs.contains) == true:
            return .record
        default:
            break
        }
        switch (verb, reply) {
        case (.help?, .help), (.view?, .other):
            return .generic
        case (.kindMove?, _) where s.game?.generic != nil:
            return .generic
        case let (.scores?, .bestGames(_, board)) where s.highScores.scoresKind.map({ board.hasPrefix($0.rawValue + "-") }) == true:
            return .generic
        case let (.new?, .other(_, fields)):
            // A private game of an announced kind.
            if let kind = fields["game"], !ClientGames.plays(kind) { return .generic }
        default:
            break
        }
        switch reply {
        case .set, .settings, .bestGames:
            return .hangman
        case let .other(text, fields):
            if Verb(spelled: text) == .new { return fields["game"] == HangmanWire.kind ? .hangman : .client }
            return text == HangmanWire.Verb.word || text == HangmanWire.Verb.solve ? .hangman : .client
        case .rematch:
            // Asked on Hangman's end screen, which has no `result`.
            return s.result == nil && s.hangman.ended != nil ? .hangman : .table
        case .restart, .lang, .resume:
            return .table
        case .hint:
            return .ghost
        case .names:
            return .namePicker
        case .scores:
            return .scores
        case .seek, .new, .join, .leave:
            return .lobby
        default:
            return .client
        }
    }

    /// The owner of an ERR refusing `first`. A refusal for want of a name is
    /// the client's (it asks for a name), except where the feature says so itself.
    static func of(refusal code: ErrorCode, to first: SentLine?, in s: ClientState) -> LineOwner {
        if code == AccountCodes.passwordRequired, case .command(.name)? = first { return .account }
        if case .account? = first { return .account }
        let verb = first?.verb
        if let move = first?.move {
            // A move of a game on the generic screen is its; of Ghost's or Hangman's, theirs.
            if s.game?.generic != nil { return .generic }
            if move == HangmanWire.Verb.word { return code == .notAWord && s.game?.hangman != nil ? .hangman : .client }
            guard move == HangmanWire.Verb.letter || move == HangmanWire.Verb.solve else { return .client }
            if code == .alreadyGuessed { return .hangman }
            return move == HangmanWire.Verb.letter && (code == .notYourTurn || code == .notALetter) ? .table : .client
        }
        if let verb, SocialFeature.verbs.contains(verb) { return code == .noName ? .client : .social }
        if case .command(.declineInvite)? = first { return .social }
        if case .command(.set(let key, _))? = first, SocialSettingRow.row(key) != nil { return code == .noName ? .client : .social }
        switch verb {
        case .set?:
            return code == .noName ? .client : .hangman
        case .resume?:
            return .table
        case .new?:
            if code == .noPhrases { return .hangman }
            // A Hangman game refused: the server's text says which value and why.
            return code == .badValue && (s.config.game == .hangman || s.hangmanScreen != nil) ? .hangman : .client
        case .scores?:
            if s.hangmanScreen != nil { return .hangman }
            return code == .noName ? .client : .scores
        case .names?:
            return code == .noName ? .client : .namePicker
        case .games?:
            return .watch
        case .watch?, .unwatch?:
            return code == .noName ? .client : .watch
        case let verb? where recordVerbs.contains(verb):
            return code == .noName ? .client : .record
        case .view?, .help?:
            return .generic
        default:
            return .client
        }
    }
}
