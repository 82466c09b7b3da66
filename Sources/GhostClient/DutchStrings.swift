// The Dutch texts. The English table (EnglishStrings.swift) has the same shape;
// the tests check that neither misses a tutorial page or a menu entry.
import GhostProtocol

private func plural(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? one : many }

/// A computer level's name in Dutch, in lowercase.
private func dutchLevel(_ level: String) -> String {
    switch level {
    case "easy": "makkelijk"
    case "medium": "gemiddeld"
    case "hard": "moeilijk"
    default: level
    }
}

/// Every text of the client in Dutch (`Strings.nl`).
enum DutchStrings {
    static let strings = Strings(
        code: "nl",
        languageName: "Nederlands",
        appTitle: "ghostd",
        ghostName: "Ghost",
        chooseLanguage: "Choose your language · Kies je taal",
        connecting: { "Verbinden met \($0)…" },
        reconnecting: { "Verbinding verbroken: opnieuw verbinden met \($0)…" },
        unreachable: { "Geen server op \($0); opnieuw proberen. Andere: ghost-client HOST:POORT" },
        notConnected: "Nog geen verbinding met de server; even geduld.",
        you: "jij",
        windowTooSmall: { "Maak het venster groter: \($0) heeft \($1)×\($2) nodig (nu \($3)×\($4)). Ctrl-C stopt." },
        farewellGameWaits: "Je spel wacht op je: start ghost-client opnieuw om verder te spelen.",

        tutorialTitle: { "Zo speel je (\($0)/\($1))" },
        tutorialPages: [
            ("Het spel", [
                "Ghost is een woordspel voor twee. Samen bouw je een stukje van een woord: om de beurt zet ieder van jullie er één letter achter.",
                "Je zegt nooit welk woord je in gedachten hebt, maar er moet er een bestaan dat met de letters tot nu toe begint.",
            ]),
            ("Zo verlies je", [
                "Je verliest als de letter die je toevoegt:",
                "• een woord van meer dan 3 letters maakt (KAT mag, BOOM verliest), of",
                "• een begin maakt waarmee geen enkel woord begint (QX), of een kort woord dat geen langer woord voortzet.",
                "De server kent het woordenboek (Nederlands of Engels) en beoordeelt elke letter.",
            ]),
            ("Een voorbeeld", [
                "B, O, O: met BOO beginnen woorden als BOOM, BOOT en BOOG, dus het spel gaat door.",
                "Wie dan een M, T of G toevoegt, maakt een woord van 4 letters en verliest. Met een K (BOOK…) loop je dat gevaar niet: dat is geen woord, maar er beginnen wel woorden mee.",
                "Stuur het begin dus naar woorden die eindigen als je tegenstander aan de beurt is.",
            ]),
            ("Spelen hier", [
                "Ben je aan de beurt, typ dan gewoon een letter. Het toetsenbord op het scherm licht op bij de gespeelde letter en het woordbegin staat in grote letters.",
                "Esc opent het spelmenu: de ronde herstarten, in een andere taal spelen (zijn er al letters gespeeld, dan moet je tegenstander akkoord gaan), een voorstel beantwoorden of stoppen.",
                "Speel tegen de computer (makkelijk, gemiddeld of moeilijk), of speel een partij tot GHOST: wie een ronde verliest krijgt een letter van G-H-O-S-T, en wie GHOST vol heeft verliest de partij.",
                "Valt de verbinding weg, dan verbindt het programma opnieuw en gaat je spel verder waar het was. Elke overwinning telt voor de ranglijst.",
            ]),
        ],
        tutorialHelp: "←/→ bladeren · Enter volgende · Esc klaar",

        nameTitle: "Wie ben je?",
        namePrompt: "Typ een nieuwe naam, of het begin van een eerder gebruikte; kies met ↑/↓.",
        nameLabel: "Naam: ",
        namesHere: "Gebruikt op deze computer:",
        usedNames: "Onlangs gebruikt op deze server:",
        namesStarting: { "Op deze server, beginnend met “\($0)”:" },
        noUsedNames: "(nog geen)",
        noMatchingNames: "(geen naam begint zo)",
        searchingNames: "(zoeken…)",
        moreNames: "… en meer: typ meer van een naam om hem te vinden",
        nameHelp: "typ een naam · ↑/↓ kies een gebruikte · Enter bevestigen · Esc terug",
        typeAName: "Typ eerst een naam (1–16 letters, cijfers, - of _).",

        mainSignedInAs: { "Je speelt als \($0)" },
        menuQuickMatch: "Snel een spel",
        menuNewPrivate: "Nieuw privéspel",
        menuJoin: "Meedoen met een privéspel",
        menuLanguage: { "Taal: \($0)" },
        menuRules: "Spelregels",
        menuScores: "Ranglijst",
        menuChangeName: "Andere naam",
        menuQuit: "Stoppen",

        joinTitle: "Meedoen met een privéspel",
        joinPrompt: "Typ de code die je tegenstander je gaf:",
        codeLabel: "Code: ",
        joinHelp: "typ de code · Enter meedoen · Esc terug",
        typeACode: "Typ eerst de code van 8 tekens.",
        waitingTitle: "Wachten op een tegenstander",
        seeking: { "Op zoek naar een tegenstander die in het \($0) speelt…" },
        seekingHint: "Je wordt alleen gekoppeld aan iemand die dezelfde taal en soort spel zoekt. Wijzigen: Esc, dan “Taal” of de spellen bovenaan het hoofdscherm.",
        othersWaiting: { "Ook aan het wachten: \($0) " + plural($0, "speler", "spelers") + " voor \($1), \($2)." },
        hostingCode: "De code van je privéspel:",
        hostingHint: "Geef hem aan je tegenstander: die kiest “Meedoen met een privéspel” en typt hem in.",
        waitingHelp: "Esc annuleren · Ctrl-C stoppen",
        resuming: "Je spel wordt hervat…",

        gameTitle: { "\($0) · ronde \($1)" },
        yourTurn: "Jij bent aan de beurt: typ een letter",
        theirTurn: { "\(atStart($0)) denkt na…" },
        emptyFragment: "— nog geen letters —",
        letterCount: { "\($0) " + plural($0, "letter", "letters") },
        played: { "\(atStart($0)) speelde \($1)" },
        runningScore: { "Tot nu toe: jij \($0) – \($1) \($2)" },
        gameHelp: "a–z letter spelen · Esc menu · ? regels · Ctrl-C stoppen (het spel wacht op je)",
        menuTitle: "Menu",
        menuAccept: { "Accepteren: \($0)" },
        menuDecline: "Het voorstel weigeren",
        menuClaim: { "De winst opeisen (\($0) bleef weg)" },
        menuRestart: "De ronde herstarten",
        menuPlayIn: { "In het \($0) spelen (herstart de ronde)" },
        menuLeave: "Het spel verlaten (je verliest)",
        menuClose: "Terug naar het spel",
        menuAcceptNone: "Een voorstel accepteren (er is er geen)",
        menuDeclineNone: "Een voorstel weigeren (er is er geen)",
        menuClaimNone: "De winst opeisen (als je tegenstander wegblijft)",
        menuPlayingIn: { "In het \($0) spelen (de taal van het spel)" },
        alreadyIn: { "Het spel is al in het \($0)." },
        confirmLeave: "Stoppen en dit spel verliezen? j: ja · n: nee",
        confirmCallOff: "Stoppen? Niemand heeft nog gezet: het spel gaat niet door, niemand verliest. j: ja · n: nee",
        gameMenuHelp: "letter of ↑/↓ kiezen · Enter bevestigen · b/Esc terug naar het spel · Ctrl-C stoppen",

        opponentAway: { "\(atStart($0)) is weg; het spel wacht (opeisbaar na \($1) s van hun beurt)." },
        claimable: { "\(atStart($0)) bleef te lang weg: Esc → de winst opeisen, of blijf wachten." },
        offerFromOpponent: { "\(atStart($0)) stelt voor om \($1)" },
        offerFromMe: { "Wachten tot \($0) je voorstel beantwoordt…" },
        offerSent: "Voorstel verstuurd: je tegenstander moet akkoord gaan.",
        notYourTurn: "Je bent niet aan de beurt: wacht op je tegenstander.",
        lettersOnly: "Alleen letters: typ een letter a–z (Esc voor het menu).",
        pastedSeveral: "Meerdere letters tegelijk (geplakt?) spelen niets: typ één letter.",
        returned: { "\(atStart($0)) is terug." },
        declined: { "\(atStart($0)) weigerde het voorstel; het spel gaat door." },
        accepted: { "\(atStart($0)) ging akkoord: een nieuwe ronde begint." },
        gameEnded: "Je vorige spel is intussen afgelopen.",
        seekCancelled: "De verbinding viel weg, dus het zoeken is gestopt.",
        seatTaken: "Je spel is in een ander venster hervat (hetzelfde instellingenbestand); het gaat daar verder.",
        signedOut: "Je bent in een ander venster ingelogd; in dit venster ben je afgemeld.",
        configSaveFailed: { "De instellingen konden niet bewaard worden: \($0)" },
        restartOffer: "de ronde te herstarten",
        langOffer: { "opnieuw te beginnen in het \($0)" },

        overTitle: "Spel voorbij",
        youWin: { "Je hebt gewonnen, \($0)! Gefeliciteerd!" },
        theyWin: { "\(atStart($0)) wint dit spel. Volgende keer beter!" },
        winnerIs: { "\(atStart($0)) wint!" },
        reasonWord: { "\(atStart($0)) maakte \($1), een woord van meer dan 3 letters." },
        reasonDead: { "\(atStart($0)) maakte \($1): daar gaat geen woord mee verder." },
        reasonLeft: { "\(atStart($0)) heeft het spel verlaten." },
        reasonAbandoned: { "\(atStart($0)) bleef te lang weg; \($1) eiste de winst op." },
        reasonOther: { "\(atStart($0)) verloor (\($1))." },
        possibleWord: { "\($0) had nog \($1) kunnen worden." },
        endedMeanwhile: { "Dit spel is afgelopen terwijl je weg was (\($0))." },
        finalFragment: "Laatste letters: ",
        places: "Plaatsen op de ranglijst:",
        rankLine: { "#\($0)  \($1)  (\($2) " + plural($2, "overwinning", "overwinningen") + ")" },
        overRematch: "Revanche",
        overNewGame: "Nieuw spel (snel een spel)",
        overChangeName: "Andere naam",
        overMain: "Hoofdscherm",
        overScores: "Ranglijst",
        overReview: "Dit spel terugkijken met analyse",
        overHelp: "letter of ↑/↓ kiezen · Enter bevestigen · Esc hoofdscherm · Ctrl-C stoppen",
        rematchWaiting: { "Revanche gevraagd: wachten op \($0)…" },
        rematchOffered: { "\(atStart($0)) wil revanche: druk op r om nog eens te spelen." },
        rematchLapsed: { "\(atStart($0)) is verder gegaan: de revanche is vervallen." },

        scoresTitle: "Ranglijst",
        scoresHeader: ("Plaats", "Naam", "Gewonnen", "Gespeeld"),
        scoresLoading: "Laden…",
        scoresEmpty: "Nog geen gespeelde spellen.",
        scoresHelp: "←/→ andere lijst · ↑/↓ scrollen · Esc terug",

        menuComputer: "Tegen de computer",
        menuMode: { "Soort spel: \($0)" },
        modeSingle: "los spel",
        modeMatch: "partij tot GHOST",
        computerTitle: "Tegen de computer",
        computerPrompt: "Kies een niveau:",
        levelName: { level in
            switch level {
            case "easy": "Makkelijk"
            case "medium": "Gemiddeld"
            case "hard": "Moeilijk"
            default: level
            }
        },
        levelDescription: { level in
            switch level {
            case "easy": "elke letter die niet meteen verliest; hints mogen"
            case "medium": "soms perfect, soms niet"
            case "hard": "perfect spel: wint zodra het kan"
            default: ""
            }
        },
        whoStarts: { "Wie begint: \($0)" },
        starterYou: "jij",
        starterComputer: "de computer",
        menuBack: "Terug",
        computerHelp: "letter of ↑/↓ kiezen · Enter beginnen · Esc terug",
        computerName: { "de computer (\(dutchLevel($0)))" },
        computerLabel: { "Computer (\(dutchLevel($0)))" },
        menuHint: "Hint: kan ik winst afdwingen?",
        hint: { winning, letter in
            winning ? "Je kunt hier winst afdwingen: probeer “\(letter.uppercased())”."
                : "Geen zekere winst vanaf hier; met “\(letter.uppercased())” kan de computer zich het vaakst vergissen."
        },
        earnsLetter: { "\(atStart($0)) maakte \($1) en krijgt de letter \($2)." },
        earnsOnly: { "\(atStart($0)) krijgt de letter \($1)." },
        roundOver: "Ronde voorbij: de volgende begint…",
        lastRound: "Vorige ronde: ",
        youWinMatch: { "Je wint de partij, \($0)! Gefeliciteerd!" },
        theyWinMatch: { "\(atStart($0)) wint de partij. Volgende keer beter!" },
        winnerIsMatch: { "\(atStart($0)) wint de partij!" },
        spelledGhost: { "\(atStart($0)) heeft GHOST vol." },
        ghostLabel: "G-H-O-S-T",
        boardName: { board in
            let level: (String) -> String = { l in
                switch l {
                case "easy": "makkelijk"
                case "medium": "gemiddeld"
                case "hard": "moeilijk"
                default: l
                }
            }
            switch board {
            case "game": return "spellen tussen mensen"
            case "match": return "partijen tussen mensen"
            case "easy", "medium", "hard": return "tegen de computer (\(level(board)))"
            default: return "partijen tegen de computer (\(level(board.split(separator: "-").first.map(String.init) ?? board)))"
            }
        },
        overPlayAgain: "Nog eens",
        matchSuffix: " (een partij tot GHOST)",

        errorText: { code in
            switch code {
            case .noHints: "Hints krijg je alleen tegen de makkelijke computer."
            case .nameTaken: "Die naam is nu in gebruik door een andere speler."
            case .badName: "Een naam is 1–16 letters, cijfers, - of _."
            case .notYourTurn: "Je bent niet aan de beurt: wacht op je tegenstander."
            case .notALetter: "Alleen letters: typ een letter a–z."
            case .noSuchGame: "Er is geen open privéspel met die code."
            case .ownGame: "Dat is je eigen spel: geef de code aan je tegenstander."
            case .badToken: "Je vorige spel is intussen afgelopen."
            case .noOffer: "Er is geen voorstel om te beantwoorden."
            case .notClaimable: "Je kunt de winst pas opeisen als je tegenstander te lang wegblijft."
            case .offerPending: "Er wacht al een voorstel op antwoord."
            case .offerSpent: "Je kunt opnieuw iets voorstellen zodra er een letter gespeeld is."
            case .noRematch: "Geen revanche: je tegenstander is weg of met iets anders begonnen."
            case .noName: "Kies eerst een naam."
            case .unknownLanguage: "De server heeft geen woordenboek voor die taal."
            case .storeFailed: "De server kon dat niet opslaan; er is niets veranderd."
            case .busy: "Nu niet: je wacht al op een spel, of speelt er een."
            case .notInGame: "Je speelt nu geen spel."
            case .flood: "Te veel toetsen tegelijk: rustig aan."
            case .badValue: "De server staat die waarde niet toe; er is niets veranderd."
            case .tooManyNames: "Te veel nieuwe namen vanaf je netwerk; probeer later."
            case .tooManyJoins: "Te veel foute codes vanaf je netwerk; wacht een minuut."
            case .tooManyGames: "Te veel onafgemaakte spellen: hervat of verlaat er een."
            default: nil
            }
        },
        refused: { "De server weigerde dat (\($0))." }
    )
}
