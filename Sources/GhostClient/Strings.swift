import GhostProtocol

/// Every text the client shows, in one language. Every sentence is built
/// from typed fields; free text from the server (INFO, ERR) is never shown.
/// The stored fields are filled by the tables `EnglishStrings` and
/// `DutchStrings`; a feature's texts computed from the language are a value
/// of their own reached from here (`record`, `account`, `watch`, `generic`,
/// `clock`, `challenge`, `superghost`, `secondPerson`, `hangman`).
public struct Strings: Sendable {
    public let code: String
    public let languageName: String

    // Titles and general
    public let appTitle: String
    /// The game's name beside others ("Ghost").
    public let ghostName: String
    public let chooseLanguage: String
    public let connecting: @Sendable (String) -> String
    /// The link is down: (address) after it was up, and while it never was.
    public let reconnecting: @Sendable (String) -> String
    public let unreachable: @Sendable (String) -> String
    public let notConnected: String
    public let you: String
    /// (minimum width, minimum height, width, height)
    /// The request for a larger window: the game's name, the size it needs, the size it has.
    public let windowTooSmall: @Sendable (String, Int, Int, Int, Int) -> String
    /// Printed on the normal screen when quitting with a game open.
    public let farewellGameWaits: String

    // Tutorial
    public let tutorialTitle: @Sendable (Int, Int) -> String
    public let tutorialPages: [(title: String, paragraphs: [String])]
    public let tutorialHelp: String

    // Name
    public let nameTitle: String
    public let namePrompt: String
    public let nameLabel: String
    /// The picker's headings: names used from this client, then the
    /// server's most recent names, or those starting with what is typed.
    public let namesHere: String
    public let usedNames: String
    public let namesStarting: @Sendable (String) -> String
    public let noUsedNames: String
    public let noMatchingNames: String
    /// Asking the server for the names that start with what is typed.
    public let searchingNames: String
    /// The server has more names than it listed (`more=yes`).
    public let moreNames: String
    public let nameHelp: String
    public let typeAName: String

    // Main
    public let mainSignedInAs: @Sendable (String) -> String
    public let menuQuickMatch: String
    public let menuNewPrivate: String
    public let menuJoin: String
    public let menuLanguage: @Sendable (String) -> String
    public let menuRules: String
    public let menuScores: String
    public let menuChangeName: String
    public let menuQuit: String

    // Join and waiting
    public let joinTitle: String
    public let joinPrompt: String
    public let codeLabel: String
    public let joinHelp: String
    public let typeACode: String
    public let waitingTitle: String
    public let seeking: @Sendable (String) -> String
    /// Who is paired, and how to change what the search is for.
    public let seekingHint: String
    /// (how many, language, game type): players waiting for another search.
    public let othersWaiting: @Sendable (Int, String, String) -> String
    public let hostingCode: String
    public let hostingHint: String
    public let waitingHelp: String
    public let resuming: String

    // Game
    public let gameTitle: @Sendable (String, Int) -> String
    public let yourTurn: String
    public let theirTurn: @Sendable (String) -> String
    public let emptyFragment: String
    public let letterCount: @Sendable (Int) -> String
    public let played: @Sendable (String, String) -> String
    /// (my wins, theirs, the opponent): the running score this session.
    public let runningScore: @Sendable (Int, Int, String) -> String
    public let gameHelp: String
    public let menuTitle: String
    public let menuAccept: @Sendable (String) -> String
    public let menuDecline: String
    public let menuClaim: @Sendable (String) -> String
    public let menuRestart: String
    public let menuPlayIn: @Sendable (String) -> String
    public let menuLeave: String
    public let menuClose: String
    /// The game menu's entries that do not apply now, as shown (dimmed).
    public let menuAcceptNone: String
    public let menuDeclineNone: String
    public let menuClaimNone: String
    public let menuPlayingIn: @Sendable (String) -> String
    public let alreadyIn: @Sendable (String) -> String
    public let confirmLeave: String
    /// Leave before anyone moved: the server calls the game off, nobody loses.
    public let confirmCallOff: String
    public let gameMenuHelp: String

    // Situations and alerts
    public let opponentAway: @Sendable (String, Int) -> String
    public let claimable: @Sendable (String) -> String
    public let offerFromOpponent: @Sendable (String, String) -> String
    public let offerFromMe: @Sendable (String) -> String
    public let offerSent: String
    public let notYourTurn: String
    public let lettersOnly: String
    public let pastedSeveral: String
    public let returned: @Sendable (String) -> String
    public let declined: @Sendable (String) -> String
    public let accepted: @Sendable (String) -> String
    public let gameEnded: String
    public let seekCancelled: String
    public let seatTaken: String
    public let signedOut: String
    public let configSaveFailed: @Sendable (String) -> String
    public let restartOffer: String
    public let langOffer: @Sendable (String) -> String

    // Game over
    public let overTitle: String
    public let youWin: @Sendable (String) -> String
    public let theyWin: @Sendable (String) -> String
    public let winnerIs: @Sendable (String) -> String
    public let reasonWord: @Sendable (String, String) -> String
    public let reasonDead: @Sendable (String, String) -> String
    public let reasonLeft: @Sendable (String) -> String
    public let reasonAbandoned: @Sendable (String, String) -> String
    public let reasonOther: @Sendable (String, String) -> String
    /// (the fragment before the last letter, a word it could have led to), after a dead fragment.
    public let possibleWord: @Sendable (String, String) -> String
    /// (when, in UTC): the game ended while the player was away.
    public let endedMeanwhile: @Sendable (String) -> String
    public let finalFragment: String
    public let places: String
    public let rankLine: @Sendable (Int, String, Int) -> String
    public let overRematch: String
    public let overNewGame: String
    public let overChangeName: String
    public let overMain: String
    public let overScores: String
    /// The game-over menu's replay of the game just finished, with its review.
    public let overReview: String
    public let overHelp: String
    public let rematchWaiting: @Sendable (String) -> String
    public let rematchOffered: @Sendable (String) -> String
    public let rematchLapsed: @Sendable (String) -> String

    // Scores
    public let scoresTitle: String
    public let scoresHeader: (rank: String, name: String, wins: String, played: String)
    public let scoresLoading: String
    public let scoresEmpty: String
    public let scoresHelp: String

    // The computer and matches
    public let menuComputer: String
    public let menuMode: @Sendable (String) -> String
    public let modeSingle: String
    public let modeMatch: String
    public let computerTitle: String
    public let computerPrompt: String
    public let levelName: @Sendable (String) -> String
    public let levelDescription: @Sendable (String) -> String
    public let whoStarts: @Sendable (String) -> String
    public let starterYou: String
    public let starterComputer: String
    public let menuBack: String
    public let computerHelp: String
    /// The computer's seat (`bot-easy`) by its level's name, as it reads in
    /// a sentence ("the computer (easy)"; `atStart` at a sentence's start).
    public let computerName: @Sendable (String) -> String
    /// The same as a label: a player chip, a list's row ("Computer (easy)").
    public let computerLabel: @Sendable (String) -> String
    public let menuHint: String
    public let hint: @Sendable (Bool, String) -> String
    /// (loser, fragment, letter): how a round of a match ended, briefly.
    public let earnsLetter: @Sendable (String, String, String) -> String
    /// (loser, letter): the same after a round that ended otherwise (a challenge), after its reason.
    public let earnsOnly: @Sendable (String, String) -> String
    public let roundOver: String
    public let lastRound: String
    public let youWinMatch: @Sendable (String) -> String
    public let theyWinMatch: @Sendable (String) -> String
    public let winnerIsMatch: @Sendable (String) -> String
    public let spelledGhost: @Sendable (String) -> String
    public let ghostLabel: String
    public let boardName: @Sendable (String) -> String
    public let overPlayAgain: String
    public let matchSuffix: String

    /// Texts for the stable error codes; nil for a code without its own text
    /// (then `refused`: the server's text is never shown).
    public let errorText: @Sendable (ErrorCode) -> String?
    public let refused: @Sendable (String) -> String

    /// The language's name as shown in menus, for any code the server offers.
    public func nameOfLanguage(_ code: String) -> String {
        switch code {
        case "en": return self.code == "nl" ? "Engels" : "English"
        case "nl": return self.code == "nl" ? "Nederlands" : "Dutch"
        default: return code
        }
    }

    /// The English and Dutch tables (EnglishStrings.swift, DutchStrings.swift).
    public static var en: Strings { EnglishStrings.strings }
    public static var nl: Strings { DutchStrings.strings }

    /// The strings for a language code; English for anything else.
    public static func forLanguage(_ code: String?) -> Strings {
        code == "nl" ? .nl : .en
    }

    /// The languages the client's texts exist in, in menu order.
    public static let uiLanguages = ["en", "nl"]
    public static let tutorialPageCount = ghostTutorialPageCount + 4
}

/// A name at the start of a sentence. The computer's description ("the
/// computer (easy)") takes a capital there; a player's name, which never
/// holds a space, stays exactly as the player typed it.
func atStart(_ who: String) -> String {
    guard who.contains(" "), let first = who.first else { return who }
    return first.uppercased() + who.dropFirst()
}
