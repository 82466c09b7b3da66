import GhostProtocol

/// A game of a kind this client has no code for, played and
/// watched from `VIEW`. The kinds come from `HELP` (`HELP NEW game=<kind> …`,
/// asked once a connection has a name and its settings); a `GAME` whose
/// `game=` is not one of `ClientGames.kinds` starts the generic screen, which
/// asks `VIEW <id>` after `GAME` and after each `TURN` (a `MOVE` is followed
/// by a `TURN` unless it ended the game), and draws the answer. The generic core calls in here at one point each
/// (`genericLine`, `genericReply`, `genericError`, `genericKey`,
/// `genericMainChoice`), as it does for Hangman.
extension ClientState {
    /// The most kinds kept from a HELP answer.
    static let announcedLimit = 16
    /// The longest word typed for a move (the protocol takes 80 bytes).
    static let genericFieldLimit = 40

    /// The kind chosen on the main screen: an announced one, else the saved built-in one.
    public var chosenKind: GameKind { genericChoice ?? config.game }

    /// What the server announced about `kind`, if it did.
    func announced(_ kind: GameKind) -> AnnouncedKind? { serverKinds.first { $0.kind == kind } }

    /// A kind's name for people: a built-in kind's own, an announced one's
    /// from its HELP line, else the kind's name as the server spells it.
    func kindName(_ kind: GameKind, _ t: Strings) -> String {
        if ClientGames.plays(kind.rawValue) { return ClientGames.texts(kind, t).name }
        return announced(kind)?.name ?? kind.rawValue
    }

    /// A finished game's kind and variant as the history, the replay and
    /// the profile name it: a built-in kind's words, an announced kind's
    /// name from its HELP line, else the kind as the server spells it.
    func gameKindName(_ game: String, _ variant: String?, _ t: Strings) -> String {
        if ClientGames.plays(game) { return t.gameKindName(game, variant) }
        return announced(GameKind(rawValue: game))?.name ?? game
    }

    /// A kind's texts for the screens all games share (the main screen, the
    /// quick-match screen, the list of games to watch).
    func texts(for kind: GameKind, _ t: Strings, match: Bool = false) -> GameTexts {
        if ClientGames.plays(kind.rawValue) { return ClientGames.texts(kind, t, match: match) }
        return t.genericTexts(kindName(kind, t))
    }

    /// The options of a new game of an announced kind: its name and the saved clock.
    func genericOptions(_ kind: GameKind) -> GameOptions {
        GameOptions(game: kind, clock: config.clock)
    }

    /// Asks the server which kinds it plays (HELP), once a connection.
    mutating func askKinds(_ fx: inout [ClientEffect]) {
        guard !kindsAsked, link == .online else { return }
        kindsAsked = true
        incomingKinds = []
        send(.help, &fx)
    }

    // MARK: Server lines

    /// Takes HELP's kind lines and the lines of a game of a kind this
    /// client has no code for; false for the others.
    mutating func genericLine(_ line: ServerLine, _ fx: inout [ClientEffect]) -> Bool {
        switch line {
        case let .helpEntry(usage, text):
            if let kind = AnnouncedKind.parse(usage: usage, text: text), !ClientGames.plays(kind.kind.rawValue),
               incomingKinds.count < ClientState.announcedLimit, !incomingKinds.contains(where: { $0.kind == kind.kind }) {
                incomingKinds.append(kind)
            }
            return true
        case let .game(id, kind?, lang, players, token, round, bot, _, record, clock, audience, _):
            guard plainScreens || !ClientGames.plays(kind.rawValue) else { return false }
            let old = game.flatMap { $0.id == id ? $0.generic : nil }
            TableFeature.gameStarted(&self, id: id, lang: lang, players: players, token: token, round: round, bot: bot,
                                     board: .generic(old ?? GenericBoard(kind: kind)), record: record, clock: clock, audience: audience, &fx)
            if game?.id == id { askView(id, &fx) }
            // A game resumed before any name's settings were asked: its kind's name comes with HELP.
            askKinds(&fx)
            return true
        case .view(let data):
            guard var b = game?.generic else { return true }
            switch data {
            case let .row(key, shape, value, max, seat, label):
                if b.incomingRows.count < 64 {
                    b.incomingRows.append(ViewRowLine(key: key, shape: shape, value: value, max: max, seat: seat, label: label))
                }
            case let .can(verb, takes, then, help):
                if b.incomingMoves.count < 26 { b.incomingMoves.append(ViewMoveLine(verb: verb, takes: takes, then: then, help: help)) }
            }
            game?.generic = b
            return true
        case let .turn(id, named, fields, clock, deadline):
            guard let g = currentGame(id), g.generic != nil else { return false }
            // Both players may move (`alice,bob`): for a player, their own turn.
            let both = named.split(separator: ",").map(String.init)
            let player = both.count > 1 ? both.first(where: isMe) ?? named : named
            // My move went through: the next one starts with an empty field.
            if g.toMove.map(isMe) == true, !isMe(player) {
                game?.generic?.field = ""
                game?.generic?.cursor = 0
            }
            TableFeature.turn(&self, id: id, player: player, fields: fields, clock: clock, deadline: deadline)
            askView(id, &fx)
            return true
        case let .move(id, player, fields):
            guard currentGame(id)?.generic != nil else { return false }
            // My move went through: the word typed for it is spent (a
            // Hangman guesser moves again at once, with no TURN of the other's between).
            if isMe(player) { game?.generic?.field = "" }
            TableFeature.move(&self, id: id, player: player, fields: fields)
            return true
        case let .over(id, winner, loser, reason, _, _):
            return genericOver(id, GameResult(id: id, winner: winner, loser: loser, reason: reason, fragment: ""), &fx)
        case let .drawn(id, _, reason, _, _):
            var r = GameResult(id: id, winner: "", loser: "", reason: reason, fragment: "")
            r.drawn = true
            return genericOver(id, r, &fx)
        case .info(let text):
            // The INFO after a watched game's OVER says why, in the kind's words.
            guard watch.ended, game?.generic != nil, watch.result != nil, watch.result?.info == nil else { return false }
            watch.result?.info = text
            return true
        default:
            return false
        }
    }

    /// The end of a game on the generic screen (OVER, won or drawn): a
    /// player goes to the game-over screen, a watcher keeps the board.
    private mutating func genericOver(_ id: Int, _ ended: GameResult, _ fx: inout [ClientEffect]) -> Bool {
        guard let g = currentGame(id), let b = g.generic else { return false }
        var r = ended
        r.players = g.players
        r.bot = g.bot
        r.kind = b.kind
        if g.watching {
            // A watched game's end: its board stays, with who won, until a key goes back to the list.
            game?.toMove = nil
            game?.clockDue = nil
            game?.generic?.moves = []
            WatchFeature.watchedGameEnded(&self, r)
            return true
        }
        result = r
        game = nil
        setToken(nil, &fx)
        go(.over)
        return true
    }

    /// Asks for the board of game `id` (VIEW).
    mutating func askView(_ id: Int, _ fx: inout [ClientEffect]) {
        game?.generic?.incomingRows = []
        game?.generic?.incomingMoves = []
        send(.view(id), &fx)
    }

    // MARK: Replies and refusals

    /// Takes OK HELP, OK VIEW and the OK of a kind's own move; asks HELP
    /// after OK SETTINGS (the connection has a name). False for the others.
    mutating func genericReply(_ reply: Reply, to first: SentLine?, _ fx: inout [ClientEffect]) -> Bool {
        switch (first?.verb, reply) {
        case (.help?, .help):
            serverKinds = incomingKinds
            incomingKinds = []
            // A kind chosen here that this server does not play is chosen no more.
            if let g = genericChoice, announced(g) == nil { genericChoice = nil }
            return true
        case (.view?, .other(_, let fields)):
            guard var b = game?.generic, fields["id"].flatMap({ Int($0) }) == game?.id else { return true }
            let was = b.chosen?.verb
            b.rows = b.incomingRows
            b.moves = b.incomingMoves
            b.incomingRows = []
            b.incomingMoves = []
            // The cursor stays on the move it was on, if still offered.
            b.cursor = b.moves.firstIndex { $0.verb == was } ?? 0
            game?.generic = b
            return true
        case (.kindMove?, _):
            // The move went through: the word typed for it is spent.
            game?.generic?.field = ""
            return true
        case (.settings?, _):
            askKinds(&fx)
            return false
        case let (.scores?, .bestGames(_, board)) where highScores.scoresKind.map({ board.hasPrefix($0.rawValue + "-") }) == true:
            // An announced kind's board of wins: its SCORE lines are the core's.
            highScores.scores = highScores.incomingScores
            highScores.incomingScores = []
            return true
        case let (.new?, .other(_, fields)):
            // A private game of an announced kind: its waiting screen names it
            // (against the computer there is no code: the GAME follows at once).
            guard let kind = fields["game"], !ClientGames.plays(kind) else { return false }
            if let code = fields["code"], game == nil {
                lobby = .hosting(code: code, lang: fields["lang"] ?? "", match: false, game: GameKind(rawValue: kind))
                go(.waiting)
            }
            return true
        default:
            return false
        }
    }

    /// Takes the refusals of VIEW (the game is over: its OVER says the rest)
    /// and of a kind's own moves (shown, in the server's words for a code
    /// the client does not know).
    mutating func genericError(_ verb: Verb?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) -> Bool {
        switch verb {
        case .view?:
            game?.generic?.incomingRows = []
            game?.generic?.incomingMoves = []
            return true
        case .help?:
            incomingKinds = []
            return true
        case .kindMove?:
            show(.kindRefusal(code: code, text: text))
            return true
        default:
            return false
        }
    }

    /// A reply while HELP is the oldest command unanswered that is not
    /// HELP's: HELP is never refused and is answered in order, so it was
    /// answered already (or dropped); it no longer holds the queue.
    mutating func dropAnsweredHelp(unless isHelp: Bool) {
        if !isHelp, case .command(.help)? = sent.first { sent.removeFirst() }
    }

    // MARK: Keys

    /// The generic screen's keys, with the game menu closed: ↑/↓ choose a
    /// move, letters type its word (or play the one letter move at once),
    /// Backspace erases, Enter sends the move chosen. False for the keys
    /// the game screen takes as in every game (Esc, Tab, an offer's answer).
    mutating func genericKey(_ key: Key, _ fx: inout [ClientEffect]) -> Bool {
        guard var b = game?.generic, !gameMenuOpen else { return false }
        if key == .escape || key == .tab { return false }
        if offerKeys == .oneKey, key == .enter || key == .backspace || key == .delete { return false }
        defer { game?.generic = b }
        switch key {
        case .up, .down:
            guard !b.moves.isEmpty else { return true }
            b.cursor = (b.cursor + (key == .up ? b.moves.count - 1 : 1)) % b.moves.count
        case .backspace, .delete:
            if !b.field.isEmpty { b.field.removeLast() }
        case .enter:
            guard let move = b.chosen else {
                show(.notYourTurn)
                return true
            }
            switch move.takes {
            case .none:
                send(move.command(""), &fx)
            case .word:
                guard !b.field.isEmpty else {
                    show(.typeAWord)
                    return true
                }
                send(move.command(b.field), &fx)
            case .letter:
                guard b.field.count == 1 else {
                    show(.lettersOnly)
                    return true
                }
                send(move.command(b.field), &fx)
            }
        case .char("?"):
            break  // no rules page for a kind this client does not know
        default:
            guard let c = key.letter else {
                show(.lettersOnly)
                return true
            }
            if b.typesText {
                if b.field.count < ClientState.genericFieldLimit { b.field.append(c) }
            } else if let move = b.letterMove {
                send(move.command(String(c)), &fx)
            } else if b.moves.isEmpty {
                show(.notYourTurn)
            } else {
                show(.lettersOnly)
            }
        }
        return true
    }

    /// Letters a paste may type: into the field of a move that takes a word.
    var genericTyping: Bool {
        screen == .game && !gameMenuOpen && !confirmLeave && game?.generic?.typesText == true && !watchingAGame
    }

    // MARK: The main screen

    /// The games the main screen offers, in the order ←/→ visit them: the
    /// built-in ones, then those the server announced.
    var offeredKinds: [GameKind] { ClientGames.kinds + serverKinds.map(\.kind) }

    /// The next (or previous) game becomes the chosen one: a built-in one
    /// is saved, an announced one is not (a server without it would have
    /// none to offer: the saved game stays a built-in one).
    mutating func switchGame(backwards: Bool = false, _ fx: inout [ClientEffect]) {
        askKinds(&fx)
        let kinds = offeredKinds
        let i = kinds.firstIndex(of: chosenKind) ?? 0
        let next = kinds[(i + (backwards ? kinds.count - 1 : 1)) % kinds.count]
        if ClientGames.plays(next.rawValue) {
            genericChoice = nil
            if config.game != next {
                config.game = next
                fx.append(.saveConfig)
            }
        } else {
            genericChoice = next
        }
    }

    /// The name of the game "Other game" switches to.
    func nextKindName(_ t: Strings) -> String {
        let kinds = offeredKinds
        let i = kinds.firstIndex(of: chosenKind) ?? 0
        return kindName(kinds[(i + 1) % kinds.count], t)
    }

    /// Whether the main menu's entry applies to the game chosen (the
    /// computer only for a kind whose levels the server announced).
    func mainEntryEnabled(_ item: MainMenuItem) -> Bool {
        guard let kind = genericChoice, item == .computer else { return true }
        return !genericLevels(kind).isEmpty
    }

    /// The boards of an announced kind's high scores: games between people, then each of its computer's levels.
    var scoresKindModes: [String] {
        ["game"] + (highScores.scoresKind.map { genericLevels($0).map(\.rawValue) } ?? [])
    }

    /// The computer's levels of an announced kind that this client can name.
    func genericLevels(_ kind: GameKind) -> [BotLevel] {
        (announced(kind)?.levels ?? []).compactMap(BotLevel.init(rawValue:))
    }

    /// The main menu's entries for an announced kind (the others are as for every game).
    mutating func genericMainChoice(_ item: MainMenuItem, _ fx: inout [ClientEffect]) -> Bool {
        guard let kind = genericChoice else { return false }
        let starting = pending.last == .seek || pending.last == .new || pending.last == .join
        switch item {
        case .quickMatch:
            if !starting { send(.seek(genericOptions(kind)), &fx) }
        case .newPrivate:
            if !starting { send(.new(genericOptions(kind)), &fx) }
        case .scores:
            highScores.scoresKind = kind
            highScores.scoresKindMode = "game"
            ScoresFeature.goToScores(&self, from: .main, &fx)
        case .rules:
            // No tutorial page of its own, and never another game's rules.
            show(.kindRules(name: kindName(kind, strings)))
        case .computer:
            guard mainEntryEnabled(.computer) else {
                show(.noComputer(kindName(kind, strings)))
                return true
            }
            go(.computer)
        default:
            return false
        }
        return true
    }

    /// The computer screen's entries: the levels of the game chosen, who starts, back.
    var computerItems: [ComputerMenuItem] {
        guard let kind = genericChoice else { return ComputerMenuItem.all }
        return genericLevels(kind).map { .level($0) } + [.starter, .back]
    }

    /// A new game against the computer at `level`, of the game chosen.
    func computerGame(_ level: BotLevel) -> Command {
        var options = genericChoice.map(genericOptions) ?? LobbyFeature.ghostOptions(self)
        options.bot = level
        options.botFirst = computerFirst
        return .new(options)
    }

    /// The game-over menu's "new game" and "play again" for a game of an
    /// announced kind (nil for a built-in kind's).
    func genericAgain(_ r: GameResult, computer: Bool) -> Command? {
        guard let kind = r.kind else { return nil }
        var options = genericOptions(kind)
        guard computer else { return .seek(options) }
        options.bot = r.bot
        options.botFirst = computerFirst
        return .new(options)
    }
}
