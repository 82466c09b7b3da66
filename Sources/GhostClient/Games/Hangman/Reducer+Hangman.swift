import GhostWire
import GhostProtocol
import HangmanWire
import GameKit

/// Hangman in the client's core: its server lines, its replies and refusals,
/// and its keys. The generic core calls in here at one point each
/// (`line`, for the lines `LineOwner.hangman` names, `hangmanReply`, `hangmanError`, `hangmanKey`,
/// `hangmanMainChoice`); TURN and MOVE are the table's
/// (`TableFeature.turn`, `.move`), which scopes them into Hangman's board
/// (`HangmanBoard.reduce`, HangmanBoard+Reduce.swift); everything else about
/// Hangman lives in this folder.
enum HangmanFeature {
    /// The lists a player can see, in the order ←/→ visit them.
    static let hangmanLists = ["evil", "fair", "phrase", "duel"]
    /// The modes the flipside offers (a duel is not a saved mode).
    static let hangmanModes = ["evil", "fair", "phrase"]
    /// How many rows of a best-games list to ask for.
    static let hangmanScoresLimit = 100

    // MARK: Server lines

    /// Hangman's lines (`LineOwner.hangman`).
    static func line(_ st: inout ClientState, _ line: ServerLine, _ fx: inout [ClientEffect]) {
        switch line {
        case let .game(id, _, lang, players, token, round, bot, fields, record, clock, audience, _):
            if let board = HangmanLines.game(fields) {
                hangmanStarted(&st, id: id, lang: lang, players: players, token: token, round: round, bot: bot, board: board,
                               record: record, clock: clock, audience: audience, &fx)
            }
        case let .over(id, winner, loser, reason, fields, _):
            guard let g = st.currentGame(id), let b = g.hangman else { return }
            hangmanOver(&st, g, b, winner: winner, loser: loser, reason: reason, fields: fields, &fx)
        case .info(let text):
            // The INFO right after OVER says the same in the server's words.
            guard st.game == nil, st.hangmanScreen == .play || st.hangmanScreen == .settings, var end = st.hangman.ended,
                  end.info == nil else { return }
            end.info = text
            st.hangman.ended = end
        case let .bestRank(board, rank, _):
            guard st.game == nil, var end = st.hangman.ended else { return }
            end.rankBoard = board
            end.rank = rank
            st.hangman.ended = end
        case let .bestScore(rank, name, fields, _):
            if st.hangman.incomingScores.count < 1_000, let row = HangmanLines.score(rank: rank, name: name, fields) {
                st.hangman.incomingScores.append(row)
            }
        case let .setting(key, value, _):
            // A change still on its way stays on screen until its reply.
            let settled = !st.hangman.setKeys.contains(key)
            st.hangman.update(key) { s in
                s.saved = value
                if settled {
                    s.shown = nil
                    s.refusal = nil
                    s.refused = nil
                }
            }
        case let .rematch(id, player):
            guard st.result == nil, st.hangman.ended?.id == id else { return }
            st.hangman.ended?.rematchOfferedBy = player
        case let .cancelled(id, _, kind):
            guard kind == .rematch, st.result == nil, st.hangman.ended?.id == id else { return }
            st.hangman.ended?.rematchOfferedBy = nil
            st.hangman.ended?.rematchAsked = false
        default:
            break
        }
    }

    static func hangmanStarted(_ st: inout ClientState, id: Int, lang: String, players: [String], token: String?, round: Int, bot: BotLevel?,
                               board: HangmanBoard, record: HeadToHead?, clock: Int? = nil, audience: Audience? = nil,
                               _ fx: inout [ClientEffect]) {
        let old = st.game
        TableFeature.gameStarted(&st, id: id, lang: lang, players: players, token: token, round: round, bot: bot,
                                 board: .hangman(board), record: record, clock: clock, audience: audience, &fx)
        guard var g = st.game, g.id == id else { return }
        var b = board
        if let o = old, o.id == id, o.round == round, let ob = o.hangman {
            // The same game again (a RESUME): keep what the screen showed until TURN.
            b.resume(from: ob)
        }
        g.hangman = b
        st.game = g
        st.hangman.ended = nil
        st.hangman.answer = nil
        st.hangman.confirmNew = false
        if old?.id != id { st.hangman.wordField = "" }
        if st.screen != .hangman(.play) && st.screen != .hangman(.settings) { st.go(.hangman(.play)) }
    }

    static func hangmanOver(_ st: inout ClientState, _ g: GameInfo, _ b: HangmanBoard, winner: String, loser: String, reason: OverReason,
                            fields: [Field], _ fx: inout [ClientEffect]) {
        let over = HangmanLines.over(fields)
        var board = b
        if let p = over.pattern { board.pattern = p }
        st.hangman.ended = HangmanEnd(id: g.id, board: board, players: g.players, winner: winner, loser: loser, reason: reason,
                                      word: over.word ?? board.word ?? "", mistakes: over.mistakes ?? board.mistakes)
        if g.watching {
            // A watched game: its end stays on screen until a key goes back to the list (no token, no lists).
            st.game = nil
            WatchFeature.watchedGameEnded(&st, nil)
            if st.screen != .hangman(.play) { st.go(.hangman(.play)) }
            return
        }
        st.game = nil
        st.setToken(nil, &fx)
        st.hangman.answer = nil
        st.hangman.confirmNew = false
        st.gameMenuOpen = false
        st.confirmLeave = false
        if st.screen != .hangman(.settings) { st.go(.hangman(.play)) }
        // The game's list, at once: it highlights this game if it made it.
        st.hangman.scoresMode = board.mode
        loadHangmanScores(&st, &fx)
    }

    static func loadHangmanScores(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        st.hangman.scores = nil
        st.hangman.scoresOffset = 0
        st.hangman.incomingScores = []
        st.send(.bestGames(HangmanFeature.hangmanScoresLimit, game: .hangman, mode: st.hangman.scoresMode), &fx)
    }

    // MARK: Replies

    /// Takes the replies that belong to Hangman; `verb` is the command they answer.
    static func hangmanReply(_ st: inout ClientState, _ reply: Reply, to verb: Verb?, _ fx: inout [ClientEffect]) {
        switch reply {
        case let .set(key, value):
            if !st.hangman.setKeys.isEmpty { st.hangman.setKeys.removeFirst() }
            // A later change of the same setting still on its way decides what is shown.
            let latest = !st.hangman.setKeys.contains(key)
            st.hangman.update(key) { s in
                s.saved = value
                if latest {
                    s.shown = nil
                    s.refusal = nil
                    s.refused = nil
                }
            }
            st.show(.hangman(.saved))
        case .settings:
            break
        case .bestGames:
            st.hangman.scores = st.hangman.incomingScores
            st.hangman.incomingScores = []
        case let .other(text, fields):
            switch Verb(spelled: text) {
            case .new?:
                guard fields["game"] == HangmanWire.kind else { return }
                // A duel with a person waits for them; the computer's games start at once.
                if let code = fields["code"], st.game == nil {
                    st.lobby = .hosting(code: code, lang: fields["lang"] ?? "", match: false, game: .hangman)
                    st.go(.waiting)
                }
            case _ where text == HangmanWire.Verb.word:
                if var g = st.game, var b = g.hangman {
                    b.word = st.hangman.wordSent
                    b.apply(HangmanLines.position(fields))
                    g.hangman = b
                    st.game = g
                }
                st.hangman.wordField = ""
                // A word refused before is no news once one is set.
                if case .hangman(.notAWord)? = st.alert?.notice { st.alert = nil }
            default:
                return
            }
        case .rematch(let status):
            guard st.result == nil, st.hangman.ended != nil else { return }
            if status == .asked { st.hangman.ended?.rematchAsked = true }
        default:
            return
        }
    }

    /// Takes the refusals that belong to Hangman.
    static func hangmanError(_ st: inout ClientState, _ verb: Verb?, move: String?, _ code: ErrorCode, _ text: String, _ fx: inout [ClientEffect]) {
        if move == HangmanWire.Verb.word {
            guard code == .notAWord, let g = st.game, let b = g.hangman else { return }
            return st.show(.hangman(.notAWord(word: st.hangman.wordSent ?? "", lang: g.lang, length: b.length)))
        }
        if move == HangmanWire.Verb.letter || move == HangmanWire.Verb.solve {
            if code == .alreadyGuessed {
                st.show(.hangman(.alreadyGuessed(st.hangman.guessSent ?? "")))
                return
            }
        }
        switch verb {
        case .set?:
            let key = st.hangman.setKeys.isEmpty ? nil : st.hangman.setKeys.removeFirst()
            guard code != .noName else { return }
            // The row goes back to the saved value (never past the limit on
            // screen); the refusal below it names the value refused.
            if let key, !st.hangman.setKeys.contains(key) {
                st.hangman.update(key) { s in
                    s.refusal = Refusal(code: code, text: text)
                    s.refused = s.shown
                    s.shown = nil
                }
            }
            st.show(.serverError(code: code, text: text))
        case .new?:
            if code == .noPhrases {
                st.show(.hangman(.noPhrases))
                return
            }
            // A Hangman game refused: the server's text says which value and why.
            if code == .badValue, st.config.game == .hangman || st.hangmanScreen != nil {
                st.show(.hangman(.newRefused(text)))
                return
            }
        case .scores? where st.hangmanScreen != nil:
            st.hangman.scores = []
            st.hangman.incomingScores = []
            st.show(.serverError(code: code, text: text))
        default:
            return
        }
    }


    // MARK: Starting

    /// Once named: with `--game hangman`, play at once.
    static func hangmanNamed(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        // The main screen shows the name's saved Hangman mode: its settings,
        // asked at once rather than when the settings screen opens.
        if st.link == .online { st.send(.settings, &fx) }
        guard st.hangman.playAtOnce, st.game == nil else { return }
        st.hangman.playAtOnce = false
        startHangman(&st, &fx)
    }

    /// A new game against the computer with the saved settings (or the kind last started here).
    static func startHangman(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        var command = st.hangman.lastNew ?? Command.new(GameOptions(game: .hangman, clock: st.config.clock))
        // The saved length is for words: a phrase game against the computer
        // asks for any length rather than take it.
        if case .new(var options) = command, options.settings["mode"] == nil, options.settings["length"] == nil,
           st.hangman.setting(.mode).value == "phrase" {
            options.settings["length"] = HangmanWire.anyLength
            command = .new(options)
        }
        st.send(command, &fx)
    }

    /// The main screen's entries that Hangman takes when Hangman is chosen.
    static func hangmanMainChoice(_ st: inout ClientState, _ item: MainMenuItem, _ fx: inout [ClientEffect]) -> Bool {
        guard st.config.game == .hangman else { return false }
        switch item {
        case .quickMatch:
            st.send(.seek(GameOptions(game: .hangman, clock: st.config.clock)), &fx)
        case .computer:
            st.go(.hangman(.computer))
        case .rules:
            st.go(.hangman(.rules))
        case .newPrivate:
            st.send(.new(GameOptions(game: .hangman, settings: ["mode": "duel"], clock: st.config.clock)), &fx)
        case .scores:
            st.hangman.returnTo = .main
            st.hangman.scoresMode = st.hangman.setting(.mode).value ?? "evil"
            st.go(.hangman(.scores))
            loadHangmanScores(&st, &fx)
        default:
            return false
        }
        return true
    }

    static func openHangmanSettings(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        st.hangman.returnTo = st.screen
        st.gameMenuOpen = false
        st.confirmLeave = false
        st.hangman.answer = nil
        st.hangman.confirmNew = false
        st.go(.hangman(.settings))
        st.menuIndex = st.hangman.settingsRow
        if st.link == .online { st.send(.settings, &fx) }
    }

    // MARK: Keys

    static func hangmanKey(_ st: inout ClientState, _ sub: HangmanScreen, _ key: Key, _ fx: inout [ClientEffect]) {
        switch sub {
        case .play: hangmanPlayKey(&st, key, &fx)
        case .settings: hangmanSettingsKey(&st, key, &fx)
        case .computer: hangmanComputerKey(&st, key, &fx)
        case .scores: hangmanScoresKey(&st, key, &fx)
        case .rules:
            if key == .escape || key == .enter || key == .backspace || key == .char("q") || key == .char(" ") { st.goToMain() }
        }
    }


    static func hangmanPlayKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        // Tab flips to the settings whatever is open, during the game and after it.
        if key == .tab { return openHangmanSettings(&st, &fx) }
        if let answer = st.hangman.answer {
            return answerKey(&st, answer, key, &fx)
        }
        if st.hangman.confirmNew {
            // The same answers as Ghost's questions: Enter or y/j yes, Esc or n no.
            switch key {
            case .enter, .char("y"), .char("Y"), .char("j"), .char("J"):
                st.hangman.confirmNew = false
                if st.game != nil { st.send(.leave, &fx) }
                startHangman(&st, &fx)
            case .escape, .backspace, .char("n"), .char("N"):
                st.hangman.confirmNew = false
            default: break
            }
            return
        }
        guard st.game != nil else { return endedKey(&st, key, &fx) }
        if !st.gameMenuOpen && !st.confirmLeave {
            // The opponent's offer takes Enter and Backspace (Reducer+Offer.swift).
            if PlayFeature.answerOfferKey(&st, key, &fx) { return }
            switch key {
            case .enter:
                if st.mustSetWord { return sendWord(&st, &fx) }
                st.hangman.confirmNew = true
            default: break
            }
            if st.mustSetWord { return wordKey(&st, key, &fx) }
            if key == .char("=") {
                // Only the guesser answers: the setter's own word needs no answer field.
                if let setter = st.game?.players.first, st.isMe(setter) { return st.show(.lettersOnly) }
                st.hangman.answer = ""
                return
            }
            if let c = key.letter { st.hangman.guessSent = String(c) }
        }
        PlayFeature.gameKey(&st, key, &fx)
    }

    /// The whole answer being typed: letters, `'` and `-`; a space is a gap between words.
    static func answerKey(_ st: inout ClientState, _ answer: String, _ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .char(let c):
            guard answer.count < 64, let a = c.asciiValue else { return }
            if c == " " || c == "/" {
                if !answer.isEmpty, answer.last != "/" { st.hangman.answer = answer + "/" }
            } else if Key.char(c).letter != nil || a == 0x27 || a == 0x2D {
                st.hangman.answer = answer + c.lowercased()
            }
        case .backspace:
            st.hangman.answer = String(answer.dropLast())
        case .enter:
            var text = answer
            while text.last == "/" { text.removeLast() }
            guard !text.isEmpty else { return st.show(.hangman(.typeSomething)) }
            st.hangman.answer = nil
            st.hangman.guessSent = text
            st.send(.move(HangmanWire.Verb.solve, text), &fx)
        case .escape:
            st.hangman.answer = nil
        case .tab:
            st.hangman.answer = nil
            openHangmanSettings(&st, &fx)
        default:
            break
        }
    }

    /// The duel's word, typed by the setter: shown as `*`.
    static func wordKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .char(let c):
            guard st.hangman.wordField.count < 64, let a = c.asciiValue,
                  Key.char(c).letter != nil || a == 0x27 || a == 0x2D else {
                if case .char = key { st.show(.lettersOnly) }
                return
            }
            st.hangman.wordField.append(Character(c.lowercased()))
        case .backspace:
            if !st.hangman.wordField.isEmpty { st.hangman.wordField.removeLast() }
        default:
            PlayFeature.gameKey(&st, key, &fx)
        }
    }

    static func sendWord(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        guard !st.hangman.wordField.isEmpty else { return st.show(.hangman(.typeSomething)) }
        st.hangman.wordSent = st.hangman.wordField
        st.send(.move(HangmanWire.Verb.word, st.hangman.wordField), &fx)
    }

    /// After the end: Enter or r plays again (a rematch after a duel with a
    /// person), Tab flips, Esc or m goes home: r and m as on Ghost's
    /// game-over menu; other letters do nothing.
    static func endedKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .tab: openHangmanSettings(&st, &fx)
        case .char("m"), .char("M"): st.goToMain()
        case .char("h"), .char("H"):
            // The game just finished, replayed with its review, as on Ghost's game-over menu.
            guard let end = st.hangman.ended else { return }
            let opponent = end.players.first { !st.isMe($0) } ?? (st.isMe(end.winner) ? end.loser : end.winner)
            RecordFeature.openEndedReplay(&st, id: end.id, game: .hangman, variant: end.board.mode, opponent: opponent, won: st.isMe(end.winner),
                                          from: .hangman(.play), &fx)
        case .enter, .char("r"), .char("R"):
            if st.rematchEnds { st.send(.rematch, &fx) } else { startHangman(&st, &fx) }
        case .escape: st.goToMain()
        case .up: st.hangman.scoresOffset = max(0, st.hangman.scoresOffset - 1)
        case .down: st.hangman.scoresOffset = min(st.hangman.scoresOffset + 1, max(0, (st.hangman.scores?.count ?? 0) - 1))
        // The notice says what Enter does here, as the key help does.
        default: st.show(.hangman(st.rematchEnds ? .duelOver : .gameOver))
        }
    }


    static func hangmanSettingsKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let rows = HangmanSettingRow.allCases
        switch key {
        case .up: st.hangman.settingsRow = (st.hangman.settingsRow + rows.count - 1) % rows.count
        case .down: st.hangman.settingsRow = (st.hangman.settingsRow + 1) % rows.count
        case .left, .right:
            guard let row = HangmanSettingRow(rawValue: st.hangman.settingsRow) else { return }
            let value = st.hangman.setting(row).value
            guard let next = HangmanFeature.nextValue(row, value, up: key == .right), next != value,
                  st.send(.set(key: row.key, value: next), &fx) else { return }
            // Shown at once; the reply says whether it was saved.
            st.hangman.setKeys.append(row.key)
            st.hangman.update(row.key) { s in
                s.shown = next
                s.refusal = nil
                s.refused = nil
            }
        case .enter:
            let back = st.hangman.returnTo
            // Enter starts the game the settings show (their mode against the
            // computer), not the last kind played (a duel, the computer guessing).
            st.hangman.lastNew = .new(GameOptions(game: .hangman, clock: st.config.clock))
            if st.game != nil {
                st.go(.hangman(.play))
                st.hangman.confirmNew = true
            } else {
                st.go(back == .hangman(.settings) ? .main : back)
                startHangman(&st, &fx)
            }
        case .tab, .escape, .backspace, .char("q"):
            st.go(st.hangman.returnTo == .hangman(.settings) ? .main : st.hangman.returnTo)
        default:
            if let d = key.digit, (1...rows.count).contains(d) { st.hangman.settingsRow = d - 1 }
        }
        st.menuIndex = st.hangman.settingsRow
    }

    /// The value ←/→ leads to. The server judges it: a length past the
    /// language's longest word, or misses outside its range, come back refused.
    static func nextValue(_ row: HangmanSettingRow, _ value: String?, up: Bool) -> String? {
        switch row {
        case .length:
            guard let n = value.flatMap({ Int($0) }) else { return up ? "1" : "any" }
            return n <= 1 && !up ? "any" : String(n + (up ? 1 : -1))
        case .misses:
            let n = value.flatMap { Int($0) } ?? 8
            return String(max(0, n + (up ? 1 : -1)))
        case .mode:
            let modes = hangmanModes
            let i = modes.firstIndex(of: value ?? "evil") ?? 0
            return modes[(i + (up ? 1 : modes.count - 1)) % modes.count]
        }
    }

    static func hangmanComputerKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        if key == .escape || key == .backspace { return st.goToMain() }
        let items = HangmanComputerItem.allCases
        guard let i = MenuKeys.choice(&st, key, letters: items.map(\.letter)) else { return }
        switch items[i] {
        case .youGuess:
            st.hangman.lastNew = .new(GameOptions(game: .hangman, clock: st.config.clock))
            startHangman(&st, &fx)
        case .computerGuesses:
            st.hangman.lastNew = .new(GameOptions(game: .hangman, settings: ["mode": "duel", "bot": "guesser"], clock: st.config.clock))
            startHangman(&st, &fx)
        case .settings:
            openHangmanSettings(&st, &fx)
        case .back:
            st.goToMain()
        }
    }

    static func hangmanScoresKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let count = st.hangman.scores?.count ?? 0
        switch key {
        case .down: st.hangman.scoresOffset = min(st.hangman.scoresOffset + 1, max(0, count - 1))
        case .up: st.hangman.scoresOffset = max(0, st.hangman.scoresOffset - 1)
        case .left, .right:
            let lists = HangmanFeature.hangmanLists
            let i = lists.firstIndex(of: st.hangman.scoresMode) ?? 0
            st.hangman.scoresMode = lists[(i + (key == .right ? 1 : lists.count - 1)) % lists.count]
            loadHangmanScores(&st, &fx)
        case .escape, .enter, .backspace, .char("q"):
            st.go(st.hangman.returnTo == .hangman(.scores) ? .main : st.hangman.returnTo)
        default: break
        }
    }
}

extension ClientState {
    /// The Hangman screen shown, if any.
    var hangmanScreen: HangmanScreen? {
        if case .hangman(let h) = screen { return h }
        return nil
    }
    /// Whether I am the setter who still has to choose the word.
    var mustSetWord: Bool {
        guard let g = game, let b = g.hangman, b.pattern.isEmpty, let setter = g.players.first else { return false }
        return isMe(setter) && (g.toMove == nil || isMe(g.toMove))
    }
    /// The game that ended was a duel with a person: Enter and r ask for a rematch.
    var rematchEnds: Bool {
        guard let end = hangman.ended else { return false }
        return end.board.isDuel && !end.players.contains { $0.hasPrefix("bot-") }
    }
}
