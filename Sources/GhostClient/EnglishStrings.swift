// The English texts. The Dutch table (DutchStrings.swift) has the same shape;
// the tests check that neither misses a tutorial page or a menu entry.
import GhostProtocol

private func plural(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? one : many }

/// Every text of the client in English (`Strings.en`).
enum EnglishStrings {
    static let strings = Strings(
        code: "en",
        languageName: "English",
        appTitle: "ghostd",
        ghostName: "Ghost",
        chooseLanguage: "Choose your language · Kies je taal",
        connecting: { "Connecting to \($0)…" },
        reconnecting: { "Connection lost: reconnecting to \($0)…" },
        unreachable: { "No server at \($0); trying again. Another: ghost-client HOST:PORT" },
        notConnected: "Not connected to the server yet; please wait a moment.",
        you: "you",
        windowTooSmall: { "Make the window larger: \($0) needs \($1)×\($2) (it is \($3)×\($4) now). Ctrl-C quits." },
        farewellGameWaits: "Your game waits for you: run ghost-client again to resume it.",

        tutorialTitle: { "How to play (\($0)/\($1))" },
        tutorialPages: [
            ("The game", [
                "Ghost is a word game for two players. Together you build a word fragment: taking turns, each of you adds one letter to its end.",
                "You never say which word you have in mind, but there must be one that starts with the letters so far.",
            ]),
            ("How you lose", [
                "You lose when the letter you add:",
                "• completes a word of more than 3 letters (PEA is fine, PEAR loses), or",
                "• makes a fragment that no word starts with (QZ), or a short word that no longer word continues.",
                "The server knows the dictionary (English or Dutch) and judges every letter.",
            ]),
            ("An example", [
                "P, E, A: PEA is a word, but only 3 letters, so play goes on.",
                "F: only PEAFOWL starts with PEAF. Then O and W are forced, and whoever adds the L completes PEAFOWL and loses.",
                "So look ahead: steer the fragment toward words that will end on your opponent's turn.",
            ]),
            ("Playing here", [
                "On your turn, just type a letter. The keyboard on screen flashes the letter just played, and the fragment is shown in large letters.",
                "Esc opens the game menu: restart the round, play in another language (once letters are played your opponent must agree), accept an offer, or leave.",
                "Play the computer (Easy, Medium or Hard), or make it a match to GHOST: each lost round earns a letter of G-H-O-S-T, and whoever spells GHOST loses the match.",
                "If the connection drops, the client reconnects and your game resumes where it stopped. Every win counts for the high scores.",
            ]),
        ],
        tutorialHelp: "←/→ page · Enter next · Esc done",

        nameTitle: "Who are you?",
        namePrompt: "Type a new name, or the start of one used before; pick with ↑/↓.",
        nameLabel: "Name: ",
        namesHere: "Used from this computer:",
        usedNames: "Recently used on this server:",
        namesStarting: { "On this server, starting with “\($0)”:" },
        noUsedNames: "(none yet)",
        noMatchingNames: "(no name starts with that)",
        searchingNames: "(searching…)",
        moreNames: "… and more: type more of a name to find it",
        nameHelp: "type a name · ↑/↓ pick a used one · Enter confirm · Esc back",
        typeAName: "Type a name first (1–16 letters, digits, - or _).",

        mainSignedInAs: { "Playing as \($0)" },
        menuQuickMatch: "Quick match",
        menuNewPrivate: "New private game",
        menuJoin: "Join a private game",
        menuLanguage: { "Language: \($0)" },
        menuRules: "Rules",
        menuScores: "High scores",
        menuChangeName: "Change name",
        menuQuit: "Quit",

        joinTitle: "Join a private game",
        joinPrompt: "Type the code your opponent gave you:",
        codeLabel: "Code: ",
        joinHelp: "type the code · Enter join · Esc back",
        typeACode: "Type the 8-character code first.",
        waitingTitle: "Waiting for an opponent",
        seeking: { "Looking for an opponent who plays in \($0)…" },
        seekingHint: "Only a player who seeks the same language and game type is paired with you. To change them: Esc, then “Language” or the games at the top of the main screen.",
        othersWaiting: { "Also waiting: \($0) " + plural($0, "player", "players") + " for \($1), \($2)." },
        hostingCode: "Your private game code:",
        hostingHint: "Give it to your opponent: they choose “Join a private game” and type it.",
        waitingHelp: "Esc cancel · Ctrl-C quit",
        resuming: "Resuming your game…",

        gameTitle: { "\($0) · round \($1)" },
        yourTurn: "Your turn: type a letter",
        theirTurn: { "\(atStart($0)) is thinking…" },
        emptyFragment: "— no letters yet —",
        letterCount: { "\($0) " + plural($0, "letter", "letters") },
        played: { "\(atStart($0)) played \($1)" },
        runningScore: { "So far: you \($0) – \($1) \($2)" },
        gameHelp: "a–z play a letter · Esc menu · ? rules · Ctrl-C quit (the game waits for you)",
        menuTitle: "Menu",
        menuAccept: { "Accept: \($0)" },
        menuDecline: "Decline the offer",
        menuClaim: { "Claim the win (\($0) stayed away)" },
        menuRestart: "Restart the round",
        menuPlayIn: { "Play in \($0) (restarts the round)" },
        menuLeave: "Leave the game (you lose)",
        menuClose: "Back to the game",
        menuAcceptNone: "Accept an offer (none now)",
        menuDeclineNone: "Decline an offer (none now)",
        menuClaimNone: "Claim the win (if your opponent stays away)",
        menuPlayingIn: { "Play in \($0) (the game's language)" },
        alreadyIn: { "The game is already in \($0)." },
        confirmLeave: "Leave and lose this game? y: yes · n: no",
        confirmCallOff: "Leave? Nobody has moved yet: the game is called off, nobody loses. y: yes · n: no",
        gameMenuHelp: "a letter or ↑/↓ choose · Enter confirm · b/Esc back to the game · Ctrl-C quit",

        opponentAway: { "\(atStart($0)) is away; the game waits (claimable after \($1) s of their turn)." },
        claimable: { "\(atStart($0)) stayed away too long: Esc → claim the win, or keep waiting." },
        offerFromOpponent: { "\(atStart($0)) offers to \($1)" },
        offerFromMe: { "Waiting for \($0) to answer your offer…" },
        offerSent: "Offer sent: your opponent must agree.",
        notYourTurn: "Not your turn: wait for your opponent.",
        lettersOnly: "Letters only: type a letter a–z (Esc for the menu).",
        pastedSeveral: "Several letters at once (a paste?) play nothing: type one letter.",
        returned: { "\(atStart($0)) is back." },
        declined: { "\(atStart($0)) declined the offer; play goes on." },
        accepted: { "\(atStart($0)) accepted: a new round starts." },
        gameEnded: "Your last game has ended in the meantime.",
        seekCancelled: "The connection dropped, so the search was cancelled.",
        seatTaken: "Your game was resumed in another window (same settings file); it goes on there.",
        signedOut: "You logged in from another window; this one is signed out.",
        configSaveFailed: { "Could not save the settings: \($0)" },
        restartOffer: "restart the round",
        langOffer: { "switch to \($0) and restart" },

        overTitle: "Game over",
        youWin: { "You win, \($0)! Congratulations!" },
        theyWin: { "\(atStart($0)) wins this game. Better luck next time!" },
        winnerIs: { "\(atStart($0)) wins!" },
        reasonWord: { "\(atStart($0)) completed \($1), a word of more than 3 letters." },
        reasonDead: { "\(atStart($0)) made \($1): no word continues it." },
        reasonLeft: { "\(atStart($0)) left the game." },
        reasonAbandoned: { "\(atStart($0)) stayed away too long; \($1) claimed the game." },
        reasonOther: { "\(atStart($0)) lost (\($1))." },
        possibleWord: { "\($0) could have led to \($1)." },
        endedMeanwhile: { "This game ended while you were away (\($0))." },
        finalFragment: "Last letters: ",
        places: "Places in the high-score list:",
        rankLine: { "#\($0)  \($1)  (\($2) " + plural($2, "win", "wins") + ")" },
        overRematch: "Rematch",
        overNewGame: "New game (quick match)",
        overChangeName: "Change name",
        overMain: "Main screen",
        overScores: "High scores",
        overReview: "Replay and review this game",
        overHelp: "a letter or ↑/↓ choose · Enter confirm · Esc main screen · Ctrl-C quit",
        rematchWaiting: { "Rematch asked: waiting for \($0)…" },
        rematchOffered: { "\(atStart($0)) wants a rematch: press r to play again." },
        rematchLapsed: { "\(atStart($0)) has moved on: the rematch lapsed." },

        scoresTitle: "High scores",
        scoresHeader: ("Rank", "Name", "Wins", "Played"),
        scoresLoading: "Loading…",
        scoresEmpty: "No finished games yet.",
        scoresHelp: "←/→ other list · ↑/↓ scroll · Esc back",

        menuComputer: "Play the computer",
        menuMode: { "Game type: \($0)" },
        modeSingle: "single game",
        modeMatch: "match to GHOST",
        computerTitle: "Play the computer",
        computerPrompt: "Choose a level:",
        levelName: { level in
            switch level {
            case "easy": "Easy"
            case "medium": "Medium"
            case "hard": "Hard"
            default: level
            }
        },
        levelDescription: { level in
            switch level {
            case "easy": "any letter that does not lose at once; hints allowed"
            case "medium": "sometimes perfect, sometimes not"
            case "hard": "perfect play: wins whenever it can"
            default: ""
            }
        },
        whoStarts: { "Who starts: \($0)" },
        starterYou: "you",
        starterComputer: "the computer",
        menuBack: "Back",
        computerHelp: "a letter or ↑/↓ choose · Enter start · Esc back",
        computerName: { "the computer (\($0))" },
        computerLabel: { "Computer (\($0))" },
        menuHint: "Hint: can I force a win?",
        hint: { winning, letter in
            winning ? "You can force a win from here: try “\(letter.uppercased())”."
                : "No sure win from here; “\(letter.uppercased())” gives the computer the most chances to go wrong."
        },
        earnsLetter: { "\(atStart($0)) made \($1) and earns the letter \($2)." },
        earnsOnly: { "\(atStart($0)) earns the letter \($1)." },
        roundOver: "Round over: the next one starts…",
        lastRound: "Last round: ",
        youWinMatch: { "You win the match, \($0)! Congratulations!" },
        theyWinMatch: { "\(atStart($0)) wins the match. Better luck next time!" },
        winnerIsMatch: { "\(atStart($0)) wins the match!" },
        spelledGhost: { "\(atStart($0)) spelled GHOST." },
        ghostLabel: "G-H-O-S-T",
        boardName: { board in
            switch board {
            case "game": "games between people"
            case "match": "matches between people"
            case "easy", "medium", "hard": "against the computer (\(board))"
            default: "matches against the computer (\(board.split(separator: "-").first.map(String.init) ?? board))"
            }
        },
        overPlayAgain: "Play again",
        matchSuffix: " (a match to GHOST)",

        errorText: { code in
            switch code {
            case .noHints: "Hints are only given against the Easy computer."
            case .nameTaken: "That name is in use by another player right now."
            case .badName: "A name is 1–16 letters, digits, - or _."
            case .notYourTurn: "Not your turn: wait for your opponent."
            case .notALetter: "Letters only: type a letter a–z."
            case .noSuchGame: "No open private game has that code."
            case .ownGame: "That is your own game: give the code to your opponent."
            case .badToken: "Your last game has ended in the meantime."
            case .noOffer: "There is no offer to answer."
            case .notClaimable: "You can claim the win only once your opponent has stayed away too long."
            case .offerPending: "An offer is already waiting for an answer."
            case .offerSpent: "You can make another offer once a letter has been played."
            case .noRematch: "No rematch: your opponent has gone or started something else."
            case .noName: "Choose a name first."
            case .unknownLanguage: "The server has no dictionary for that language."
            case .storeFailed: "The server could not store that; nothing was done."
            case .busy: "Not now: you are already waiting for a game, or playing one."
            case .notInGame: "You are not in a game right now."
            case .flood: "Too many keys at once: slow down."
            case .badValue: "The server does not allow that value; nothing changed."
            case .tooManyNames: "Too many new names from your network; try later."
            case .tooManyJoins: "Too many wrong codes from your network; wait a minute."
            case .tooManyGames: "You have too many unfinished games: resume or leave one."
            default: nil
            }
        },
        refused: { "The server refused that (\($0))." }
    )
}
