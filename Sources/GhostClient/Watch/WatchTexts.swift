import GhostProtocol

/// The texts of watching games in progress, in both languages: the list of
/// live games, the watcher's screens, the players' count of watchers, and
/// the main screen's choice to keep watchers out.
public struct WatchTexts: Sendable {
    /// The language (`Strings.code`).
    public let code: String

    private var dutch: Bool { code == "nl" }

    public var watchListTitle: String { dutch ? "Lopende spellen" : "Games in progress" }
    public var watchListIntro: String {
        dutch ? "Kies een spel om naar te kijken: je ziet elke zet, maar speelt zelf niet mee."
            : "Choose a game to watch: you see every move, and play none."
    }
    public var watchListLoading: String { dutch ? "De lopende spellen worden opgevraagd…" : "Asking the server for the games in progress…" }
    public var watchListEmpty: String { dutch ? "Er wordt nu geen spel gespeeld." : "No games in progress." }
    public var watchListMore: String { dutch ? "… en meer" : "… and more" }
    public var watchListHelp: String {
        dutch ? "↑/↓ kiezen · Enter kijken · r vernieuwen · Esc terug" : "↑/↓ choose · Enter watch · r refresh · Esc back"
    }

    /// Two players: "alice vs bob".
    public func versus(_ a: String, _ b: String) -> String { dutch ? "\(a) tegen \(b)" : "\(a) vs \(b)" }

    /// A live game's numbers: "3 moves · 2 watching · 0:30 a move".
    public func liveDetails(moves: Int, watchers: Int, clock: Int?) -> String {
        var parts: [String] = []
        if dutch {
            parts.append(moves == 1 ? "1 zet" : "\(moves) zetten")
            parts.append(watchers == 0 ? "nog geen kijkers" : watcherCount(watchers))
            if let clock { parts.append("\(ClockTexts.minutesAndSeconds(clock)) per zet") }
        } else {
            parts.append(moves == 1 ? "1 move" : "\(moves) moves")
            parts.append(watchers == 0 ? "nobody watching" : watcherCount(watchers))
            if let clock { parts.append("\(ClockTexts.minutesAndSeconds(clock)) a move") }
        }
        return parts.joined(separator: " · ")
    }

    /// A game of a kind this client has no screen for.
    public func cannotShow(_ kind: String) -> String {
        dutch ? "(\(kind): deze client kan dit spel niet tonen)" : "(\(kind): this client cannot show it)"
    }

    /// The watcher's screens: the title's word, and the key help.
    public var watchingTitle: String { dutch ? "Kijken" : "Watching" }
    public func watchingHelp(_ a: String, _ b: String) -> String {
        dutch ? "Je kijkt naar \(a) tegen \(b) · Esc: stoppen met kijken" : "Watching \(a) vs \(b) · Esc: stop watching"
    }
    public var watchEndedHelp: String {
        dutch ? "Het spel is afgelopen · Enter of Esc: terug naar de lijst" : "The game is over · Enter or Esc: back to the list"
    }

    /// How many watch a game: "2 watching".
    public func watcherCount(_ n: Int) -> String {
        dutch ? (n == 1 ? "1 kijker" : "\(n) kijkers") : "\(n) watching"
    }
    /// A game its players keep watchers out of (`watch=no`).
    public var privateMark: String { dutch ? "privé" : "private" }

    /// The main screen's line for watchers of new games (NEW).
    public func watchersSetting(_ privateGames: Bool) -> String {
        if dutch {
            return "Kijkers: " + (privateGames ? "niet toegestaan" : "toegestaan") + " (p)"
        }
        return "Watchers: " + (privateGames ? "not allowed" : "allowed") + " (p)"
    }

    /// A refusal of WATCH or UNWATCH, in the client's words; nil: the general text.
    public func watchErrorText(_ code: ErrorCode) -> String? {
        switch code {
        case .privateGame:
            dutch ? "Dat spel is privé: de spelers willen geen kijkers." : "That game is private: its players keep watchers out."
        case .noSuchGame:
            dutch ? "Dat spel is al afgelopen; de lijst is bijgewerkt." : "That game has ended; the list is up to date again."
        case .notWatching:
            dutch ? "Je kijkt nu naar geen enkel spel." : "You are not watching a game."
        case .busy:
            dutch ? "Nu niet: je wacht al op een spel, of speelt er een." : "Not now: you are waiting for a game, or playing one."
        default:
            nil
        }
    }
}

extension Strings {
    /// Watching's texts in this language.
    public var watch: WatchTexts { WatchTexts(code: code) }
}
