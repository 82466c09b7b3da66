import GhostWire
import GhostProtocol
import GameKit

/// Before a game: the main screen's entries, the computer's levels, and
/// the code of a private game to join.
enum LobbyFeature {
    static func mainKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        if key == .char("t") {
            // The clock (time) of new games, saved like the game type: t, as
            // the clock is named in both languages' ("time", "tijd"); c is the
            // computer's entry.
            st.config.nextClock()
            fx.append(.saveConfig)
            return
        }
        if key == .char("w") {
            // Watch a game in progress: the list of them.
            return WatchFeature.openWatchList(&st, &fx)
        }
        if key == .char("h") {
            // Your finished games, their replays and reviews, your profile (Record/).
            return RecordFeature.openHistory(&st, &fx)
        }
        if key == .char("p") {
            // Whether others may watch the games opened here (NEW), saved too.
            st.config.privateGames.toggle()
            fx.append(.saveConfig)
            return
        }
        if key == .char("v") && st.chosenKind == .ghost {
            // Ghost, Superghost or bluff and challenge for new games, saved too.
            st.config.nextVariant()
            fx.append(.saveConfig)
            return
        }
        if key == .char("m") && st.chosenKind == .ghost {
            // A single game or a match to GHOST, for new Ghost games, saved too.
            st.config.matchMode.toggle()
            fx.append(.saveConfig)
            return
        }
        if key == .left || key == .right {
            // The games side by side: ←/→ choose one.
            return GenericFeature.switchGame(&st, backwards: key == .left, &fx)
        }
        let entries = MainMenu.entries
        guard let i = MenuKeys.choice(&st, key, letters: MainMenu.keys) else { return }
        entries[i].choose(&st, &fx)
    }

    /// What the main menu's built-in entries do (Hangman's take theirs first).
    static func mainChoice(_ st: inout ClientState, _ item: MainMenuItem, _ fx: inout [ClientEffect]) {
        if GenericFeature.mainChoice(&st, item, &fx) { return }
        if HangmanFeature.hangmanMainChoice(&st, item, &fx) { return }
        let options = ghostOptions(st)
        // A second press while the first is unanswered would only be refused (busy).
        let starting = st.pending.last == .seek || st.pending.last == .new || st.pending.last == .join
        switch item {
        case .quickMatch: if !starting { st.send(.seek(options), &fx) }
        case .computer: st.go(.computer)
        case .newPrivate: if !starting { st.send(.new(options), &fx) }
        case .join:
            st.codeField = ""
            st.go(.join)
        case .language:
            st.settings.languageReturn = .main
            st.go(.language)
            st.menuIndex = Strings.uiLanguages.firstIndex(of: st.config.language ?? "en") ?? 0
        // The page of the variant chosen for new games.
        case .rules: SettingsFeature.goToTutorial(&st, returnTo: .main, page: .ghost(superghost: st.config.superghost, challenge: st.config.challenge))
        case .scores:
            st.highScores.scoresBoard = st.config.matchMode ? .match : .game
            st.highScores.scoresKind = nil
            ScoresFeature.goToScores(&st, from: .main, &fx)
        case .changeName: NamePickerFeature.goToNameScreen(&st, &fx)
        case .account: AccountFeature.openAccountScreen(&st)
        default: break
        }
    }

    static func computerKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        if key == .escape || key == .backspace { return st.goToMain() }
        let items = GenericFeature.computerItems(st)
        guard let i = MenuKeys.choice(&st, key, letters: items.map(\.letter)) else { return }
        switch items[i] {
        case .level(let level):
            let command = GenericFeature.computerGame(st, level)
            if st.send(command, &fx) { st.lastComputerGame = command }
        case .starter:
            // Saved, as the other settings are.
            st.computerFirst.toggle()
            fx.append(.saveConfig)
        case .back:
            st.goToMain()
        }
    }

    static func joinKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .char(let c):
            // A code is letters and digits: anything else is not typed (and said).
            guard let a = c.asciiValue, c.isLetter || c.isNumber else { return st.show(.typeACode) }
            guard st.codeField.count < 12, (0x21...0x7E).contains(a) else { return }
            st.codeField.append(Character(c.uppercased()))
        case .backspace:
            if !st.codeField.isEmpty { st.codeField.removeLast() }
        case .enter:
            guard !st.codeField.isEmpty else { return st.show(.typeACode) }
            st.send(.join(st.codeField), &fx)
        case .escape:
            st.goToMain()
        default:
            break
        }
    }

    /// The options of a new Ghost game from the saved choices: match or
    /// single game, clock, and Superghost or bluff and challenge.
    static func ghostOptions(_ st: ClientState) -> GameOptions {
        var options = GameOptions(rounds: st.config.matchMode ? .ghost : .one, clock: st.config.clock)
        options.variant = st.config.variant
        return options
    }

    /// WAITING: who waits in the other seek queues (`LineOwner.lobby`).
    static func line(_ st: inout ClientState, _ line: ServerLine) {
        guard case let .waiting(kind, lang, rounds, count, clock, variant) = line else { return }
        // Only the games this client plays (as for GAME). A later WAITING
        // for the same queue replaces the earlier one; count=0: it emptied.
        guard ClientGames.plays(kind) || st.announced(GameKind(rawValue: kind)) != nil, case .seeking = st.lobby else { return }
        let queue = OtherSeekers(lang: lang, match: rounds == .ghost, count: count, game: GameKind(rawValue: kind), clock: clock,
                                 variant: variant)
        if let i = st.otherSeekers.firstIndex(where: { $0.lang == lang && $0.match == queue.match && $0.game == queue.game && $0.clock == clock
                                                    && $0.variant == variant }) {
            if count > 0 { st.otherSeekers[i] = queue } else { st.otherSeekers.remove(at: i) }
        } else if count > 0, st.otherSeekers.count < 20 {
            st.otherSeekers.append(queue)
        }
    }

    /// The answers to SEEK, NEW, JOIN and LEAVE.
    static func reply(_ st: inout ClientState, _ reply: Reply) {
        switch reply {
        case let .seek(lang, rounds, _):
            if st.game == nil {
                st.lobby = .seeking(lang: lang, match: rounds == .ghost, game: st.seekGame)
                st.otherSeekers = []
                st.go(.waiting)
            }
        case let .new(code, _, lang, rounds, _):
            // Against the computer there is no code: the GAME follows at once.
            if let code, st.game == nil {
                st.lobby = .hosting(code: code, lang: lang, match: rounds == .ghost)
                st.go(.waiting)
            }
        case .join:
            st.codeField = ""
        case .leave:
            if st.screen == .waiting { st.goToMain() }
            st.lobby = nil
        default:
            break
        }
    }
}
