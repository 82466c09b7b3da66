import GhostWire
import GhostProtocol

/// Everything that happens to the client: the core's input.
public enum ClientEvent: Equatable, Sendable {
    /// A line from the server, decoded (lines the client does not know never get here).
    case server(ServerLine)
    case key(Key)
    /// Several characters that arrived in one read: a paste (a person types
    /// one key at a time).
    case paste([Key])
    /// The TCP connection is up (the greeting is still to come).
    case connected
    /// The connection failed or dropped.
    case disconnected
    /// The connection cannot be made safely (TLS: the certificate did not
    /// verify): shown, and not retried.
    case refused(String)
    /// The clock, in monotonic seconds; sent whenever the loop wakes up.
    case tick(Double)
    /// The terminal's size changed.
    case resize(width: Int, height: Int)
    /// Saving the config failed (the app reports it; the core shows it).
    case configSaveFailed(String)
}

/// What the core asks the outside world to do: its output.
public enum ClientEffect: Equatable, Sendable {
    /// Send one command (the connection writes `command.rendered` and a line end).
    case send(Command)
    /// Send a command that carries a password (the connection writes `line`
    /// and a line end). Nothing else ever sees the password.
    case sendAccount(AccountCommand)
    /// Write `state.config` to the config file.
    case saveConfig
    /// Close the connection if open, and connect again after this many seconds.
    case reconnect(after: Double)
    /// Restore the terminal and exit.
    case quit
    /// Repaint the whole screen, not only what changed (Ctrl-L: the
    /// terminal may show what another program wrote over it).
    case redraw
}

public enum Screen: Equatable, Sendable {
    case language, tutorial, name, main, computer, join, waiting, resuming, game, over, scores
    /// Hangman's screens (Games/Hangman).
    case hangman(HangmanScreen)
    /// The games in progress one may watch (Watch/).
    case watchList
    /// A registered name's password: logging in, registering, changing it (Account/).
    case account(AccountScreen)
    /// A player's record: history, replay and review, profile, leaders (Record/).
    case record(RecordScreen)
}

/// The state of the link to the server.
public enum Link: Equatable, Sendable {
    /// Connecting for the first time.
    case connecting
    /// TCP is up; waiting for HELLO.
    case connected
    /// HELLO received: commands can be sent.
    case online
    /// Down; a reconnection is scheduled.
    case offline
    /// Down for good: the connection cannot be made safely (TLS: the server's
    /// certificate did not verify). Not retried; the text says why.
    case refused(String)
}

/// An alert on the status line. The text is chosen when drawing, so it follows
/// the language.
public enum Notice: Equatable, Sendable {
    case notYourTurn
    case lettersOnly
    /// A paste of several letters in a game: none is played.
    case pastedSeveral
    case notConnected
    case typeAName
    case typeACode
    case offerSent
    case gameEnded
    case seekCancelled
    case seatTaken
    /// This connection's name was taken by a login in another window.
    case signedOut
    case returned(String)
    /// A game of this player's ended with no score (`ABORTED`).
    case aborted(AbortReason)
    /// A game menu entry that does not apply right now was chosen.
    case unavailable(GameMenuItem)
    case declined(String)
    case accepted(String)
    case configSaveFailed(String)
    /// `OK HINT`: whether a win can be forced, and the letter perfect play picks.
    case hint(winning: Bool, letter: String)
    /// `OK HINT challenge=yes` (bluff and challenge): no word starts with the fragment.
    case challengeHint
    /// `OK HINT word=<w>`: the word that answers the challenge; nil: none, concede.
    case wordHint(String?)
    /// Bluff and challenge: Enter before a letter of the answer was typed.
    case typeTheWord
    /// An `ERR` line: its code and the server's text.
    case serverError(code: ErrorCode, text: String)
    /// Hangman's own alerts.
    case hangman(HangmanNotice)
    /// WATCH refused: the game ended, is private, or this client is busy.
    case watchRefused(ErrorCode)
    /// About passwords and registered names (Account/).
    case account(AccountNotice)
    /// A kind's own move refused (`ERR <code> <text>`, Games/Generic): the
    /// client's words for a code it knows, else the server's.
    case kindRefusal(code: ErrorCode, text: String)
    /// The kind chosen (named) has no computer to play on this server.
    case noComputer(String)
    /// The rules of a kind the client has no code for (the main menu's `?`):
    /// none here; its moves are offered in the game.
    case kindRules(name: String)
    /// A kind's move that takes a word, sent with no word typed (Games/Generic).
    case typeAWord

    /// Said about the move being made: no longer true once the turn changes.
    public var isAboutTheTurn: Bool {
        switch self {
        case .notYourTurn, .lettersOnly, .pastedSeveral, .hint, .offerSent, .challengeHint, .wordHint, .typeTheWord, .kindRefusal, .typeAWord: true
        case .serverError(let code, _): code == .notYourTurn || code == .notALetter
        default: false
        }
    }
}

public struct Alert: Equatable, Sendable {
    public var notice: Notice
    /// Until when it is shown (monotonic seconds).
    public var until: Double
}

public struct Offer: Equatable, Sendable {
    public var player: String
    public var kind: OfferKind
    public var lang: String?
}

/// How a round (of a match) or a game ended: an `OVER` line and its `INFO`.
public struct RoundEnd: Equatable, Sendable {
    public var winner: String
    public var loser: String
    public var reason: OverReason
    public var fragment: String
    /// The letters of G-H-O-S-T each seat holds afterwards (matches only).
    public var ghost: [String]
    public var info: String?
    /// After a dead fragment: a word the fragment before the last letter led to (`word=`).
    public var word: String?
}

/// The last letter (Ghost) or guess (Hangman) played, and by whom.
public struct LastMove: Equatable, Sendable {
    public var player: String
    public var letter: String
    public init(_ player: String, _ letter: String) {
        self.player = player
        self.letter = letter
    }
}

/// A game in progress, as the server last described it. Its `==` is the
/// synthesized one: every field counts.
public struct GameInfo: Equatable, Sendable {
    public var id: Int
    public var lang: String
    /// In seat order: players[0] starts every round.
    public var players: [String]
    public var round: Int
    /// Who is to move (from TURN); nil until the first TURN.
    public var toMove: String?
    /// The last letter played and by whom.
    public var lastMove: LastMove?
    /// The key that flashes on the keyboard, and until when.
    public var flash: Character?
    public var flashUntil: Double = 0
    /// The absent opponent (ADJOURNED), and the grace period they had.
    public var away: String?
    public var grace: Int?
    /// CLAIMABLE arrived: the absent player may be claimed against.
    public var claimable = false
    public var offer: Offer?
    /// The computer's level, in a game against it (`bot=`).
    public var bot: BotLevel?
    /// The kind's own state: Ghost's fragment and variants, or Hangman's board.
    public var board: Game = .ghost(GhostState())
    /// A game on a clock: the seconds per move (GAME's `clock=`), and when
    /// the time of the move in play runs out (monotonic seconds, from TURN's
    /// `clock=`; nil while the computer is to move).
    public var clock: Int?
    public var clockDue: Double?
    /// A game without a clock: what the mover's countdown leads to (TURN's
    /// `abort_in=` or `claim_in=`) and when it runs out
    /// (monotonic seconds); nil when the server sent none.
    public var deadline: TurnDeadline?
    public var deadlineDue: Double?
    /// Who watches (GAME's audience, then WATCHERS): how many, whether the
    /// game may be watched at all (`watch=no`), and whether this client is
    /// a watcher rather than a player (its keys play nothing).
    public var watchers = 0
    public var open = true
    public var watching = false
    /// The running score against the opponent: the server's head-to-head
    /// record in this kind of game before this one (GAME's `record=`), the
    /// receiver's wins first. Nil when the server sent none (a first game;
    /// the computer).
    public var record: HeadToHead?
    /// Whether the server rates this game, and each seat's rating before it
    /// (GAME's `ratings=`; nil: unrated, as every game against the computer
    /// is). The play screens say "rated" from it, never
    /// from what this client asked for.
    public var ratings: SeatRatings?
    /// Whether a person has moved in this game, as the server's MOVE and
    /// TURN lines show (the computer's moves do not count): before that,
    /// LEAVE aborts the game and nobody loses (Protocol.md, `ABORTED
    /// reason=left`). A position this client did not see
    /// built (a resumed game) counts as moved: the question then warns of a loss.
    public var personMoved = false

    public init(id: Int, lang: String, players: [String], round: Int) {
        self.id = id
        self.lang = lang
        self.players = players
        self.round = round
    }
}

public struct RankEntry: Equatable, Sendable {
    public var name: String
    public var rank: Int
    public var wins: Int
}

/// A finished game: OVER, its INFO and its RANK lines.
public struct GameResult: Equatable, Sendable {
    public var id: Int
    public var winner: String
    public var loser: String
    public var reason: OverReason
    public var fragment: String
    /// After a dead fragment: a word the fragment before the last letter led to (`word=`).
    public var word: String?
    /// Both players, in seat order, as the game had them.
    public var players: [String] = []
    /// The INFO line that follows OVER: the reason in the server's words.
    public var info: String?
    public var ranks: [RankEntry] = []
    /// I asked for a rematch (OK REMATCH status=asked).
    public var rematchAsked = false
    /// The opponent asked for a rematch (REMATCH event).
    public var rematchOfferedBy: String?
    /// A rematch request (either's) lapsed: the opponent moved on (CANCELLED kind=rematch).
    public var rematchLapsed = false
    /// A whole G-H-O-S-T match ended (MATCH), with each seat's letters.
    public var match = false
    public var ghost: [String] = []
    /// The computer's level, if the opponent was the computer.
    public var bot: BotLevel?
    /// A Superghost game: a dead fragment is one no word contains.
    public var superghost = false
    /// A bluff and challenge game (with `superghost`: the variant, for a match's title).
    public var challenge = false
    /// It ended while this player was away: RESUME answered with its OVER
    /// (`ended=`, unix seconds).
    public var endedAt: Int?
    /// A game of a kind this client has no code for (Games/Generic): its kind.
    public var kind: GameKind?
}

/// Where the player is waiting before a game.
public enum LobbyWait: Equatable, Sendable {
    /// `game`: the kind the seek asked for.
    case seeking(lang: String, match: Bool, game: GameKind = .ghost)
    /// `game`: the kind of the private game opened.
    case hosting(code: String, lang: String, match: Bool, game: GameKind = .ghost)
}

/// Players waiting in another seek queue (WAITING), whom this seek will not meet.
public struct OtherSeekers: Equatable, Sendable {
    public var lang: String
    public var match: Bool
    public var count: Int
    /// The queue's game kind.
    public var game: GameKind = .ghost
    /// Their clock (seconds per move), nil for none.
    public var clock: Int? = nil
    /// Their Ghost variant (`super`: Superghost), nil for Ghost.
    public var variant: String? = nil
}

/// The computer's levels, and the screen's last entry: who starts.
public enum ComputerMenuItem: Equatable, Sendable {
    case level(BotLevel)
    case starter
    case back

    public static let all: [ComputerMenuItem] = BotLevel.allCases.map { .level($0) } + [.starter, .back]
}

extension Board {
    /// The board a finished game counts on.
    public static func of(bot: BotLevel?, match: Bool) -> Board {
        Board(mode: match ? .match : .game, bot: bot)
    }
}

public enum OverMenuItem: CaseIterable, Equatable, Sendable {
    case rematch, newGame, changeName, main, scores
    /// The game just finished, replayed with its review.
    case review
}

public enum GameMenuItem: Equatable, Sendable {
    case accept, decline, claim, hint, restart, language(String), leave, close
}

/// How the client connects: TLS or not, and the certificates it trusts
/// (`--tls`, `--tls-ca`; or as saved with the server).
public struct ConnectionTLS: Equatable, Sendable {
    public var tls: Bool
    public var caFile: String?
    public init(tls: Bool, caFile: String? = nil) {
        self.tls = tls
        self.caFile = tls ? caFile : nil
    }
}

/// The whole client, as a value. `reduce` is the only way it changes.
public struct ClientState: Equatable, Sendable {
    public var config: ClientConfig
    /// `host:port`, for the status line.
    public var serverAddress: String
    /// Whether the connection to `serverAddress` uses TLS, and with which
    /// certificates: written to the settings file with `server=` once a server
    /// answered there (nil: not known, nothing written).
    public var connectionTLS: ConnectionTLS?
    /// Colour and attributes allowed (NO_COLOR unset, and a terminal).
    public var colour: Bool
    public var width = 80
    public var height = 24
    public var now: Double = 0

    public var link: Link = .connecting
    /// When the TCP connection came up (for the greeting's time limit).
    public var connectedAt: Double = 0
    /// Another connection took this game's seat with the same token (the
    /// same settings file used twice; the server said `BYE replaced`): do
    /// not take it back on reconnecting.
    public var seatTaken = false
    /// The server took this connection's name away (the same name logged in
    /// from another window: the server closed the connection, now nameless,
    /// with `BYE name-timeout` while the client held a name): do not log in
    /// again on reconnecting, or the two would take it from each other forever.
    public var signedOut = false
    /// A game resumed here had ended meanwhile (its OVER shown) and the name
    /// is taken back: if that needs a password, the result comes back once
    /// logged in, instead of the main screen.
    public var resultAfterLogin = false
    /// A HELLO has come since the client started: a drop is "connection
    /// lost", not "no server there".
    public var everOnline = false
    /// Failed or dropped connections since the last HELLO: drives the backoff.
    public var attempts = 0
    /// Languages in the server's HELLO.
    public var serverLanguages: [String] = Strings.uiLanguages
    /// Lines sent and not yet answered by OK/ERR, oldest first: replies come
    /// in order, so each OK or ERR answers the first of these.
    public var sent: [SentLine] = []
    /// The verbs of `sent` (a REGISTER or PASSWORD has none this protocol version types).
    public var pending: [Verb] { sent.compactMap(\.verb) }
    /// When a command was last sent (the keepalive PING goes after a silence).
    public var lastSentAt: Double = 0

    public var screen: Screen
    /// Menu cursor of the current screen (language, main, game menu, over).
    public var menuIndex = 0
    public var alert: Alert?

    /// My name, once the server has accepted it (or a game shows it).
    public var myName: String?
    /// The server holds my name on this connection.
    public var named = false

    /// The language screen and the tutorial (Settings/).
    public var settings = SettingsState()

    /// The name screen: the name typed, the cursor, the server's list (Names/).
    public var namePicker = NamePickerState()

    public var codeField = ""
    public var lobby: LobbyWait?
    /// While seeking: who waits in other queues (another language or game type).
    public var otherSeekers: [OtherSeekers] = []
    /// The game kind of the last SEEK sent, for the screen that waits on it.
    var seekGame: GameKind = .ghost
    public var game: GameInfo?
    public var gameMenuOpen = false
    public var confirmLeave = false
    /// The game menu's language entry was chosen: asked first, it restarts the round.
    public var confirmLanguage: String?
    /// Quitting asks first (Ctrl-C on any screen, q on the main screen).
    public var confirmQuit = false
    public var result: GameResult?

    /// The high-score screen: the board shown, its table, where Esc goes (Scores/).
    public var highScores = ScoresState()

    /// Against the computer: it moves first (`first=bot`), as saved.
    public var computerFirst: Bool {
        get { config.computerFirst }
        set { config.computerFirst = newValue }
    }
    /// The last `NEW bot=…` sent, to play the computer again after a game.
    public var lastComputerGame: Command?

    /// The app asked to quit; no more reconnecting.
    public var quitting = false

    /// Hangman's settings, last finished game, lists and typing (Games/Hangman).
    public var hangman = HangmanClient()

    /// The list of games to watch, and the game watched (Watch/).
    public var watch = WatchClient()

    /// Registered names: the password being typed, the one kept in memory, and
    /// whether a password may be sent at all (Account/).
    public var account = AccountClient()

    /// Ratings, history, replay and review, profiles and leaders (Record/).
    public var record = RecordClient()

    /// The game kinds the server announced that this client has no code
    /// for (HELP's `NEW game=<kind>` lines, Games/Generic), the ones being
    /// received, and whether HELP was asked on this connection.
    public var serverKinds: [AnnouncedKind] = []
    var incomingKinds: [AnnouncedKind] = []
    var kindsAsked = false
    /// An announced kind chosen on the main screen (never saved: a server
    /// without it would have none to offer), nil for the saved built-in one.
    public var genericChoice: GameKind?

    public init(config: ClientConfig, serverAddress: String, colour: Bool = false) {
        self.config = config
        self.serverAddress = serverAddress
        self.colour = colour
        if config.language == nil {
            screen = .language
        } else if config.token != nil {
            screen = .resuming
        } else if !config.tutorialSeen {
            screen = .tutorial
        } else {
            screen = .name
        }
        settings.tutorialReturn = .name
        settings.languageReturn = .name
        if screen == .tutorial { settings.tutorialPage = firstTutorialPage.index }
        if screen == .name { NamePickerFeature.preselectLastName(&self) }
    }

    /// The texts in the chosen language.
    public var strings: Strings { Strings.forLanguage(config.language) }

    /// The game on screen: the one played (or watched), else the one chosen
    /// on the main screen (what "Make the window larger: … needs" names).
    public var gamePlayed: GameKind {
        if let g = game { return g.hangman != nil ? .hangman : g.generic?.kind ?? .ghost }
        if case .hangman = screen { return .hangman }
        return chosenKind
    }

    /// The window is below the smallest size any screen is drawn in: only
    /// its request is drawn, and keys other than quitting do nothing.
    public var windowTooSmall: Bool { width < Screens.minWidth || height < Screens.minHeight }

    /// The name picker's two lists, each filtered by the typed prefix (any
    /// case): the names used from this client (the config's, most recent
    /// first), then the server's (`knownNames`) that are not among them
    /// (names compare case-insensitively).
    public var pickerNames: (here: [String], server: [String]) {
        let prefix = namePicker.nameField.lowercased()
        let here = config.usedNames.filter { $0.lowercased().hasPrefix(prefix) }
        var seen = Set(here.map { $0.lowercased() })
        let server = namePicker.knownNames.filter { $0.lowercased().hasPrefix(prefix) && seen.insert($0.lowercased()).inserted }
        return (here, server)
    }

    /// The picker's entries in order: this client's names, then the server's.
    public var filteredNames: [String] {
        let names = pickerNames
        return names.here + names.server
    }

    /// Whether `name` is me (names compare case-insensitively).
    public func isMe(_ name: String?) -> Bool {
        guard let name, let me = myName else { return false }
        return name.lowercased() == me.lowercased()
    }

    /// The game menu's entries, in order, for the current game. The list is
    /// fixed for the whole game, so every entry keeps its key; an entry that
    /// does not apply right now is shown disabled (`gameMenuEnabled`).
    /// Against the computer there are no offers to answer and no one to claim
    /// against; hints are only given against Easy.
    public var gameMenuItems: [GameMenuItem] {
        guard let game else { return [.close] }
        var items: [GameMenuItem] = []
        // The computer (Ghost's `bot=`, Hangman's `bot-hangman` seat) makes no offers and never stays away.
        let computer = game.bot != nil || game.players.contains { $0.hasPrefix("bot-") }
        if !computer { items += [.accept, .decline, .claim] }
        if game.bot == .easy { items.append(.hint) }
        items.append(.restart)
        for code in serverLanguages { items.append(.language(code)) }
        items += [.leave, .close]
        return items
    }

    /// Whether a game menu entry applies now.
    public func gameMenuEnabled(_ item: GameMenuItem) -> Bool {
        guard let game else { return item == .close }
        switch item {
        case .accept, .decline:
            guard let offer = game.offer else { return false }
            return !isMe(offer.player)
        case .claim: return game.claimable
        case .language(let code): return code != game.lang
        case .hint, .restart, .leave, .close: return true
        }
    }

    /// When the core next needs a tick: an alert or a key flash ends.
    /// The seconds the player to move has left in a game on a clock (the
    /// countdown), nil without one or while the computer is to move.
    public var clockLeft: Int? {
        guard let due = game?.clockDue, game?.ghost?.roundEnd == nil else { return nil }
        return max(0, Int((due - now).rounded(.up)))
    }

    /// A game without a clock: the mover's countdown to an abort (no first
    /// move) or to a claim (no move), in seconds; nil without one.
    public var deadlineLeft: (deadline: TurnDeadline, seconds: Int)? {
        guard let g = game, let d = g.deadline, let due = g.deadlineDue, !g.watching || !watch.ended,
              g.ghost?.roundEnd == nil, !g.claimable else { return nil }
        return (d, max(0, Int((due - now).rounded(.up))))
    }

    public var nextDeadline: Double? {
        var times: [Double] = []
        if let alert { times.append(alert.until) }
        if let game, game.flash != nil { times.append(game.flashUntil) }
        // A countdown on screen: wake when its number changes.
        if let due = game?.clockDue ?? game?.deadlineDue, due > now {
            // The number shown, ceil(due - now), drops when due - now passes the next whole second.
            times.append(due - ((due - now).rounded(.up) - 1) + 0.01)
        }
        if link == .connected { times.append(connectedAt + ClientState.helloSeconds) }
        if link == .online { times.append(lastSentAt + ClientState.keepaliveSeconds) }
        // A review the server is still working out: asked again by itself (Record/).
        if let at = reviewRetryDeadline { times.append(at) }
        if let due = watchListDue { times.append(max(now, due)) }
        if let at = account.retryAt, at > now, case .account = screen {
            // The wait shown on the login screen counts down.
            times.append(at - ((at - now).rounded(.up) - 1) + 0.01)
        }
        return times.min()
    }
}
