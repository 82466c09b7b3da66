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
        case .language: SettingsFeature.languageKey(&self, key, &fx)
        case .tutorial: SettingsFeature.tutorialKey(&self, key, &fx)
        case .name: NamePickerFeature.nameKey(&self, key, &fx)
        case .main: LobbyFeature.mainKey(&self, key, &fx)
        case .computer: LobbyFeature.computerKey(&self, key, &fx)
        case .join: LobbyFeature.joinKey(&self, key, &fx)
        case .waiting:
            if key == .escape || key == .backspace { send(.leave, &fx) }
        case .resuming: break
        case .game: PlayFeature.gameKey(&self, key, &fx)
        case .over: PlayFeature.overKey(&self, key, &fx)
        case .scores: ScoresFeature.scoresKey(&self, key, &fx)
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

    // MARK: Questions

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

    /// True while this player, challenged, types the word (its field is open).
    var answeringChallenge: Bool {
        guard let g = game, let gs = g.ghost, gs.challenge, gs.roundEnd == nil, !gameMenuOpen, !confirmLeave, !watchingAGame else { return false }
        return gs.challenged && g.toMove.map(isMe) == true
    }
}
