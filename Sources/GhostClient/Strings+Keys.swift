/// The questions asked before anything destructive: changing a
/// game's language restarts its round; quitting from the main screen.
extension Strings {
    public func confirmLanguage(_ language: String) -> String {
        code == "nl" ? "In het \(language) spelen en de ronde herstarten? j: ja · n: nee"
            : "Play in \(language) and restart the round? y: yes · n: no"
    }

    /// The claim prompt: with the game menu closed, Esc opens it (then c
    /// claims); with it open, Esc would close it, so the prompt names c
    ///.
    public func claimablePrompt(_ away: String, menuOpen: Bool) -> String {
        guard menuOpen else { return claimable(away) }
        return code == "nl" ? "\(atStart(away)) bleef te lang weg: c → de winst opeisen, of blijf wachten."
            : "\(atStart(away)) stayed away too long: c → claim the win, or keep waiting."
    }

    /// An opponent's offer and how to answer it: with
    /// the game menu closed one key, Enter yes and Backspace no as in every
    /// question here (letters keep playing: a move declines it, as the server
    /// has it); with the menu open its letters, since Esc would close it;
    /// while a word is typed (Enter sends it, Backspace erases) the menu's.
    public func offerPrompt(_ who: String, _ what: String, _ keys: OfferKeys) -> String {
        let offer = offerFromOpponent(who, what)
        switch keys {
        case .oneKey: return offer + (code == "nl" ? ": Enter accepteren · Backspace weigeren" : ": Enter accept · Backspace decline")
        case .menuOpen: return offer + (code == "nl" ? ": a accepteren · d weigeren" : ": a accept · d decline")
        case .viaMenu: return offer + (code == "nl" ? ": Esc, dan a accepteren · d weigeren" : ": Esc, then a accept · d decline")
        }
    }

    /// The turn of a player who is away (ADJOURNED): not "thinking", since
    /// nobody is there to think.
    public func awayToMove(_ name: String) -> String {
        code == "nl" ? "\(atStart(name)) is weg (aan zet)" : "\(atStart(name)) is away (to move)"
    }

    /// The quit key, in every screen's key help: added
    /// to a help line that does not name it.
    public var quitHint: String { code == "nl" ? "Ctrl-C stoppen" : "Ctrl-C quit" }

    public var confirmQuit: String {
        code == "nl" ? "Het programma stoppen? j: ja · n: nee" : "Quit the program? y: yes · n: no"
    }
}

/// How an opponent's offer is answered now (`ClientState.offerKeys`).
public enum OfferKeys: Equatable, Sendable {
    /// The menu is closed and no word is typed: Enter accepts, Backspace (or Delete) declines.
    case oneKey
    /// The game menu is open: its letters a and d.
    case menuOpen
    /// A word is typed (Enter sends it, Backspace erases): Esc, then a or d.
    case viaMenu
}

extension GameMenuItem {
    /// The letters no language entry may take: the fixed ones, and q (back).
    static let fixedLetters: Set<String> = ["a", "d", "c", "h", "r", "l", "b", "q"]

    /// The item's letter, the same in every game and in both languages
    /// (as in vim, htop or mutt): a accept, d decline,
    /// c claim, h hint, r restart, l leave, b back to the game; a language
    /// entry its code's first letter (e English, n Nederlands), or the first
    /// free one after it (a letter always: one key style).
    /// While the menu is open letters pick entries (it is modal); Esc closes
    /// it and letters play again.
    public func letter(languages: [String]) -> String {
        switch self {
        case .accept: "a"
        case .decline: "d"
        case .claim: "c"
        case .hint: "h"
        case .restart: "r"
        case .leave: "l"
        case .close: "b"
        case .language(let code):
            GameMenuItem.languageLetter(code, languages: languages)
        }
    }

    /// A language's letter: the first of its code's letters, then of a–z,
    /// that no fixed letter and no earlier language of the server's list has
    /// (de beside decline: e, unless English has it: f). Twenty-six letters
    /// less the eight fixed ones leave eighteen: a server with more languages
    /// than that gives the rest no letter (their digits, 6–8, still work).
    static func languageLetter(_ code: String, languages: [String]) -> String {
        var taken = fixedLetters
        let alphabet = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        for other in languages {
            let own = other.lowercased().map(String.init).filter { $0.first?.isLetter == true && $0.first?.isASCII == true }
            let letter = (own + alphabet).first { !taken.contains($0) } ?? " "
            if other == code { return letter }
            taken.insert(letter)
        }
        return " "
    }

    /// The item's digit, kept working beside its letter: 1 accept, 2
    /// decline, 3 claim, 4 hint, 5 restart, 6–8 the server's languages in
    /// order, 9 leave, 0 back to the game. An item a game has no use for is
    /// left out, and the others keep their keys.
    public func key(languages: [String]) -> Int {
        switch self {
        case .accept: 1
        case .decline: 2
        case .claim: 3
        case .hint: 4
        case .restart: 5
        case .language(let code): 6 + min(2, languages.firstIndex(of: code) ?? 2)
        case .leave: 9
        case .close: 0
        }
    }
}

extension OverMenuItem {
    /// The game-over menu's letters, the same after every game and in both
    /// languages: r rematch (as Hangman's end), g a new game, n change name,
    /// m main screen, s high scores, h the game's replay and review (as `h`
    /// on the main screen opens your games' replays). Digits 1–6 work too.
    public var letter: String {
        switch self {
        case .rematch: "r"
        case .newGame: "g"
        case .changeName: "n"
        case .main: "m"
        case .scores: "s"
        case .review: "h"
        }
    }
}

extension ComputerMenuItem {
    /// The level screen's letters, the same in both
    /// languages: a level by its name's first letter (e easy, m medium, h
    /// hard), f who goes first, b back (as the game menu's b); q and Esc
    /// go back too. Digits 1–5 work as before.
    public var letter: String {
        switch self {
        case .level(let level): String(level.rawValue.prefix(1))
        case .starter: "f"
        case .back: "b"
        }
    }
}

extension Strings {
    /// The language screen's letters: each language by its code's first
    /// letter (e English, n Nederlands), as it is chosen.
    static var languageLetters: [String] { uiLanguages.map { String($0.prefix(1)) } }
}
