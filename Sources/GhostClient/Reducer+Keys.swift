import GhostWire
import GhostProtocol

/// Keys, screen by screen. Ctrl-C quits everywhere, asking first; in a game
/// every letter is a move and everything else that is not a menu key gets an alert.
extension ClientState {
    mutating func key(_ key: Key, _ fx: inout [ClientEffect]) {
        // Ctrl-L repaints the whole screen, on every screen and while a
        // question is asked; nothing else changes and nothing is sent.
        if key == .ctrlL { return fx.append(.redraw) }
        if confirmQuit { return quitQuestionKey(key, &fx) }
        if key == .ctrlC {
            // Quitting is destructive: asked first, on every screen.
            confirmQuit = true
            return
        }
        // Below the smallest window only the request for a larger one is
        // drawn: a key typed there would play unseen.
        if windowTooSmall { return }
        // Ctrl-U and Ctrl-W edit whatever text field is open, the same on
        // every screen; with none open they do nothing (Reducer+Editing.swift).
        if key == .ctrlU || key == .ctrlW { return eraseTyped(wholeField: key == .ctrlU, &fx) }
        if watchingAGame { return WatchFeature.watchingKey(&self, key, &fx) }
        // q is Esc on every screen where nothing is typed: back, cancel (the
        // waiting screen too), close. The main screen, with nowhere to go
        // back to, takes it as Quit, which asks first.
        if key == .char("q") || key == .char("Q"), screen != .main, !screenTakesText { return self.key(.escape, &fx) }
        switch screen {
        case .language: languageKey(key, &fx)
        case .tutorial: tutorialKey(key, &fx)
        case .name: nameKey(key, &fx)
        case .main: mainKey(key, &fx)
        case .computer: computerKey(key, &fx)
        case .join: joinKey(key, &fx)
        case .waiting:
            if key == .escape || key == .backspace { send(.leave, &fx) }
        case .resuming: break
        case .game: gameKey(key, &fx)
        case .over: overKey(key, &fx)
        case .scores: scoresKey(key, &fx)
        case .hangman(let sub): HangmanFeature.hangmanKey(&self, sub, key, &fx)
        case .watchList: WatchFeature.watchListKey(&self, key, &fx)
        case .account(let sub): AccountFeature.accountKey(&self, sub, key, &fx)
        case .record(let sub): RecordFeature.recordKey(&self, sub, key, &fx)
        }
    }

    /// Screens where letters are typed (a name, a code, a password, moves):
    /// there q is a letter.
    var screenTakesText: Bool {
        switch screen {
        case .name, .join, .game, .hangman(.play), .account: true
        default: false
        }
    }

    /// A menu's key: the letter shown before an entry chooses it (one key
    /// style in every menu); else as `menuChoice(_:count:)`.
    mutating func menuChoice(_ key: Key, letters: [String]) -> Int? {
        if case .char(let c) = key, let i = letters.firstIndex(of: c.lowercased()) {
            menuIndex = i
            return i
        }
        return menuChoice(key, count: letters.count)
    }

    /// Up/Down/digits move a menu cursor over `count` entries; returns the
    /// entry chosen with Enter or a digit (1-based digits, kept from the
    /// menus' first key style), if any.
    mutating func menuChoice(_ key: Key, count: Int) -> Int? {
        guard count > 0 else { return nil }
        switch key {
        case .up: menuIndex = (menuIndex + count - 1) % count
        case .down, .tab: menuIndex = (menuIndex + 1) % count
        case .home: menuIndex = 0
        case .end: menuIndex = count - 1
        case .enter: return min(max(0, menuIndex), count - 1)
        default:
            // 1–9 pick the first nine entries, 0 the tenth.
            if let d = key.digit, d == 0 ? count >= 10 : d <= count {
                menuIndex = d == 0 ? 9 : d - 1
                return menuIndex
            }
        }
        return nil
    }

    // MARK: Screens before a game

    mutating func languageKey(_ key: Key, _ fx: inout [ClientEffect]) {
        let langs = Strings.uiLanguages
        if key == .escape, config.language != nil {
            go(languageReturn)
            return
        }
        // Each language by its letter (e English, n Nederlands), as shown.
        guard let choice = menuChoice(key, letters: Strings.languageLetters) else { return }
        let firstTime = config.language == nil
        chooseLanguage(langs[choice], &fx)
        if firstTime || !config.tutorialSeen {
            goToTutorial(returnTo: languageReturn)
        } else if languageReturn == .name {
            goToNameScreen(&fx)
        } else {
            go(languageReturn)
        }
    }

    mutating func tutorialKey(_ key: Key, _ fx: inout [ClientEffect]) {
        let last = Strings.tutorialPageCount - 1
        switch key {
        case .right, .enter, .pageDown, .char(" "):
            if tutorialPage < last { tutorialPage += 1 } else { finishTutorial(&fx) }
        case .left, .backspace, .pageUp:
            tutorialPage = max(0, tutorialPage - 1)
        case .escape, .char("q"):
            finishTutorial(&fx)
        default:
            if let d = key.digit, (1...(last + 1)).contains(d) { tutorialPage = d - 1 }
        }
    }

    mutating func finishTutorial(_ fx: inout [ClientEffect]) {
        if !config.tutorialSeen {
            config.tutorialSeen = true
            fx.append(.saveConfig)
        }
        if config.token != nil && link != .online {
            go(.resuming)
        } else if tutorialReturn == .name || !named {
            goToNameScreen(&fx)
        } else {
            go(tutorialReturn)
        }
    }

    /// The name screen: typing searches (this client's names, then the
    /// server's: `askNames`), ↑/↓ pick, Enter takes the name.
    mutating func nameKey(_ key: Key, _ fx: inout [ClientEffect]) {
        let names = filteredNames
        let typed = nameField
        defer { if nameField != typed { askNames(&fx) } }
        switch key {
        case .char(let c):
            // Only what a name may hold (letters, digits, - and _, up to its
            // length): anything else (a space, !) is refused as it is typed,
            // and said, not at Enter.
            guard CommandParser.isValidName(nameField + String(c)) else {
                return show(.serverError(code: .badName, text: ""))
            }
            nameField.append(c)
            nameCursor = nil
        case .backspace:
            if !nameField.isEmpty { nameField.removeLast() }
            nameCursor = nil
            preselectLastName()
        case .down:
            guard !names.isEmpty else { return }
            nameCursor = nameCursor.map { min($0 + 1, names.count - 1) } ?? 0
        case .up:
            guard let c = nameCursor else { return }
            nameCursor = c == 0 ? (nameField.isEmpty ? 0 : nil) : c - 1
        case .tab:
            // Complete the typed prefix with the highlighted (or first) match.
            if let n = nameCursor.flatMap({ names.indices.contains($0) ? names[$0] : nil }) ?? names.first {
                nameField = n
                nameCursor = nil
            }
        case .enter:
            let chosen = nameCursor.flatMap { names.indices.contains($0) ? names[$0] : nil } ?? nameField.trimmingSpaces
            guard !chosen.isEmpty else { return show(.typeAName) }
            // The game went on in another window (same settings file) and this
            // one was sent here: picking the game's name takes the game back
            // with the token; the server keeps the name
            // for the seat, so NAME alone would be refused.
            if seatTaken, let token = config.token, game == nil,
               chosen.lowercased() == (myName ?? config.lastName ?? "").lowercased() {
                seatTaken = false
                go(.resuming)
                send(.resume(token), &fx)
                return
            }
            AccountFeature.sendName(&self, chosen, &fx)
        case .escape:
            if named { goToMain() }
        default:
            break
        }
    }

    /// The quit question (Ctrl-C anywhere, q on the main screen): a second
    /// Ctrl-C, y/j or Enter quits; n or Esc goes back to the screen as it
    /// was; other keys do nothing while it is asked (a letter plays nothing).
    mutating func quitQuestionKey(_ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .ctrlC, .enter, .char("y"), .char("Y"), .char("j"), .char("J"):
            confirmQuit = false
            quitting = true
            fx.append(.quit)
        case .escape, .backspace, .char("n"), .char("N"):
            confirmQuit = false
        default:
            break
        }
    }

    mutating func mainKey(_ key: Key, _ fx: inout [ClientEffect]) {
        if key == .char("t") {
            // The clock (time) of new games, saved like the game type: t, as
            // the clock is named in both languages' ("time", "tijd"); c is the
            // computer's entry.
            config.nextClock()
            fx.append(.saveConfig)
            return
        }
        if key == .char("w") {
            // Watch a game in progress: the list of them.
            return WatchFeature.openWatchList(&self, &fx)
        }
        if key == .char("h") {
            // Your finished games, their replays and reviews, your profile (Record/).
            return RecordFeature.openHistory(&self, &fx)
        }
        if key == .char("p") {
            // Whether others may watch the games opened here (NEW), saved too.
            config.privateGames.toggle()
            fx.append(.saveConfig)
            return
        }
        if key == .char("v") && chosenKind == .ghost {
            // Ghost, Superghost or bluff and challenge for new games, saved too.
            config.nextVariant()
            fx.append(.saveConfig)
            return
        }
        if key == .char("m") && chosenKind == .ghost {
            // A single game or a match to GHOST, for new Ghost games, saved too.
            config.matchMode.toggle()
            fx.append(.saveConfig)
            return
        }
        if key == .left || key == .right {
            // The games side by side: ←/→ choose one.
            return switchGame(backwards: key == .left, &fx)
        }
        let entries = MainMenu.entries
        guard let i = menuChoice(key, letters: MainMenu.keys) else { return }
        entries[i].choose(&self, &fx)
    }

    /// What the main menu's built-in entries do (Hangman's take theirs first).
    mutating func mainChoice(_ item: MainMenuItem, _ fx: inout [ClientEffect]) {
        if genericMainChoice(item, &fx) { return }
        if HangmanFeature.hangmanMainChoice(&self, item, &fx) { return }
        let options = ghostOptions()
        // A second press while the first is unanswered would only be refused (busy).
        let starting = pending.last == .seek || pending.last == .new || pending.last == .join
        switch item {
        case .quickMatch: if !starting { send(.seek(options), &fx) }
        case .computer: go(.computer)
        case .newPrivate: if !starting { send(.new(options), &fx) }
        case .join:
            codeField = ""
            go(.join)
        case .language:
            languageReturn = .main
            go(.language)
            menuIndex = Strings.uiLanguages.firstIndex(of: config.language ?? "en") ?? 0
        // The page of the variant chosen for new games.
        case .rules: goToTutorial(returnTo: .main, page: .ghost(superghost: config.superghost, challenge: config.challenge))
        case .scores:
            scoresBoard = config.matchMode ? .match : .game
            scoresKind = nil
            goToScores(from: .main, &fx)
        case .changeName: goToNameScreen(&fx)
        case .account: AccountFeature.openAccountScreen(&self)
        default: break
        }
    }

    mutating func computerKey(_ key: Key, _ fx: inout [ClientEffect]) {
        if key == .escape || key == .backspace { return goToMain() }
        let items = computerItems
        guard let i = menuChoice(key, letters: items.map(\.letter)) else { return }
        switch items[i] {
        case .level(let level):
            let command = computerGame(level)
            if send(command, &fx) { lastComputerGame = command }
        case .starter:
            // Saved, as the other settings are.
            computerFirst.toggle()
            fx.append(.saveConfig)
        case .back:
            goToMain()
        }
    }

    mutating func joinKey(_ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .char(let c):
            // A code is letters and digits: anything else is not typed (and said).
            guard let a = c.asciiValue, c.isLetter || c.isNumber else { return show(.typeACode) }
            guard codeField.count < 12, (0x21...0x7E).contains(a) else { return }
            codeField.append(Character(c.uppercased()))
        case .backspace:
            if !codeField.isEmpty { codeField.removeLast() }
        case .enter:
            guard !codeField.isEmpty else { return show(.typeACode) }
            send(.join(codeField), &fx)
        case .escape:
            goToMain()
        default:
            break
        }
    }

    // MARK: The game

    mutating func gameKey(_ key: Key, _ fx: inout [ClientEffect]) {
        if confirmLeave {
            // A question is open: its answers, not moves (y/j yes, n no, in either language).
            switch key {
            case .enter, .char("y"), .char("Y"), .char("j"), .char("J"):
                confirmLeave = false
                gameMenuOpen = false
                send(.leave, &fx)
            case .escape, .backspace, .char("n"), .char("N"):
                confirmLeave = false
            default: break
            }
            return
        }
        if let code = confirmLanguage {
            // Changing the language restarts the round: yes sends it, anything else keeps playing.
            confirmLanguage = nil
            gameMenuOpen = false
            if [.enter, .char("y"), .char("Y"), .char("j"), .char("J")].contains(key) { send(.lang(code), &fx) }
            return
        }
        // A kind this client has no code for: its moves, from VIEW (Games/Generic).
        if genericKey(key, &fx) { return }
        if challengeKey(key, &fx) { return }
        // The opponent's offer: Enter accepts, Backspace declines (Reducer+Offer.swift).
        if answerOfferKey(key, &fx) { return }
        if key == .char("?"), let g = game {
            // The rules of the game and variant played: its tutorial page, and
            // Esc back to the screen it was opened from (Hangman's is its own).
            gameMenuOpen = false
            let page: TutorialPage = g.hangman != nil ? .hangman
                : .ghost(superghost: g.ghost?.superghost == true, challenge: g.ghost?.challenge == true)
            return goToTutorial(returnTo: screen, page: page)
        }
        if gameMenuOpen, case .char(let c) = key, c.isLetter {
            // The menu is modal: a letter picks the entry it names (the same
            // in every game), q goes back to the game as b and Esc do; a
            // letter no entry has does nothing.
            let letter = c.lowercased()
            if letter == "q" { gameMenuOpen = false; return }
            guard let i = gameMenuItems.firstIndex(where: { $0.letter(languages: serverLanguages) == letter }) else { return }
            return chooseGameMenuItem(i, from: menuIndex, &fx)
        }
        if let c = key.letter, let letter = Letter(String(c)) {
            // With the menu closed, letters are moves; in Superghost at the end chosen.
            let front = game?.ghost?.superghost == true && game?.ghost?.frontNext == true
            send(front ? .front(letter) : .letter(letter), &fx)
            game?.ghost?.frontNext = false
            return
        }
        if game?.ghost?.superghost == true && !gameMenuOpen && (key == .left || key == .right) {
            game?.ghost?.frontNext = key == .left
            return
        }
        let items = gameMenuItems
        if key == .escape || (key == .tab && !gameMenuOpen) {
            gameMenuOpen.toggle()
            // The cursor starts on the first entry that applies.
            menuIndex = items.firstIndex(where: gameMenuEnabled) ?? 0
            return
        }
        guard gameMenuOpen else {
            if key == .enter && game == nil { return }
            show(.lettersOnly)
            return
        }
        let from = menuIndex
        // A digit is an entry's fixed key too (the same in every game); arrows and Enter move and choose.
        var chosen: Int?
        if let d = key.digit {
            guard let i = items.firstIndex(where: { $0.key(languages: serverLanguages) == d }) else { return }
            menuIndex = i
            chosen = i
        } else {
            chosen = menuChoice(key, count: items.count)
        }
        guard let i = chosen, items.indices.contains(i) else {
            // Up and Down step over the entries that do not apply.
            if key == .up || key == .down || key == .tab {
                var j = menuIndex
                for _ in items.indices where !gameMenuEnabled(items[j]) {
                    j = (j + (key == .up ? items.count - 1 : 1)) % items.count
                }
                menuIndex = gameMenuEnabled(items[j]) ? j : from
            }
            return
        }
        chooseGameMenuItem(i, from: from, &fx)
    }

    /// Entry `i` of the game menu chosen (by its letter, digit or Enter);
    /// `from`: the cursor before.
    mutating func chooseGameMenuItem(_ i: Int, from: Int, _ fx: inout [ClientEffect]) {
        let items = gameMenuItems
        guard items.indices.contains(i) else { return }
        menuIndex = i
        guard gameMenuEnabled(items[i]) else {
            // Every entry keeps its key: one that does not apply now does nothing.
            menuIndex = from
            return show(.unavailable(items[i]))
        }
        switch items[i] {
        case .accept:
            gameMenuOpen = false
            send(.accept, &fx)
        case .decline:
            gameMenuOpen = false
            send(.decline, &fx)
        case .claim:
            gameMenuOpen = false
            send(.claim, &fx)
        case .hint:
            gameMenuOpen = false
            send(.hint, &fx)
        case .restart:
            gameMenuOpen = false
            send(.restart, &fx)
        case .language(let code):
            // An offer to play the game in another language: the screens keep
            // theirs, and the game's changes only when the server says so
            // (GAME). It restarts the round: asked first.
            confirmLanguage = code
        case .leave:
            confirmLeave = true
        case .close:
            gameMenuOpen = false
        }
    }

    // MARK: After a game

    mutating func overKey(_ key: Key, _ fx: inout [ClientEffect]) {
        if key == .escape { return goToMain() }
        let items = OverMenuItem.allCases
        // Each entry's letter (the same after every game), or ↑/↓, Enter, a digit.
        guard let i = menuChoice(key, letters: items.map(\.letter)) else { return }
        switch items[i] {
        case .rematch:
            // The computer does not ask for rematches: start the same game again
            // (after a result the server gave on RESUME, at its level with the saved settings).
            if let r = result, r.bot != nil, let again = genericAgain(r, computer: true) {
                if send(again, &fx) { lastComputerGame = again }
            } else if let level = result?.bot {
                var options = ghostOptions()
                options.bot = level
                options.botFirst = computerFirst
                let again = lastComputerGame ?? .new(options)
                if send(again, &fx) { lastComputerGame = again }
            } else {
                send(.rematch, &fx)
            }
        case .newGame: send(result.flatMap { genericAgain($0, computer: false) } ?? .seek(ghostOptions()), &fx)
        case .changeName: goToNameScreen(&fx)
        case .main: goToMain()
        case .scores:
            scoresBoard = Board.of(bot: result?.bot, match: result?.match ?? false)
            // An announced kind's game counts on its own board (Games/Generic).
            scoresKind = result?.kind
            scoresKindMode = result?.bot?.rawValue ?? "game"
            goToScores(from: .over, &fx)
        case .review:
            guard let r = result else { return }
            let variant = r.superghost ? GhostWire.Variant.superghost.rawValue : r.challenge ? GhostWire.Variant.challenge.rawValue : nil
            let opponent = r.players.first { !isMe($0) } ?? (isMe(r.winner) ? r.loser : r.winner)
            RecordFeature.openEndedReplay(&self, id: r.id, game: r.kind ?? .ghost, variant: variant, opponent: opponent, won: isMe(r.winner), from: .over, &fx)
        }
    }

    mutating func scoresKey(_ key: Key, _ fx: inout [ClientEffect]) {
        let count = scores?.count ?? 0
        switch key {
        case .down: scoresOffset = min(scoresOffset + 1, max(0, count - 1))
        case .up: scoresOffset = max(0, scoresOffset - 1)
        case .pageDown: scoresOffset = min(scoresOffset + 10, max(0, count - 1))
        case .pageUp: scoresOffset = max(0, scoresOffset - 10)
        case .home: scoresOffset = 0
        case .left where scoresKind != nil, .right where scoresKind != nil:
            let modes = scoresKindModes
            let i = modes.firstIndex(of: scoresKindMode) ?? 0
            scoresKindMode = modes[(i + (key == .right ? 1 : modes.count - 1)) % modes.count]
            loadScores(&fx)
        case .left, .right:
            let boards = Board.all
            let i = boards.firstIndex(of: scoresBoard) ?? 0
            scoresBoard = boards[(i + (key == .right ? 1 : boards.count - 1)) % boards.count]
            loadScores(&fx)
        case .escape, .enter, .backspace, .char("q"):
            let back = scoresReturn
            go(back)
            if back == .over { menuIndex = OverMenuItem.allCases.firstIndex(of: .scores) ?? 0 }
        default: break
        }
    }

    /// The options of a new Ghost game from the saved choices: match or
    /// single game, clock, and Superghost or bluff and challenge.
    func ghostOptions() -> GameOptions {
        var options = GameOptions(rounds: config.matchMode ? .ghost : .one, clock: config.clock)
        options.variant = config.variant
        return options
    }

    /// True while this player, challenged, types the word (its field is open).
    var answeringChallenge: Bool {
        guard let g = game, let gs = g.ghost, gs.challenge, gs.roundEnd == nil, !gameMenuOpen, !confirmLeave, !watchingAGame else { return false }
        return gs.challenged && g.toMove.map(isMe) == true
    }

    /// The keys of bluff and challenge: `!` challenges; a player who is
    /// challenged types the answer (letters after the fragment, Backspace
    /// erases one), Enter sends it (`WORD`), `-` concedes. True if the key
    /// was one of those.
    mutating func challengeKey(_ key: Key, _ fx: inout [ClientEffect]) -> Bool {
        guard var g = game?.ghost, g.challenge, g.roundEnd == nil, !gameMenuOpen else { return false }
        guard answeringChallenge else {
            guard key == .char("!") else { return false }
            send(.challenge, &fx)
            return true
        }
        switch key {
        case .backspace:
            if !g.answer.isEmpty { g.answer.removeLast() }
        case .enter:
            guard !g.answer.isEmpty else {
                show(.typeTheWord)
                return true
            }
            send(.word(g.fragment + g.answer), &fx)
        case .char("-"):
            send(.concede, &fx)
        default:
            // Letters add to the word (a word is at most 64 letters here).
            guard let c = key.letter else { return false }
            if g.fragment.count + g.answer.count < 64 { g.answer.append(c) }
        }
        game?.ghost = g
        return true
    }
}
