import GhostWire
import GhostProtocol
import GameKit

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
    /// Every game, Ghost's and Hangman's too, is drawn from the server's
    /// description of it (`VIEW`, Games/Generic), as a kind this client has
    /// no code for (`--plain-screens`).
    public var plainScreens = false
    /// The kind of a game that ended while this player was away (`OK RESUME
    /// status=over game=<kind>`), when the generic screen draws it: the
    /// OVER that follows is that kind's, not Ghost's.
    public var resumedOverKind: GameKind?
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

    /// Friends, blocks, invitations, chat and privacy settings (Social/).
    public var social = SocialClient()

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

    /// When the core next needs a tick: an alert or a key flash ends, a
    /// countdown's number changes, the greeting or a keepalive is due.
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
