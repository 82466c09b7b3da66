import GhostProtocol

/// The tutorial's pages per variant: after Ghost's four
/// pages, one for Superghost, one for bluff and challenge and one for
/// Hangman; the last says which keys reach ratings, your games and their
/// reviews, watching and the clock. The main screen's Rules and `?` in a Ghost game open the page of
/// the variant chosen or played; a first start with `--game hangman` opens
/// Hangman's.
public enum TutorialPage: Sendable {
    case ghost, superghost, challenge, hangman

    /// The page's index in `Strings.allTutorialPages`.
    public var index: Int {
        switch self {
        case .ghost: 0
        case .superghost: Strings.ghostTutorialPageCount
        case .challenge: Strings.ghostTutorialPageCount + 1
        case .hangman: Strings.ghostTutorialPageCount + 2
        }
    }

    /// The page of a Ghost game's variant.
    public static func ghost(superghost: Bool, challenge: Bool) -> TutorialPage {
        superghost ? .superghost : challenge ? .challenge : .ghost
    }
}

extension Strings {
    /// Ghost's own pages (the table's `tutorialPages`).
    public static let ghostTutorialPageCount = 4

    /// Every page: Ghost's, then one per variant and Hangman's, then the keys beyond playing.
    public var allTutorialPages: [(title: String, paragraphs: [String])] { tutorialPages + tutorial.variantPages }

    /// The pages after Ghost's, in this language.
    var tutorial: TutorialTexts { TutorialTexts(code: code) }
}

/// The tutorial's pages after Ghost's four (the table's `tutorialPages`):
/// Superghost, bluff and challenge, Hangman, and the keys beyond playing.
struct TutorialTexts: Sendable {
    /// The language (`Strings.code`).
    let code: String

    var variantPages: [(title: String, paragraphs: [String])] {
        if code == "nl" {
            return [
                ("Superghost", [
                    "Zoals Ghost, maar je mag je letter ook vóór het woordbegin zetten: ← zet je volgende letter vooraan, → weer achteraan.",
                    "Je verliest als het woordstuk in geen enkel woord meer voorkomt (ergens in het woord, niet alleen aan het begin), of als je een woord van meer dan 3 letters maakt.",
                    "Kies het op het hoofdscherm met v.",
                ]),
                ("Bluffen en uitdagen", [
                    "Zoals Ghost, maar niemand controleert je letter meteen: je mag bluffen met een woordbegin waarmee geen woord begint.",
                    "Denk je dat je tegenstander bluft, druk dan ! om uit te dagen. Die moet dan een woord typen dat met het woordbegin begint: lukt dat, dan verlies jij de ronde; zo niet, dan verliest de bluffer.",
                    "Kies het op het hoofdscherm met v.",
                ]),
                ("Galgje", [
                    "De een kiest een woord, de ander raadt het letter voor letter. Elke fout brengt de galg een stap verder; raad het woord voor de laatste.",
                    "Tegen de computer: gemeen (hij ontwijkt je gokken), eerlijk (één woord vanaf het begin) of zinnen. In een duel geeft een van jullie een woord op.",
                    "Kies Galgje op het hoofdscherm met ←/→; = raadt het hele woord in één keer.",
                ]),
                ("Ratings, je spellen, kijken en de klok", [
                    "Spellen tussen geregistreerde namen tellen voor je rating (met a op het hoofdscherm registreer je de jouwe); spellen tegen de computer niet.",
                    "Op het hoofdscherm: h toont je spellen met je ratings; kies een spel om het terug te kijken, met r de analyse. Na een spel doet h dat meteen.",
                    "Met w kijk je mee bij een spel van anderen; met t zet je een klok op nieuwe spellen.",
                    "Met f zie je wie van je vrienden online is en nodig je ze uit (+ neemt een uitnodiging aan, - slaat haar af); in een spel opent : een regel om te chatten.",
                ]),
            ]
        }
        return [
            ("Superghost", [
                "Like Ghost, but your letter may also go before the fragment: ← puts your next letter at the front, → back at the end.",
                "You lose when no word contains the fragment any more (anywhere in the word, not only at its start), or when you complete a word of more than 3 letters.",
                "Choose it on the main screen with v.",
            ]),
            ("Bluff and challenge", [
                "Like Ghost, but no letter is judged at once: you may bluff with a fragment no word starts with.",
                "If you think your opponent bluffs, press ! to challenge. They must then type a word that starts with the fragment: if they can, you lose the round; if not, the bluffer does.",
                "Choose it on the main screen with v.",
            ]),
            ("Hangman", [
                "One player picks a word, the other guesses it letter by letter. Each miss adds to the gallows; find the word before it is complete.",
                "Against the computer: evil (it dodges your guesses), fair (one word from the start) or phrases. In a duel one of you sets a word.",
                "Choose Hangman on the main screen with ←/→; = guesses the whole word at once.",
            ]),
            ("Ratings, your games, watching, clocks", [
                "Games between registered names are rated (a on the main screen registers yours); games against the computer are not.",
                "On the main screen, h shows your games and ratings: choose a game to replay it, and r for its review. After a game, h does that at once.",
                "w watches a game others play; t puts a clock on new games.",
                "f shows which of your friends are online and invites them (+ accepts an invitation, - declines it); in a game, : opens a line to chat.",
            ]),
        ]
    }
}
