import GhostProtocol
import GameKit

/// A game of a kind this client has no code for, played and
/// watched from `VIEW`. The kinds come from `HELP` (`HELP NEW game=<kind> …`,
/// asked once a connection has a name and its settings); a `GAME` whose
/// `game=` is not one of `ClientGames.kinds` starts the generic screen, which
/// asks `VIEW <id>` after `GAME` and after each `TURN` (a `MOVE` is followed
/// by a `TURN` unless it ended the game), and draws the answer. The generic core calls in here at one point each
/// (`line`, for the lines `LineOwner.generic` names, `reply`, `error`, `key`,
/// `mainChoice`), as it does for Hangman. The names of the kinds that every
/// screen shows stay `ClientState`'s (ClientState+Kinds.swift).
enum GenericFeature {
    /// The most kinds kept from a HELP answer.
    static let announcedLimit = 16
    /// The longest word typed for a move (the protocol takes 80 bytes).
    static let fieldLimit = 40

    /// The options of a new game of an announced kind: its name and the saved clock.
    static func options(_ s: ClientState, _ kind: GameKind) -> GameOptions {
        GameOptions(game: kind, clock: s.config.clock)
    }

    /// Asks the server which kinds it plays (HELP), once a connection.
    static func askKinds(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        guard !st.kindsAsked, st.link == .online else { return }
        st.kindsAsked = true
        st.incomingKinds = []
        st.send(.help, &fx)
    }

    // MARK: Server lines

    /// Takes HELP's kind lines and the lines of a game of a kind this
    /// client has no code for; false for the others.
    static func line(_ st: inout ClientState, _ line: ServerLine, _ fx: inout [ClientEffect]) -> Bool {
        switch line {
        case let .helpEntry(usage, text):
            if let kind = AnnouncedKind.parse(usage: usage, text: text), !ClientGames.plays(kind.kind.rawValue),
               st.incomingKinds.count < announcedLimit, !st.incomingKinds.contains(where: { $0.kind == kind.kind }) {
                st.incomingKinds.append(kind)
            }
            return true
        case let .game(id, kind?, lang, players, token, round, bot, _, record, clock, audience, _):
            guard st.plainScreens || !ClientGames.plays(kind.rawValue) else { return false }
            let old = st.game.flatMap { $0.id == id ? $0.generic : nil }
            TableFeature.gameStarted(&st, id: id, lang: lang, players: players, token: token, round: round, bot: bot,
                                     board: .generic(old ?? GenericBoard(kind: kind)), record: record, clock: clock, audience: audience, &fx)
            if st.game?.id == id { askView(&st, id, &fx) }
            // A game resumed before any name's settings were asked: its kind's name comes with HELP.
            askKinds(&st, &fx)
            return true
        case .view(let data):
            guard var b = st.game?.generic else { return true }
            switch data {
            case let .row(key, shape, value, max, seat, label):
                if b.incomingRows.count < 64 {
                    b.incomingRows.append(ViewRowLine(key: key, shape: shape, value: value, max: max, seat: seat, label: label))
                }
            case let .can(verb, takes, then, help):
                if b.incomingMoves.count < 26 { b.incomingMoves.append(ViewMoveLine(verb: verb, takes: takes, then: then, help: help)) }
            }
            st.game?.generic = b
            return true
        case let .turn(id, named, fields, clock, deadline):
            guard let g = st.currentGame(id), g.generic != nil else { return false }
            // Both players may move (`alice,bob`): for a player, their own turn.
            let both = named.split(separator: ",").map(String.init)
            let player = both.count > 1 ? both.first(where: st.isMe) ?? named : named
            // My move went through: the next one starts with an empty field.
            if g.toMove.map(st.isMe) == true, !st.isMe(player) {
                st.game?.generic?.field = ""
                st.game?.generic?.cursor = 0
            }
            TableFeature.turn(&st, id: id, player: player, fields: fields, clock: clock, deadline: deadline)
            askView(&st, id, &fx)
            return true
        case let .move(id, player, fields):
            guard st.currentGame(id)?.generic != nil else { return false }
            // My move went through: the word typed for it is spent (a
            // Hangman guesser moves again at once, with no TURN of the other's between).
            if st.isMe(player) { st.game?.generic?.field = "" }
            TableFeature.move(&st, id: id, player: player, fields: fields)
            return true
        case let .over(id, winner, loser, reason, fields, _):
            let r = GameResult(id: id, winner: winner, loser: loser, reason: reason, fragment: "")
            guard st.game == nil else { return over(&st, id, r, &fx) }
            return endedMeanwhile(&st, r, players: [winner, loser], fields, &fx)
        case let .drawn(id, players, reason, fields, _):
            var r = GameResult(id: id, winner: "", loser: "", reason: reason, fragment: "")
            r.drawn = true
            guard st.game == nil else { return over(&st, id, r, &fx) }
            return endedMeanwhile(&st, r, players: players, fields, &fx)
        case .info(let text):
            // The INFO after a watched game's OVER says why, in the kind's words.
            guard st.watch.ended, st.game?.generic != nil, st.watch.result != nil, st.watch.result?.info == nil else { return false }
            st.watch.result?.info = text
            return true
        default:
            return false
        }
    }

    /// The end of a game on the generic screen (OVER, won or drawn): a
    /// player goes to the game-over screen, a watcher keeps the board.
    private static func over(_ st: inout ClientState, _ id: Int, _ ended: GameResult, _ fx: inout [ClientEffect]) -> Bool {
        guard let g = st.currentGame(id), let b = g.generic else { return false }
        var r = ended
        r.players = g.players
        r.bot = g.bot
        r.kind = b.kind
        if g.watching {
            // A watched game's end: its board stays, with who won, until a key goes back to the list.
            st.game?.toMove = nil
            st.game?.clockDue = nil
            st.game?.generic?.moves = []
            WatchFeature.watchedGameEnded(&st, r)
            return true
        }
        st.result = r
        st.game = nil
        st.setToken(nil, &fx)
        st.go(.over)
        return true
    }

    /// The OVER that answers RESUME of a finished game's token comes without
    /// GAME: the players are its own, it says when it ended, and the kind
    /// is the one `OK RESUME` named (none: a draw, which only such kinds have).
    private static func endedMeanwhile(_ st: inout ClientState, _ ended: GameResult, players: [String], _ fields: [Field],
                                       _ fx: inout [ClientEffect]) -> Bool {
        var r = ended
        r.players = players
        r.endedAt = fields["ended"].flatMap { Int($0) }
        r.kind = st.resumedOverKind
        st.resumedOverKind = nil
        st.result = r
        st.setToken(nil, &fx)
        st.go(.over)
        return true
    }

    /// Asks for the board of game `id` (VIEW).
    static func askView(_ st: inout ClientState, _ id: Int, _ fx: inout [ClientEffect]) {
        st.game?.generic?.incomingRows = []
        st.game?.generic?.incomingMoves = []
        st.send(.view(id), &fx)
    }

    // MARK: Replies and refusals

    /// Takes OK HELP, OK VIEW and the OK of a kind's own move; asks HELP
    /// after OK SETTINGS (the connection has a name). False for the others.
    static func reply(_ st: inout ClientState, _ reply: Reply, to first: SentLine?, _ fx: inout [ClientEffect]) -> Bool {
        switch (first?.verb, reply) {
        case (.help?, .help):
            st.serverKinds = st.incomingKinds
            st.incomingKinds = []
            // A kind chosen here that this server does not play is chosen no more.
            if let g = st.genericChoice, st.announced(g) == nil { st.genericChoice = nil }
            return true
        case (.view?, .other(_, let fields)):
            guard var b = st.game?.generic, fields["id"].flatMap({ Int($0) }) == st.game?.id else { return true }
            let was = b.chosen?.verb
            b.rows = b.incomingRows
            b.moves = b.incomingMoves
            b.incomingRows = []
            b.incomingMoves = []
            // The cursor stays on the move it was on, if still offered.
            b.cursor = b.moves.firstIndex { $0.verb == was } ?? 0
            st.game?.generic = b
            return true
        case (.kindMove?, _):
            // The move went through: the word typed for it is spent.
            st.game?.generic?.field = ""
            return true
        case (.settings?, _):
            askKinds(&st, &fx)
            return false
        case let (.scores?, .bestGames(_, board)) where st.highScores.scoresKind.map({ board.hasPrefix($0.rawValue + "-") }) == true:
            // An announced kind's board of wins: its SCORE lines are the core's.
            st.highScores.scores = st.highScores.incomingScores
            st.highScores.incomingScores = []
            return true
        case let (.new?, .other(_, fields)):
            // A private game of an announced kind: its waiting screen names it
            // (against the computer there is no code: the GAME follows at once).
            guard let kind = fields["game"], !ClientGames.plays(kind) else { return false }
            if let code = fields["code"], st.game == nil {
                st.lobby = .hosting(code: code, lang: fields["lang"] ?? "", match: false, game: GameKind(rawValue: kind))
                st.go(.waiting)
            }
            return true
        default:
            return false
        }
    }

    /// Takes the refusals of VIEW (the game is over: its OVER says the rest)
    /// and of a kind's own moves (shown, in the server's words for a code
    /// the client does not know).
    static func error(_ st: inout ClientState, _ verb: Verb?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) -> Bool {
        switch verb {
        case .view?:
            st.game?.generic?.incomingRows = []
            st.game?.generic?.incomingMoves = []
            return true
        case .help?:
            st.incomingKinds = []
            return true
        case .kindMove?:
            st.show(.kindRefusal(code: code, text: text))
            return true
        default:
            return false
        }
    }

    /// A reply while HELP is the oldest command unanswered that is not
    /// HELP's: HELP is never refused and is answered in order, so it was
    /// answered already (or dropped); it no longer holds the queue.
    static func dropAnsweredHelp(_ st: inout ClientState, unless isHelp: Bool) {
        if !isHelp, case .command(.help)? = st.sent.first { st.sent.removeFirst() }
    }

    // MARK: Keys

    /// The generic screen's keys, with the game menu closed: ↑/↓ choose a
    /// move, letters type its word (or play the one letter move at once),
    /// Backspace erases, Enter sends the move chosen. False for the keys
    /// the game screen takes as in every game (Esc, Tab, an offer's answer).
    static func key(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) -> Bool {
        guard var b = st.game?.generic, !st.gameMenuOpen else { return false }
        if key == .escape || key == .tab { return false }
        if st.offerKeys == .oneKey, key == .enter || key == .backspace || key == .delete { return false }
        defer { st.game?.generic = b }
        switch key {
        case .up, .down:
            guard !b.moves.isEmpty else { return true }
            b.cursor = (b.cursor + (key == .up ? b.moves.count - 1 : 1)) % b.moves.count
        case .backspace, .delete:
            if !b.field.isEmpty { b.field.removeLast() }
        case .enter:
            guard let move = b.chosen else {
                st.show(.notYourTurn)
                return true
            }
            switch move.takes {
            case .none:
                st.send(move.command(""), &fx)
            case .word:
                guard !b.field.isEmpty else {
                    st.show(.typeAWord)
                    return true
                }
                st.send(move.command(b.field), &fx)
            case .letter:
                guard b.field.count == 1 else {
                    st.show(.lettersOnly)
                    return true
                }
                st.send(move.command(b.field), &fx)
            }
        case .char("?"):
            break  // no rules page for a kind this client does not know
        default:
            guard let c = key.letter else {
                st.show(.lettersOnly)
                return true
            }
            if b.typesText {
                if b.field.count < fieldLimit { b.field.append(c) }
            } else if let move = b.letterMove {
                st.send(move.command(String(c)), &fx)
            } else if b.moves.isEmpty {
                st.show(.notYourTurn)
            } else {
                st.show(.lettersOnly)
            }
        }
        return true
    }

    /// Letters a paste may type: into the field of a move that takes a word.
    static func typing(_ s: ClientState) -> Bool {
        s.screen == .game && !s.gameMenuOpen && !s.confirmLeave && s.game?.generic?.typesText == true && !s.watchingAGame
    }

    // MARK: The main screen

    /// The next (or previous) game becomes the chosen one: a built-in one
    /// is saved, an announced one is not (a server without it would have
    /// none to offer: the saved game stays a built-in one).
    static func switchGame(_ st: inout ClientState, backwards: Bool = false, _ fx: inout [ClientEffect]) {
        askKinds(&st, &fx)
        let kinds = st.offeredKinds
        let i = kinds.firstIndex(of: st.chosenKind) ?? 0
        let next = kinds[(i + (backwards ? kinds.count - 1 : 1)) % kinds.count]
        if ClientGames.plays(next.rawValue) {
            st.genericChoice = nil
            if st.config.game != next {
                st.config.game = next
                fx.append(.saveConfig)
            }
        } else {
            st.genericChoice = next
        }
    }

    /// The name of the game "Other game" switches to.
    static func nextKindName(_ s: ClientState, _ t: Strings) -> String {
        let kinds = s.offeredKinds
        let i = kinds.firstIndex(of: s.chosenKind) ?? 0
        return s.kindName(kinds[(i + 1) % kinds.count], t)
    }

    /// Whether the main menu's entry applies to the game chosen (the
    /// computer only for a kind whose levels the server announced).
    static func mainEntryEnabled(_ s: ClientState, _ item: MainMenuItem) -> Bool {
        guard let kind = s.genericChoice, item == .computer else { return true }
        return !levels(s, kind).isEmpty
    }

    /// The boards of an announced kind's high scores: games between people, then each of its computer's levels.
    static func scoresKindModes(_ s: ClientState) -> [String] {
        ["game"] + (s.highScores.scoresKind.map { levels(s, $0).map(\.rawValue) } ?? [])
    }

    /// The computer's levels of an announced kind that this client can name.
    static func levels(_ s: ClientState, _ kind: GameKind) -> [BotLevel] {
        (s.announced(kind)?.levels ?? []).compactMap(BotLevel.init(rawValue:))
    }

    /// The main menu's entries for an announced kind (the others are as for every game).
    static func mainChoice(_ st: inout ClientState, _ item: MainMenuItem, _ fx: inout [ClientEffect]) -> Bool {
        guard let kind = st.genericChoice else { return false }
        let starting = st.pending.last == .seek || st.pending.last == .new || st.pending.last == .join
        switch item {
        case .quickMatch:
            if !starting { st.send(.seek(options(st, kind)), &fx) }
        case .newPrivate:
            if !starting { st.send(.new(options(st, kind)), &fx) }
        case .scores:
            st.highScores.scoresKind = kind
            st.highScores.scoresKindMode = "game"
            ScoresFeature.goToScores(&st, from: .main, &fx)
        case .rules:
            // No tutorial page of its own, and never another game's rules.
            st.show(.kindRules(name: st.kindName(kind, st.strings)))
        case .computer:
            guard mainEntryEnabled(st, .computer) else {
                st.show(.noComputer(st.kindName(kind, st.strings)))
                return true
            }
            st.go(.computer)
        default:
            return false
        }
        return true
    }

    /// The computer screen's entries: the levels of the game chosen, who starts, back.
    static func computerItems(_ s: ClientState) -> [ComputerMenuItem] {
        guard let kind = s.genericChoice else { return ComputerMenuItem.all }
        return levels(s, kind).map { .level($0) } + [.starter, .back]
    }

    /// A new game against the computer at `level`, of the game chosen.
    static func computerGame(_ s: ClientState, _ level: BotLevel) -> Command {
        var o = s.genericChoice.map { options(s, $0) } ?? LobbyFeature.ghostOptions(s)
        o.bot = level
        o.botFirst = s.computerFirst
        return .new(o)
    }

    /// The game-over menu's "new game" and "play again" for a game of an
    /// announced kind (nil for a built-in kind's).
    static func again(_ s: ClientState, _ r: GameResult, computer: Bool) -> Command? {
        guard let kind = r.kind else { return nil }
        var o = options(s, kind)
        guard computer else { return .seek(o) }
        o.bot = r.bot
        o.botFirst = s.computerFirst
        return .new(o)
    }
}
