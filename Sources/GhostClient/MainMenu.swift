import GhostProtocol
import GameKit

/// An entry of the main screen's menu, by name. A struct rather than an enum
/// so that a new entry is one row of `MainMenu.entries` (its own file may
/// name it: `static let ratings = MainMenuItem("ratings")`).
public struct MainMenuItem: Hashable, Sendable, CustomStringConvertible {
    public let id: String
    public init(_ id: String) { self.id = id }
    public var description: String { id }

    public static let quickMatch = MainMenuItem("quick-match")
    public static let computer = MainMenuItem("computer")
    public static let newPrivate = MainMenuItem("new-private")
    public static let join = MainMenuItem("join")
    /// Switches between the games (Ghost ↔ Hangman), as ←/→ do.
    public static let otherGame = MainMenuItem("other-game")
    public static let language = MainMenuItem("language")
    public static let rules = MainMenuItem("rules")
    public static let scores = MainMenuItem("scores")
    public static let changeName = MainMenuItem("change-name")
    public static let account = MainMenuItem("account")
    /// The names you follow, with presence; invitations, blocks, privacy (Social/).
    public static let friends = MainMenuItem("friends")
    public static let quit = MainMenuItem("quit")

    /// The entries in order.
    public static var allCases: [MainMenuItem] { MainMenu.entries.map(\.item) }
}

/// One row of the main menu: its name, its key (a letter, the same in both
/// languages, shown before its label: one key style in every menu), its
/// label and what choosing it does.
struct MainEntry: Sendable {
    let item: MainMenuItem
    let key: String
    let label: @Sendable (ClientState, Strings) -> String
    let choose: @Sendable (inout ClientState, inout [ClientEffect]) -> Void
}

/// The main screen's menu (the games come first, shown
/// side by side above it; the menu's entries are the chosen game's). Adding
/// an entry is one row here, with a letter no other key of the main screen
/// has (MenuKeysTests checks): keep Quit last. The letters agree with the
/// game-over menu's where the action is the same (g a quick match, n change
/// name, s high scores) and with a game's (? the rules).
enum MainMenu {
    static let entries: [MainEntry] = [
        MainEntry(item: .quickMatch, key: "g", label: { s, t in s.chosenGameTexts(t).quickMatch }, choose: { LobbyFeature.mainChoice(&$0, .quickMatch, &$1) }),
        MainEntry(item: .computer, key: "c", label: { _, t in t.menuComputer }, choose: { LobbyFeature.mainChoice(&$0, .computer, &$1) }),
        MainEntry(item: .newPrivate, key: "i", label: { s, t in s.chosenGameTexts(t).newPrivate }, choose: { LobbyFeature.mainChoice(&$0, .newPrivate, &$1) }),
        MainEntry(item: .join, key: "j", label: { _, t in t.menuJoin }, choose: { LobbyFeature.mainChoice(&$0, .join, &$1) }),
        MainEntry(item: .otherGame, key: "o", label: { s, t in t.menuOtherGame(GenericFeature.nextKindName(s, t)) },
                  choose: { GenericFeature.switchGame(&$0, &$1) }),
        MainEntry(item: .language, key: "l", label: { _, t in t.menuLanguage(t.languageName) }, choose: { LobbyFeature.mainChoice(&$0, .language, &$1) }),
        MainEntry(item: .rules, key: "?", label: { s, t in s.chosenGameTexts(t).rules }, choose: { LobbyFeature.mainChoice(&$0, .rules, &$1) }),
        MainEntry(item: .scores, key: "s", label: { s, t in s.chosenGameTexts(t).scores }, choose: { LobbyFeature.mainChoice(&$0, .scores, &$1) }),
        MainEntry(item: .changeName, key: "n", label: { s, t in t.menuChangeName + (s.myName.map { " (\($0))" } ?? "") },
                  choose: { LobbyFeature.mainChoice(&$0, .changeName, &$1) }),
        MainEntry(item: .account, key: "a", label: { s, t in s.account.isLoggedIn(as: s.myName) ? t.account.menuChangePassword : t.account.menuRegister },
                  choose: { LobbyFeature.mainChoice(&$0, .account, &$1) }),
        MainEntry(item: .friends, key: "f", label: { _, t in t.social.menuFriends }, choose: { SocialFeature.openFriends(&$0, &$1) }),
        MainEntry(item: .quit, key: "q", label: { _, t in t.menuQuit }, choose: { s, _ in s.confirmQuit = true }),
    ]

    /// Each entry's key as the menu shows it. The letters the main screen
    /// uses for its settings (t clock, v variant, m rounds, p watchers, w
    /// watch, h your games) are not entries' keys; the digits 1–9 and 0 still
    /// choose the first ten entries, as before.
    static var keys: [String] { entries.map(\.key) }
}

extension ClientState {
    /// The chosen game's texts on the main screen (an announced kind's: Games/Generic).
    func chosenGameTexts(_ t: Strings) -> GameTexts {
        texts(for: chosenKind, t, match: config.matchMode)
    }
}

extension Strings {
    /// The main menu's entry that switches games: "Other game: Hangman".
    func menuOtherGame(_ name: String) -> String {
        code == "nl" ? "Ander spel: \(name)" : "Other game: \(name)"
    }

    /// The games panel's short names: Ghost's variants (in `variantName`'s
    /// order: Ghost, Superghost, challenge) and rounds (single, match).
    /// Bluff and challenge by its whole name, as everywhere.
    var panelVariants: [String] { code == "nl" ? ["Ghost", "Super", "Bluffen en uitdagen"] : ["Ghost", "Super", "Bluff and challenge"] }
    var panelRounds: [String] { code == "nl" ? ["los spel", "partij"] : ["single", "match"] }

    /// What the main screen's title says the product is (the title bar's
    /// "ghostd" names the program; this names what it plays).
    var gamesTitle: String { code == "nl" ? "Woordspellen" : "Word games" }

    /// The product's name in large letters (the language and main screens);
    /// with Hangman chosen (`--game hangman`, or →) Hangman's own name, as
    /// "GHOSTD" spells Ghost.
    func productName(_ game: GameKind) -> String { game == .hangman ? hangman.gameName.uppercased() : "GHOSTD" }

    /// The main screen's key help: one row at 60 columns in both languages,
    /// `h` (your games, replays, reviews, profile, leaders) included, so
    /// that a new player finds them; the menu's own letters are shown before its entries.
    var mainHelp: String {
        code == "nl" ? "↑/↓ · ←/→ spel · w kijken · \(record.historyKeyHint) · Ctrl-C stoppen"
            : "↑/↓ · ←/→ game · w watch games · \(record.historyKeyHint) · Ctrl-C quit"
    }
}
