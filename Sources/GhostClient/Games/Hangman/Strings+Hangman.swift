import GhostProtocol
import HangmanWire

private func plural(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? one : many }

/// Hangman's texts, in English and Dutch (`Strings.hangman`). Every sentence
/// is built from typed fields the server sent; its free text (INFO, ERR) is
/// shown as it comes where there is no sentence of the client's own.
public struct HangmanStrings: Sendable {
    public let gameName: String
    /// The computer's seat (`bot-hangman`), as it reads in a sentence
    /// ("the computer"; `atStart` at a sentence's start), and as a label.
    public let computer: String
    public let computerLabel: String
    public let modeName: @Sendable (String) -> String
    public let modeDescription: @Sendable (String) -> String
    public let title: @Sendable (String, String) -> String

    // The front side
    public let yourGuess: String
    public let theyGuess: @Sendable (String) -> String
    public let chooseWord: @Sendable (String) -> String
    public let wordLabel: String
    public let waitingForWord: @Sendable (String) -> String
    public let yourWord: @Sendable (String) -> String
    public let missesLeft: @Sendable (Int, Int) -> String
    public let wrong: @Sendable (String) -> String
    public let lettersToFind: @Sendable (Int) -> String
    public let guessed: @Sendable (String, String, Bool) -> String
    public let answerLabel: String
    public let playHelp: String
    public let endedHelp: String
    public let duelEndedHelp: String
    public let answerHelp: String
    public let wordHelp: String
    /// The setter's keys once the word is set: the guesses are the other side's.
    public let setterHelp: String
    public let menuHelp: String
    public let confirmNew: String
    /// The same before anyone moved: the game is called off, nobody loses.
    public let confirmNewCallOff: String
    public let rematchWaiting: @Sendable (String) -> String
    public let rematchOffered: @Sendable (String) -> String

    // The end
    public let youSolved: @Sendable (Int) -> String
    public let youHanged: @Sendable (String) -> String
    public let youHangedEvil: @Sendable (String) -> String
    public let youLeft: @Sendable (String) -> String
    public let theySolved: @Sendable (String, Int) -> String
    public let theyHanged: @Sendable (String) -> String
    public let solvedBy: @Sendable (String, Int) -> String
    public let hangedIs: @Sendable (String) -> String
    public let leftGame: @Sendable (String) -> String
    public let abandoned: @Sendable (String, String) -> String
    public let otherEnd: @Sendable (String, String) -> String
    public let theWord: @Sendable (String) -> String
    public let madeList: @Sendable (Int) -> String

    // The list
    public let scoresTitle: @Sendable (String) -> String
    public let scoresHeader: (rank: String, name: String, word: String, mistakes: String, lang: String)
    public let scoresLoading: String
    public let scoresEmpty: String
    public let scoresHelp: String

    // The flipside
    public let settingsTitle: String
    public let rowLength: String
    public let rowMisses: String
    public let rowMode: String
    public let any: String
    public let appliesNext: String
    public let refused: @Sendable (String) -> String
    /// (the value as shown): why the server refused it (ERR bad-value), in the client's words.
    public let notAllowed: @Sendable (String) -> String
    public let settingsHelp: String
    public let notLoaded: String
    /// After the length when the mode is phrases: the length does not apply to them.
    public let lengthNotForPhrases: String

    // Against the computer
    public let computerTitle: String
    public let youGuess: @Sendable (String) -> String
    public let computerGuesses: String
    public let settingsEntry: String
    /// (mode, length, misses): the saved settings, briefly.
    public let summary: @Sendable (String, String, String) -> String

    // The shared screens (`GameTexts`): the main screen's entries and the quick match
    public let menuQuickMatch: String
    public let menuNewPrivate: String
    public let menuRules: String
    public let menuScores: String
    public let seeking: @Sendable (String) -> String
    public let duel: String

    // Rules
    public let rulesTitle: String
    public let rules: [String]
    public let rulesHelp: String

    // Alerts
    public let notice: @Sendable (HangmanNotice, Strings) -> String
}

extension Strings {
    /// Hangman's texts in this language.
    public var hangman: HangmanStrings { code == "nl" ? .nl : .en }

    /// The best-games list's column of answers when they are phrases (the
    /// phrases mode): "Phrase", "Zin", where words have "Word".
    public var phraseColumn: String { code == "nl" ? "Zin" : "Phrase" }
}

extension HangmanStrings {
    /// Hangman's texts on the shared screens (`GameTexts`).
    func texts(_ t: Strings) -> GameTexts {
        let h = self
        return GameTexts(name: h.gameName, typeName: h.gameName, quickMatch: h.menuQuickMatch, newPrivate: h.menuNewPrivate,
                         rules: h.menuRules, scores: h.menuScores, seeking: h.seeking, queue: { _ in h.duel },
                         setup: { fields in fields[HangmanWire.Key.mode].map { h.gameName + " (" + h.modeName($0) + ")" } ?? h.gameName })
    }
}

extension HangmanStrings {
    public static let en = HangmanStrings(
        gameName: "Hangman",
        computer: "the computer",
        computerLabel: "Computer",
        modeName: { ["evil": "evil", "fair": "fair", "phrase": "phrases", "duel": "duel"][$0] ?? $0 },
        modeDescription: { mode in
            switch mode {
            case "evil": "the computer dodges your guesses"
            case "fair": "one word, chosen at the start"
            case "phrase": "guess a saying or a phrase"
            default: ""
            }
        },
        title: { "Hangman · \($0) · \($1)" },
        yourGuess: "Your turn: guess a letter",
        theyGuess: { "\(atStart($0)) is guessing…" },
        chooseWord: { "Choose a word for \($0) to guess:" },
        wordLabel: "Word: ",
        waitingForWord: { "\(atStart($0)) is choosing a word…" },
        yourWord: { "Your word: \($0)" },
        missesLeft: { "Misses left: \($0) of \($1)" },
        wrong: { "Wrong: \($0.isEmpty ? "—" : $0)" },
        lettersToFind: { "\($0) " + plural($0, "letter", "letters") },
        guessed: { who, guess, hit in "\(atStart(who)) guessed \(guess): \(hit ? "hit" : "miss")" },
        answerLabel: "Your answer: ",
        playHelp: "a–z guess · = answer · Enter new · Tab settings · Esc menu",
        endedHelp: "r/Enter new game · h review · Tab settings · m/Esc main menu",
        duelEndedHelp: "r/Enter rematch · h review · Tab settings · m/Esc main menu",
        answerHelp: "type your answer · Enter guess · Esc back",
        wordHelp: "type your word (hidden) · Enter set it · Esc menu",
        setterHelp: "your word is set: the guesses come here · Enter new · Tab settings · Esc menu",
        menuHelp: "a letter or ↑/↓ choose · Enter confirm · b/Esc back to the game",
        confirmNew: "Start a new game? This one counts as lost. y: yes · n: no",
        confirmNewCallOff: "Start a new game? Nobody has moved yet: this one is called off, nobody loses. y: yes · n: no",
        rematchWaiting: { "Waiting for \($0) to accept the rematch…" },
        rematchOffered: { "\(atStart($0)) asks for a rematch, with the roles swapped: press Enter." },
        youSolved: { "You found it with \($0) " + plural($0, "mistake", "mistakes") + ". Congratulations!" },
        youHanged: { "Hanged! The word was “\($0)”. Better luck next time." },
        youHangedEvil: { "Hanged! The computer kept changing its word; in the end it was “\($0)”. Better luck next time." },
        youLeft: { "You gave up. The word was “\($0)”." },
        theySolved: { "\(atStart($0)) found your word with \($1) " + plural($1, "mistake", "mistakes") + "." },
        theyHanged: { "\(atStart($0)) is hanged: your word held!" },
        solvedBy: { "\(atStart($0)) found it with \($1) " + plural($1, "mistake", "mistakes") + "." },
        hangedIs: { "\(atStart($0)) is hanged." },
        leftGame: { "\(atStart($0)) left the game." },
        abandoned: { "\(atStart($0)) stayed away; \($1) claimed the game." },
        otherEnd: { "The game is over (\($1)); \($0) lost." },
        theWord: { ($0.contains(" ") ? "The phrase: " : "The word: ") + $0 },
        madeList: { "This game is #\($0) on the list below." },
        scoresTitle: { "Best games · \($0)" },
        scoresHeader: ("Rank", "Name", "Word", "Mistakes", "Lang"),
        scoresLoading: "Loading the best games…",
        scoresEmpty: "No solved games on this list yet.",
        scoresHelp: "←/→ other list · ↑/↓ scroll · Esc back",
        settingsTitle: "Settings for your next game",
        rowLength: "Word length",
        rowMisses: "Misses allowed",
        rowMode: "Mode",
        any: "any",
        appliesNext: "Each change is saved on the server at once. It applies to the next game, never to the one in progress.",
        refused: { "Refused: \($0)" },
        notAllowed: { "the server does not allow \($0) here; your saved value stays." },
        settingsHelp: "↑/↓ choose · ←/→ change · Enter new game · Tab back",
        notLoaded: "…",
        lengthNotForPhrases: "(not used for phrases)",
        computerTitle: "Hangman against the computer",
        youGuess: { "You guess the computer's word (\($0))" },
        computerGuesses: "The computer guesses your word",
        settingsEntry: "Settings",
        summary: { "\($0), length \($1), \($2) misses" },
        menuQuickMatch: "Quick duel: you set a word or guess one",
        menuNewPrivate: "Set a word for a friend (private duel)",
        menuRules: "Rules of Hangman",
        menuScores: "Best games",
        seeking: { "Looking for an opponent for a Hangman duel in \($0)…" },
        duel: "duel",
        rulesTitle: "How to play Hangman",
        rules: [
            "Guess the word letter by letter. Each wrong letter adds a part to the gallows; when no misses are left, you hang.",
            "• evil: the computer dodges your guesses while it can",
            "• fair: one word, fixed at the start · phrases: a saying",
            "Type a letter to guess it, = for the whole answer. Tab: the settings for your next game; Enter: a new game. In a duel one player sets the word and the other guesses it.",
        ],
        rulesHelp: "Esc back",
        notice: { n, t in
            switch n {
            case .gameOver: "The game is over: Enter starts a new one, Tab opens the settings."
            case .duelOver: "The duel is over: Enter asks for a rematch, Tab opens the settings."
            case .alreadyGuessed(let g): "You already tried “\(g.uppercased())”: that costs nothing."
            case let .notAWord(word, lang, length) where length == 0:
                "“\(word.uppercased())” is not a word in \(t.nameOfLanguage(lang))."
            case let .notAWord(word, lang, length):
                "“\(word.uppercased())” is not a \(length)-letter word in \(t.nameOfLanguage(lang))."
            case .noPhrases: "The server has no phrases in this language."
            case .newRefused(let why): "No new game: the server says “\(why)”."
            case .saved: "Saved: it applies to your next game."
            case .typeSomething: "Type something first."
            }
        }
    )

    public static let nl = HangmanStrings(
        gameName: "Galgje",
        computer: "de computer",
        computerLabel: "Computer",
        modeName: { ["evil": "gemeen", "fair": "eerlijk", "phrase": "zinnen", "duel": "duel"][$0] ?? $0 },
        modeDescription: { mode in
            switch mode {
            case "evil": "de computer ontwijkt je gokken"
            case "fair": "één woord, gekozen bij het begin"
            case "phrase": "raad een gezegde of uitdrukking"
            default: ""
            }
        },
        title: { "Galgje · \($0) · \($1)" },
        yourGuess: "Jij bent aan de beurt: raad een letter",
        theyGuess: { "\(atStart($0)) raadt…" },
        chooseWord: { "Kies een woord dat \($0) moet raden:" },
        wordLabel: "Woord: ",
        waitingForWord: { "\(atStart($0)) kiest een woord…" },
        yourWord: { "Jouw woord: \($0)" },
        missesLeft: { "Nog \($0) van \($1) " + plural($1, "misser", "missers") },
        wrong: { "Fout: \($0.isEmpty ? "—" : $0)" },
        lettersToFind: { "\($0) " + plural($0, "letter", "letters") },
        guessed: { who, guess, hit in "\(atStart(who)) raadde \(guess): \(hit ? "raak" : "mis")" },
        answerLabel: "Je antwoord: ",
        playHelp: "a–z raad · = antwoord · Enter nieuw · Tab opties · Esc menu",
        endedHelp: "r/Enter nieuw spel · h analyse · Tab instellingen · m/Esc hoofdmenu",
        duelEndedHelp: "r/Enter revanche · h analyse · Tab instellingen · m/Esc hoofdmenu",
        answerHelp: "typ je antwoord · Enter raden · Esc terug",
        wordHelp: "typ je woord (verborgen) · Enter vastleggen · Esc menu",
        setterHelp: "je woord staat: de gokken komen hier · Enter nieuw · Tab opties · Esc menu",
        menuHelp: "letter of ↑/↓ kiezen · Enter bevestigen · b/Esc terug naar het spel",
        confirmNew: "Nieuw spel beginnen? Dit spel telt als verloren. j: ja · n: nee",
        confirmNewCallOff: "Nieuw spel beginnen? Niemand heeft nog gezet: dit spel gaat niet door, niemand verliest. j: ja · n: nee",
        rematchWaiting: { "Wachten tot \($0) de revanche aanneemt…" },
        rematchOffered: { "\(atStart($0)) wil een revanche, met de rollen omgedraaid: druk op Enter." },
        youSolved: { "Je hebt het geraden met \($0) " + plural($0, "fout", "fouten") + ". Gefeliciteerd!" },
        youHanged: { "Opgehangen! Het woord was “\($0)”. Volgende keer beter." },
        youHangedEvil: { "Opgehangen! De computer bleef van woord wisselen; uiteindelijk was het “\($0)”. Volgende keer beter." },
        youLeft: { "Je gaf het op. Het woord was “\($0)”." },
        theySolved: { "\(atStart($0)) heeft je woord geraden met \($1) " + plural($1, "fout", "fouten") + "." },
        theyHanged: { "\(atStart($0)) hangt: je woord hield stand!" },
        solvedBy: { "\(atStart($0)) heeft het geraden met \($1) " + plural($1, "fout", "fouten") + "." },
        hangedIs: { "\(atStart($0)) hangt." },
        leftGame: { "\(atStart($0)) heeft het spel verlaten." },
        abandoned: { "\(atStart($0)) bleef weg; \($1) heeft het spel opgeëist." },
        otherEnd: { "Het spel is voorbij (\($1)); \($0) verloor." },
        theWord: { ($0.contains(" ") ? "De zin: " : "Het woord: ") + $0 },
        madeList: { "Dit spel staat op #\($0) in de lijst hieronder." },
        scoresTitle: { "Beste spellen · \($0)" },
        scoresHeader: ("Plaats", "Naam", "Woord", "Fouten", "Taal"),
        scoresLoading: "De beste spellen worden geladen…",
        scoresEmpty: "Nog geen geraden spellen op deze lijst.",
        scoresHelp: "←/→ andere lijst · ↑/↓ schuiven · Esc terug",
        settingsTitle: "Instellingen voor je volgende spel",
        rowLength: "Woordlengte",
        rowMisses: "Missers toegestaan",
        rowMode: "Soort",
        any: "willekeurig",
        appliesNext: "Elke wijziging wordt meteen op de server bewaard. Ze geldt voor het volgende spel, nooit voor het spel dat loopt.",
        refused: { "Geweigerd: \($0)" },
        notAllowed: { "de server staat \($0) hier niet toe; je bewaarde waarde blijft." },
        settingsHelp: "↑/↓ kiezen · ←/→ wijzigen · Enter nieuw spel · Tab terug",
        notLoaded: "…",
        lengthNotForPhrases: "(niet voor zinnen)",
        computerTitle: "Galgje tegen de computer",
        youGuess: { "Jij raadt het woord van de computer (\($0))" },
        computerGuesses: "De computer raadt jouw woord",
        settingsEntry: "Instellingen",
        summary: { "\($0), lengte \($1), \($2) missers" },
        menuQuickMatch: "Snel een duel: je geeft een woord op of raadt er een",
        menuNewPrivate: "Een woord opgeven voor een vriend (privéduel)",
        menuRules: "Spelregels van Galgje",
        menuScores: "Beste spellen",
        seeking: { "Op zoek naar een tegenstander voor een duel Galgje in het \($0)…" },
        duel: "duel",
        rulesTitle: "Zo speel je Galgje",
        rules: [
            "Raad het woord letter voor letter. Elke foute letter voegt een deel aan de galg toe; zijn de missers op, dan hang je.",
            "• gemeen: de computer ontwijkt je gokken zolang het kan",
            "• eerlijk: één woord, vast vanaf het begin · zinnen: een gezegde",
            "Typ een letter om te raden, = voor het hele antwoord. Tab: de instellingen voor je volgende spel; Enter: een nieuw spel. In een duel kiest de een het woord en raadt de ander.",
        ],
        rulesHelp: "Esc terug",
        notice: { n, t in
            switch n {
            case .gameOver: "Het spel is voorbij: Enter begint een nieuw spel, Tab opent de instellingen."
            case .duelOver: "Het duel is voorbij: Enter vraagt om revanche, Tab opent de instellingen."
            case .alreadyGuessed(let g): "Je had “\(g.uppercased())” al geprobeerd: dat kost niets."
            case let .notAWord(word, lang, length) where length == 0:
                "“\(word.uppercased())” is geen woord in het \(t.nameOfLanguage(lang))."
            case let .notAWord(word, lang, length):
                "“\(word.uppercased())” is geen woord van \(length) letters in het \(t.nameOfLanguage(lang))."
            case .noPhrases: "De server heeft geen zinnen in deze taal."
            case .newRefused(let why): "Geen nieuw spel: de server zegt “\(why)”."
            case .saved: "Bewaard: het geldt voor je volgende spel."
            case .typeSomething: "Typ eerst iets."
            }
        }
    )
}
