import GhostWire
import GhostProtocol
import GameKit

/// The keys of a game being played (letters, the game menu and its
/// questions, an offer's answer, a challenged player's word) and of the
/// game-over screen.
enum PlayFeature {
    static func gameKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        if st.confirmLeave {
            // A question is open: its answers, not moves (y/j yes, n no, in either language).
            switch key {
            case .enter, .char("y"), .char("Y"), .char("j"), .char("J"):
                st.confirmLeave = false
                st.gameMenuOpen = false
                st.send(.leave, &fx)
            case .escape, .backspace, .char("n"), .char("N"):
                st.confirmLeave = false
            default: break
            }
            return
        }
        if let code = st.confirmLanguage {
            // Changing the language restarts the round: yes sends it, anything else keeps playing.
            st.confirmLanguage = nil
            st.gameMenuOpen = false
            if [.enter, .char("y"), .char("Y"), .char("j"), .char("J")].contains(key) { st.send(.lang(code), &fx) }
            return
        }
        // A kind this client has no code for: its moves, from VIEW (Games/Generic).
        if GenericFeature.key(&st, key, &fx) { return }
        if challengeKey(&st, key, &fx) { return }
        // The opponent's offer: Enter accepts, Backspace declines (Reducer+Offer.swift).
        if answerOfferKey(&st, key, &fx) { return }
        if key == .char("?"), let g = st.game {
            // The rules of the game and variant played: its tutorial page, and
            // Esc back to the screen it was opened from (Hangman's is its own).
            st.gameMenuOpen = false
            let page: TutorialPage = g.hangman != nil ? .hangman
                : .ghost(superghost: g.ghost?.superghost == true, challenge: g.ghost?.challenge == true)
            return SettingsFeature.goToTutorial(&st, returnTo: st.screen, page: page)
        }
        if st.gameMenuOpen, case .char(let c) = key, c.isLetter {
            // The menu is modal: a letter picks the entry it names (the same
            // in every game), q goes back to the game as b and Esc do; a
            // letter no entry has does nothing.
            let letter = c.lowercased()
            if letter == "q" { st.gameMenuOpen = false; return }
            guard let i = PlayFeature.gameMenuItems(st).firstIndex(where: { $0.letter(languages: st.serverLanguages) == letter }) else { return }
            return chooseGameMenuItem(&st, i, from: st.menuIndex, &fx)
        }
        if let c = key.letter, let letter = Letter(String(c)) {
            // With the menu closed, letters are moves; in Superghost at the end chosen.
            let front = st.game?.ghost?.superghost == true && st.game?.ghost?.frontNext == true
            st.send(front ? .move(GhostWire.Verb.letter, letter.description, GhostWire.Verb.front) : .letter(letter), &fx)
            st.game?.ghost?.frontNext = false
            return
        }
        if st.game?.ghost?.superghost == true && !st.gameMenuOpen && (key == .left || key == .right) {
            st.game?.ghost?.frontNext = key == .left
            return
        }
        let items = PlayFeature.gameMenuItems(st)
        if key == .escape || (key == .tab && !st.gameMenuOpen) {
            st.gameMenuOpen.toggle()
            // The cursor starts on the first entry that applies.
            st.menuIndex = items.firstIndex(where: { PlayFeature.gameMenuEnabled(st, $0) }) ?? 0
            return
        }
        guard st.gameMenuOpen else {
            if key == .enter && st.game == nil { return }
            st.show(.lettersOnly)
            return
        }
        let from = st.menuIndex
        // A digit is an entry's fixed key too (the same in every game); arrows and Enter move and choose.
        var chosen: Int?
        if let d = key.digit {
            guard let i = items.firstIndex(where: { $0.key(languages: st.serverLanguages) == d }) else { return }
            st.menuIndex = i
            chosen = i
        } else {
            chosen = MenuKeys.choice(&st, key, count: items.count)
        }
        guard let i = chosen, items.indices.contains(i) else {
            // Up and Down step over the entries that do not apply.
            if key == .up || key == .down || key == .tab {
                var j = st.menuIndex
                for _ in items.indices where !PlayFeature.gameMenuEnabled(st, items[j]) {
                    j = (j + (key == .up ? items.count - 1 : 1)) % items.count
                }
                st.menuIndex = PlayFeature.gameMenuEnabled(st, items[j]) ? j : from
            }
            return
        }
        chooseGameMenuItem(&st, i, from: from, &fx)
    }

    /// Entry `i` of the game menu chosen (by its letter, digit or Enter);
    /// `from`: the cursor before.
    static func chooseGameMenuItem(_ st: inout ClientState, _ i: Int, from: Int, _ fx: inout [ClientEffect]) {
        let items = PlayFeature.gameMenuItems(st)
        guard items.indices.contains(i) else { return }
        st.menuIndex = i
        guard PlayFeature.gameMenuEnabled(st, items[i]) else {
            // Every entry keeps its key: one that does not apply now does nothing.
            st.menuIndex = from
            return st.show(.unavailable(items[i]))
        }
        switch items[i] {
        case .accept:
            st.gameMenuOpen = false
            st.send(.accept, &fx)
        case .decline:
            st.gameMenuOpen = false
            st.send(.decline, &fx)
        case .claim:
            st.gameMenuOpen = false
            st.send(.claim, &fx)
        case .hint:
            st.gameMenuOpen = false
            st.send(.hint, &fx)
        case .restart:
            st.gameMenuOpen = false
            st.send(.restart, &fx)
        case .language(let code):
            // An offer to play the game in another language: the screens keep
            // theirs, and the game's changes only when the server says so
            // (GAME). It restarts the round: asked first.
            st.confirmLanguage = code
        case .leave:
            st.confirmLeave = true
        case .close:
            st.gameMenuOpen = false
        }
    }

    /// The keys of bluff and challenge: `!` challenges; a player who is
    /// challenged types the answer (letters after the fragment, Backspace
    /// erases one), Enter sends it (`WORD`), `-` concedes. True if the key
    /// was one of those.
    static func challengeKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) -> Bool {
        guard var g = st.game?.ghost, g.challenge, g.roundEnd == nil, !st.gameMenuOpen else { return false }
        guard st.answeringChallenge else {
            guard key == .char("!") else { return false }
            st.send(.move(GhostWire.Verb.challenge), &fx)
            return true
        }
        switch key {
        case .backspace:
            if !g.answer.isEmpty { g.answer.removeLast() }
        case .enter:
            guard !g.answer.isEmpty else {
                st.show(.typeTheWord)
                return true
            }
            st.send(.move(GhostWire.Verb.word, g.fragment + g.answer), &fx)
        case .char("-"):
            st.send(.move(GhostWire.Verb.concede), &fx)
        default:
            // Letters add to the word (a word is at most 64 letters here).
            guard let c = key.letter else { return false }
            if g.fragment.count + g.answer.count < 64 { g.answer.append(c) }
        }
        st.game?.ghost = g
        return true
    }

    /// Enter accepts the opponent's offer, Backspace or Delete declines it,
    /// with the game menu closed and no word typed; true if the key did.
    static func answerOfferKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) -> Bool {
        guard st.offerKeys == .oneKey else { return false }
        switch key {
        case .enter: st.send(.accept, &fx)
        case .backspace, .delete: st.send(.decline, &fx)
        default: return false
        }
        return true
    }

    static func overKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        if key == .escape { return st.goToMain() }
        let items = OverMenuItem.allCases
        // Each entry's letter (the same after every game), or ↑/↓, Enter, a digit.
        guard let i = MenuKeys.choice(&st, key, letters: items.map(\.letter)) else { return }
        switch items[i] {
        case .rematch:
            // The computer does not ask for rematches: start the same game again
            // (after a result the server gave on RESUME, at its level with the saved settings).
            if let r = st.result, r.bot != nil, let again = GenericFeature.again(st, r, computer: true) {
                if st.send(again, &fx) { st.lastComputerGame = again }
            } else if let level = st.result?.bot {
                var options = LobbyFeature.ghostOptions(st)
                options.bot = level
                options.botFirst = st.computerFirst
                let again = st.lastComputerGame ?? .new(options)
                if st.send(again, &fx) { st.lastComputerGame = again }
            } else {
                st.send(.rematch, &fx)
            }
        case .newGame: st.send(st.result.flatMap { GenericFeature.again(st, $0, computer: false) } ?? .seek(LobbyFeature.ghostOptions(st)), &fx)
        case .changeName: NamePickerFeature.goToNameScreen(&st, &fx)
        case .main: st.goToMain()
        case .scores:
            st.highScores.scoresBoard = Board.of(bot: st.result?.bot, match: st.result?.match ?? false)
            // An announced kind's game counts on its own board (Games/Generic).
            st.highScores.scoresKind = st.result?.kind
            st.highScores.scoresKindMode = st.result?.bot?.rawValue ?? "game"
            ScoresFeature.goToScores(&st, from: .over, &fx)
        case .review:
            guard let r = st.result else { return }
            let variant = r.superghost ? GhostWire.Variant.superghost.rawValue : r.challenge ? GhostWire.Variant.challenge.rawValue : nil
            let opponent = r.players.first { !st.isMe($0) } ?? (st.isMe(r.winner) ? r.loser : r.winner)
            RecordFeature.openEndedReplay(&st, id: r.id, game: r.kind ?? .ghost, variant: variant, opponent: opponent, won: st.isMe(r.winner), from: .over, &fx)
        }
    }

    // MARK: The game menu

    /// The game menu's entries, in order, for the current game. The list is
    /// fixed for the whole game, so every entry keeps its key; an entry that
    /// does not apply right now is shown disabled (`gameMenuEnabled`).
    /// Against the computer there are no offers to answer and no one to claim
    /// against; hints are only given against Easy.
    static func gameMenuItems(_ s: ClientState) -> [GameMenuItem] {
        guard let game = s.game else { return [.close] }
        var items: [GameMenuItem] = []
        // The computer (Ghost's `bot=`, Hangman's `bot-hangman` seat) makes no offers and never stays away.
        let computer = game.bot != nil || game.players.contains { $0.hasPrefix("bot-") }
        if !computer { items += [.accept, .decline, .claim] }
        if game.bot == .easy { items.append(.hint) }
        items.append(.restart)
        for code in s.serverLanguages { items.append(.language(code)) }
        items += [.leave, .close]
        return items
    }

    /// Whether a game menu entry applies now.
    static func gameMenuEnabled(_ s: ClientState, _ item: GameMenuItem) -> Bool {
        guard let game = s.game else { return item == .close }
        switch item {
        case .accept, .decline:
            guard let offer = game.offer else { return false }
            return !s.isMe(offer.player)
        case .claim: return game.claimable
        case .language(let code): return code != game.lang
        case .hint, .restart, .leave, .close: return true
        }
    }
}
