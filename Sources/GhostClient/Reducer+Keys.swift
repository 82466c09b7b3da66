import GhostWire
import GhostProtocol

/// Keys, screen by screen. Ctrl-C quits everywhere, asking first; in a game
/// every letter is a move and everything else that is not a menu key gets an alert.
extension ClientState {
    mutating func key(_ key: Key, _ fx: inout [ClientEffect]) {
        // Ctrl-L repaints the whole screen, on every screen and while a
        // question is asked; nothing else changes and nothing is sent.
        if key == .ctrlL { return fx.append(.redraw) }
        if confirmQuit { return MenuKeys.quitQuestionKey(&self, key, &fx) }
        if key == .ctrlC {
            // Quitting is destructive: asked first, on every screen.
            confirmQuit = true
            return
        }
        // Below the smallest window only the request for a larger one is
        // drawn: a key typed there would play unseen.
        if windowTooSmall { return }
        // Ctrl-U and Ctrl-W edit whatever text field is open, the same on
        // every screen; with none open they do nothing (TextEditing.swift).
        if key == .ctrlU || key == .ctrlW { return TextEditing.eraseTyped(&self, wholeField: key == .ctrlU, &fx) }
        // The chat line, open, takes every key: a letter never reaches the game (Social/).
        if social.chat != nil { return ChatFeature.chatKey(&self, key, &fx) }
        if social.confirmBlock != nil { return SocialFeature.blockQuestionKey(&self, key, &fx) }
        if key == ChatFeature.openKey, ChatFeature.available(self) {
            social.chat = ""
            return
        }
        if key == ChatFeature.acceptKey || key == ChatFeature.declineKey, ChatFeature.answersInvitation(self) {
            return ChatFeature.invitationKey(&self, key, &fx)
        }
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
        case .social(let sub): SocialFeature.key(&self, sub, key, &fx)
        }
    }

    /// Screens where letters are typed (a name, a code, a password, moves):
    /// there q is a letter.
    var screenTakesText: Bool {
        switch screen {
        case .name, .join, .game, .hangman(.play), .account: true
        case .social(.friends): social.addField != nil
        default: false
        }
    }

    /// True while this player, challenged, types the word (its field is open).
    var answeringChallenge: Bool {
        guard let g = game, let gs = g.ghost, gs.challenge, gs.roundEnd == nil, !gameMenuOpen, !confirmLeave, !watchingAGame else { return false }
        return gs.challenged && g.toMove.map(isMe) == true
    }
}
