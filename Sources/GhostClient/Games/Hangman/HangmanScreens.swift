import GhostProtocol
import HangmanWire

/// Hangman's screens: the front side (the gallows, the word, the keyboard;
/// after the end the result and the best-games list), the flipside (the
/// settings), the computer's menu and the lists. Pure functions of the state,
/// like every screen: exactly `height` lines, none wider than `width`.
public enum HangmanScreens {
    static func hangman(_ sub: HangmanScreen) -> Screens.Function {
        switch sub {
        case .play: hangmanPlay
        case .settings: hangmanSettings
        case .computer: hangmanComputer
        case .scores: hangmanScores
        case .rules: hangmanRules
        }
    }

    // MARK: Pieces

    /// The columns between the gallows and the text beside it.
    static let gallowsGap = "   "

    /// The word as placeholders on one or more lines: `_ _ E _`, a gap of
    /// three spaces between the words of a phrase, apostrophes and hyphens
    /// as they are. Lines break only between words.
    public static func hangmanPattern(_ pattern: String, width: Int) -> [String] {
        // A word wider than a line is cut into pieces that fit (two columns a letter).
        let perLine = max(1, (width + 1) / 2)
        let words = pattern.split(separator: "/", omittingEmptySubsequences: false).flatMap { word -> [String] in
            let cells = word.map { c -> String in c == "_" ? "_" : c.uppercased() }
            return stride(from: 0, to: max(1, cells.count), by: perLine).map { start in
                cells[start..<min(cells.count, start + perLine)].joined(separator: " ")
            }
        }
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = word
            } else if Layout.visibleWidth(line) + 3 + Layout.visibleWidth(word) <= width {
                line += "   " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The word in large letters (five rows): a placeholder is a low bar,
    /// found letters are the block font's; nil if it does not fit in `maxWidth`.
    public static func hangmanBigPattern(_ pattern: String, maxWidth: Int) -> [String]? {
        guard !pattern.isEmpty else { return nil }
        var rows = [String](repeating: "", count: BlockFont.height)
        for (i, c) in pattern.enumerated() {
            let glyph: [String]
            switch c {
            case "_": glyph = ["     ", "     ", "     ", "     ", "▄▄▄▄▄"]
            case "/": glyph = ["  ", "  ", "  ", "  ", "  "]
            case "'": glyph = ["█", "█", " ", " ", " "]
            case "-": glyph = ["   ", "   ", "███", "   ", "   "]
            default:
                guard let g = BlockFont.glyphs[Character(c.uppercased())] else { return nil }
                glyph = g.map { String($0.map { $0 == "#" ? BlockFont.ink : " " }) }
            }
            for r in 0..<BlockFont.height {
                if i > 0 { rows[r] += String(repeating: " ", count: BlockFont.gap) }
                rows[r] += glyph[r]
            }
        }
        return rows.allSatisfy({ Layout.visibleWidth($0) <= maxWidth }) ? rows : nil
    }

    /// The keyboard: `[A]` not tried yet, ` A✓` a hit, ` A✗` a miss; colour
    /// adds green and red, and the marks stay without it (NO_COLOR).
    public static func hangmanKeyboard(found: Set<Character>, missed: Set<Character>, width: Int, style: Style) -> [String] {
        Screens.keyboardRows.enumerated().map { row, keys in
            let cells = keys.map { k -> String in
                let lower = Character(k.lowercased())
                if found.contains(lower) { return style.good(" \(k)✓") }
                if missed.contains(lower) { return style.bad(" \(k)✗") }
                return "[\(k)]"
            }
            let line = String(repeating: " ", count: row * 2) + cells.joined(separator: " ")
            let left = max(0, (width - (10 * 4 - 1)) / 2)
            return String(repeating: " ", count: left) + line
        }
    }

    /// A player's name in a sentence: Hangman's computer (`bot-hangman`) as "the computer".
    static func hangmanDisplay(_ name: String, _ t: Strings) -> String {
        name == HangmanWire.computerName ? t.hangman.computer : Screens.display(name, t)
    }

    /// A player's name as a label (a list's row): Hangman's computer as "Computer".
    static func hangmanLabel(_ name: String, _ t: Strings) -> String {
        name == HangmanWire.computerName ? t.hangman.computerLabel : Screens.label(name, t)
    }

    /// An answer as shown: capitals, a space between the words of a phrase.
    static func hangmanAnswer(_ word: String) -> String {
        String(word.map { $0 == "/" ? " " : $0 }).uppercased()
    }

    /// The gallows with the given lines beside it.
    static func gallowsBlock(mistakes: Int, misses: Int, beside: [String], width: Int) -> [String] {
        let drawing = Gallows.draw(mistakes: mistakes, misses: misses)
        let room = max(0, width - Screens.margin.count - Gallows.columns - gallowsGap.count)
        // A line too long for the room wraps onto the next row (never cut).
        let beside = beside.flatMap { line -> [String] in
            Layout.visibleWidth(line) <= room ? [line] : Layout.wrap(line, width: room)
        }
        // Lines the gallows has no row for (a wrapped long name) follow below it, under the text column.
        let indent = Screens.margin + String(repeating: " ", count: Gallows.columns) + gallowsGap
        let below = beside.dropFirst(drawing.count).filter { !Layout.plain($0).allSatisfy { $0 == " " } }.map { indent + $0 }
        return drawing.indices.map { i in
            let text = beside.indices.contains(i) ? Layout.truncate(beside[i], to: room) : ""
            return Screens.margin + drawing[i] + (text.isEmpty ? "" : gallowsGap + text)
        } + below
    }

    // MARK: The front side

    public static func hangmanPlay(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let h = t.hangman
        if let g = s.game, let b = g.hangman { return hangmanLive(s, g, b, width, height, t) }
        if let end = s.hangman.ended { return hangmanEnded(s, end, width, height, t) }
        return Screens.frame(s, width, height, t, title: h.gameName, right: s.myName ?? "", body: ["", Screens.margin + t.resuming],
                     help: h.endedHelp)
    }

    static func hangmanLive(_ s: ClientState, _ g: GameInfo, _ b: HangmanBoard, _ width: Int, _ height: Int,
                            _ t: Strings) -> [String] {
        let h = t.hangman
        let style = Style(colour: s.colour)
        let setter = g.players.first ?? "?"
        let guesser = g.players.count > 1 ? g.players[1] : "?"
        var beside: [String] = []
        // A rated duel says so in its title (GAME's ratings=): "Duel · rated".
        let mode = h.modeName(b.mode) + (g.ratings != nil ? " · " + t.record.ratedMark : "")
        if s.gameMenuOpen && !s.confirmLeave && s.confirmLanguage == nil {
            // The menu in place of the gallows and the word, at full width: every entry drawn.
            let body = ["", Screens.margin + style.bold(t.menuTitle)] + Screens.gameMenu(s, g, t, style, width: width)
            return Screens.frame(s, width, height, t, title: WatchScreens.watchTitle(g, h.title(mode, t.nameOfLanguage(g.lang)), t),
                         right: WatchScreens.audienceRight(s, g, t), body: body, help: h.menuHelp)
        } else {
            if s.mustSetWord {
                beside.append(style.bold(h.chooseWord(hangmanDisplay(guesser, t))))
            } else if b.pattern.isEmpty {
                beside.append(h.waitingForWord(hangmanDisplay(setter, t)))
            } else if s.isMe(g.toMove) {
                beside.append(style.good(h.yourGuess))
            } else if let mover = g.toMove, g.away?.lowercased() == mover.lowercased() {
                // Away, not guessing.
                beside.append(t.awayToMove(hangmanDisplay(mover, t)))
            } else if let mover = g.toMove {
                beside.append(h.theyGuess(hangmanDisplay(mover, t)))
            } else {
                beside.append("")
            }
            // A game on a clock: the countdown of the move in play (the setter's WORD too).
            if let mover = g.toMove, s.clockLeft != nil || s.deadlineLeft != nil {
                beside[beside.count - 1] += Screens.clockSuffix(s, mover, t, style)
            }
            beside.append("")
            beside.append(style.bold(h.missesLeft(b.left, b.misses)))
            beside.append(h.wrong(b.wrongShown))
            beside.append("")
            if s.mustSetWord {
                beside.append(Screens.marker + " " + style.highlight(h.wordLabel + String(repeating: "*", count: s.hangman.wordField.count) + "_"))
            } else if let answer = s.hangman.answer {
                beside.append(Screens.marker + " " + style.highlight(h.answerLabel + hangmanAnswer(answer) + "_"))
            } else if let last = b.lastGuess, let mover = g.lastMove?.player {
                beside.append(s.isMe(mover) ? t.secondPerson.youGuessed(hangmanAnswer(last.guess), hit: last.hit)
                              : h.guessed(hangmanDisplay(mover, t), hangmanAnswer(last.guess), last.hit))
            } else {
                beside.append("")
            }
            if let word = b.word, s.isMe(setter) {
                beside.append(h.yourWord(hangmanAnswer(word)))
            } else {
                // An open duel's length is not known before the word is set.
                let about = [h.modeName(b.mode)] + (b.length > 0 ? [h.lettersToFind(b.length)] : [])
                beside.append(style.dim(about.joined(separator: " · ")))
            }
            // The running score against this opponent (a person, or the
            // computer in this mode), once the server sends one (record=).
            if let them = Screens.opponent(of: s, in: g), let record = g.record {
                beside.append(style.dim(t.runningScore(record.mine, record.theirs, hangmanDisplay(them, t))))
            }
        }
        var banner = ""
        if s.confirmLeave {
            banner = g.personMoved ? t.confirmLeave : t.confirmCallOff
        } else if let code = s.confirmLanguage, s.gameMenuOpen {
            banner = t.confirmLanguage(t.nameOfLanguage(code))
        } else if s.hangman.confirmNew {
            banner = g.personMoved ? h.confirmNew : h.confirmNewCallOff
        } else if let away = g.away {
            banner = g.claimable && !g.watching ? t.claimablePrompt(hangmanDisplay(away, t), menuOpen: s.gameMenuOpen) : t.opponentAway(hangmanDisplay(away, t), g.grace ?? 60)
        } else if let offer = g.offer, !g.watching {
            banner = s.isMe(offer.player) ? t.offerFromMe(hangmanDisplay(Screens.opponent(of: s, in: g) ?? "?", t))
                : t.offerPrompt(hangmanDisplay(offer.player, t), Screens.offerText(offer, t), s.offerKeys ?? .oneKey)
        }
        let help: String
        if g.watching { help = WatchScreens.watchHelp(s, g.players, t) }
        else if s.gameMenuOpen { help = h.menuHelp }
        else if s.hangman.answer != nil { help = h.answerHelp }
        else if s.mustSetWord { help = h.wordHelp }
        else if s.isMe(setter) { help = h.setterHelp }
        else { help = h.playHelp }
        var body = [""] + gallowsBlock(mistakes: b.mistakes, misses: b.misses, beside: beside, width: width)
        // The word between the gallows and the keyboard: large letters when
        // there is room for them, else spaced capitals on as many lines as fit.
        // (The rows under the title bar, less the bottom lines, the body so far and the keyboard.)
        let bottom = Screens.bottomLines(s, width, t, banner: banner, help: help).count
        if height - 2 - bottom - body.count - 3 < 1 { body.removeFirst() }
        let room = max(1, height - 2 - bottom - body.count - 3)
        var word: [String]
        if room >= BlockFont.height + 2, let big = hangmanBigPattern(b.pattern, maxWidth: width - 4) {
            word = big.map { style.accent(Layout.center($0, in: width)) }
        } else {
            word = Layout.keep(hangmanPattern(b.pattern, width: width - 4), room).map { style.bold(Layout.center($0, in: width)) }
        }
        let spare = room - word.count
        if spare >= 1 { body.append("") }
        body += word
        if spare >= 2 { body.append("") }
        body += hangmanKeyboard(found: b.found, missed: Set(b.missed), width: width, style: style)

        return Screens.frame(s, width, height, t, title: WatchScreens.watchTitle(g, h.title(mode, t.nameOfLanguage(g.lang)), t),
                     right: WatchScreens.audienceRight(s, g, t), body: body, banner: banner, help: help)
    }

    /// How a Hangman game ended, from my seat: the guesser's, the setter's, or neither.
    public static func hangmanEndText(_ s: ClientState, _ end: HangmanEnd, _ t: Strings) -> String {
        let h = t.hangman
        let setter = end.players.first ?? end.winner
        let guesser = end.players.count > 1 ? end.players[1] : end.loser
        let word = hangmanAnswer(end.word)
        let (winner, loser) = (hangmanDisplay(end.winner, t), hangmanDisplay(end.loser, t))
        switch end.reason {
        case .left:
            return s.isMe(end.loser) ? h.youLeft(word) : h.leftGame(loser)
        case .abandoned:
            return h.abandoned(loser, winner)
        case .time:
            return s.isMe(end.loser) && s.isMe(guesser) ? t.clock.youRanOutOfTime(word) : t.clock.reasonTime(loser)
        case HangmanLines.solved:
            if s.isMe(guesser) { return h.youSolved(end.mistakes) }
            if s.isMe(setter) { return h.theySolved(hangmanDisplay(guesser, t), end.mistakes) }
            return h.solvedBy(hangmanDisplay(guesser, t), end.mistakes)
        case HangmanLines.hanged:
            if s.isMe(guesser) { return end.board.mode == "evil" ? h.youHangedEvil(word) : h.youHanged(word) }
            if s.isMe(setter) { return h.theyHanged(hangmanDisplay(guesser, t)) }
            return h.hangedIs(hangmanDisplay(guesser, t))
        default:
            return h.otherEnd(loser, end.reason.rawValue)
        }
    }

    static func hangmanEnded(_ s: ClientState, _ end: HangmanEnd, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let h = t.hangman
        let style = Style(colour: s.colour)
        let room = max(10, width - Screens.margin.count - Gallows.columns - gallowsGap.count)
        let sentence = hangmanEndText(s, end, t)
        let won = s.isMe(end.winner)
        var beside = Layout.keep(Layout.wrap(sentence, width: room), 3).map { won ? style.good($0) : style.bold($0) }
        beside.append("")
        // The answer, unless the sentence above already names it.
        if !end.word.isEmpty, !sentence.contains("“" + hangmanAnswer(end.word) + "”") {
            beside.append(style.bold(h.theWord(hangmanAnswer(end.word))))
        }
        beside.append(h.wrong(end.board.wrongShown))
        if let rank = end.rank { beside.append(style.good(h.madeList(rank))) }
        // A rated duel: the ratings after it and their changes (Record/).
        if let rating = RecordScreens.endRatingLine(s, id: end.id, t) { beside += Layout.wrap(rating, width: room) }
        // The figure as it ended: complete when hanged.
        let mistakes = end.reason == HangmanLines.hanged ? end.board.misses : end.mistakes
        var body = [""] + gallowsBlock(mistakes: mistakes, misses: end.board.misses, beside: beside, width: width)
        body.append("")
        if s.watchingAGame {
            // A watched game's end: no list (it is not this client's game), and the way back to the list of games.
            return Screens.frame(s, width, height, t, title: t.watch.watchingTitle + " · " + h.title(h.modeName(end.board.mode), t.overTitle),
                         body: body, help: WatchScreens.watchHelp(s, end.players, t))
        }
        let highlight = end.rankBoard == nil || end.rankBoard == HangmanWire.kind + "-" + s.hangman.scoresMode ? end.rank : nil
        var banner = ""
        if let by = end.rematchOfferedBy {
            banner = h.rematchOffered(hangmanDisplay(by, t))
        } else if end.rematchAsked {
            banner = h.rematchWaiting(hangmanDisplay(end.players.first { !s.isMe($0) } ?? "?", t))
        }
        let duel = end.board.isDuel && !end.players.contains { $0.hasPrefix("bot-") }
        let help = duel ? h.duelEndedHelp : h.endedHelp
        // The list gets the rows the bottom lines (as many as they take) leave.
        let bottom = Screens.bottomLines(s, width, t, banner: banner, help: help).count
        body += hangmanList(s, rows: max(0, height - 2 - bottom - body.count), highlight: highlight, mineMarked: false, width: width, t)
        return Screens.frame(s, width, height, t, title: h.title(h.modeName(end.board.mode), t.overTitle), right: s.myName ?? "",
                     body: body, banner: banner, help: help)
    }

    /// A best-games list in `rows` lines: its title, a header and the games;
    /// the window keeps the highlighted game in sight.
    static func hangmanList(_ s: ClientState, rows: Int, highlight: Int?, mineMarked: Bool, width: Int, _ t: Strings) -> [String] {
        let h = t.hangman
        let style = Style(colour: s.colour)
        guard rows >= 2 else { return [] }
        var out = [Screens.margin + style.bold(h.scoresTitle(h.modeName(s.hangman.scoresMode)))]
        guard let list = s.hangman.scores else { return out + [Screens.margin + style.dim(h.scoresLoading)] }
        guard !list.isEmpty else { return out + [Screens.margin + style.dim(h.scoresEmpty)] }
        // Columns as wide as their widest cell, header included; the word gives up room to fit;
        // the language of each game (the server's `lang=`), as the lists mix them.
        let hd = h.scoresHeader
        // A list of phrases heads its column "Phrase", not "Word".
        let columns = Table(header: [hd.rank, hd.name, s.hangman.scoresMode == "phrase" ? t.phraseColumn : hd.word, hd.mistakes, hd.lang],
                            align: [.right, .left, .left, .right, .left],
                            most: [nil, 16, 24, nil, nil], least: [4, 8, 8, 7, 0], flex: 2)
        let cells = list.map { r in
            [ "\(r.rank)", hangmanLabel(r.name, t), hangmanAnswer(r.word),
              r.misses.map { "\(r.mistakes)/\($0)" } ?? "\(r.mistakes)", r.lang.map { $0.uppercased() } ?? "" ]
        }
        let (table, widths) = columns.fitted(cells, width: width - 2 * Screens.margin.count - 2)
        out.append(Screens.margin + "  " + style.bold(table.line(table.header, widths)))
        let room = max(1, rows - out.count)
        var start = min(max(0, s.hangman.scoresOffset), max(0, list.count - room))
        if let hl = highlight, let i = list.firstIndex(where: { $0.rank == hl }), i >= start + room || i < start {
            start = max(0, min(i - room / 2, list.count - room))
        }
        for (r, c) in zip(list, cells).dropFirst(start).prefix(room) {
            let line = table.line(c, widths)
            let lit = highlight.map { $0 == r.rank } ?? (mineMarked && s.isMe(r.name))
            out.append(Screens.margin + (lit ? Screens.marker + " " + style.highlight(line) : "  " + line))
        }
        return out
    }

    // MARK: The flipside

    public static func hangmanSettings(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let h = t.hangman
        let style = Style(colour: s.colour)
        var body = ["", Screens.margin + style.bold(h.settingsTitle), ""]
        let labels = [h.rowLength, h.rowMisses, h.rowMode]
        let labelWidth = max(12, labels.map(Layout.visibleWidth).max() ?? 0) + 2
        for row in HangmanSettingRow.allCases {
            let setting = s.hangman.setting(row)
            func shown(_ v: String) -> String {
                switch row {
                case .length: v == "any" ? h.any : v
                case .misses: v
                case .mode: h.modeName(v)
                }
            }
            let value = setting.value.map(shown) ?? h.notLoaded
            let label = Layout.pad(labels.indices.contains(row.rawValue) ? labels[row.rawValue] : "", to: labelWidth)
            // The length is not sent with phrases: say so beside it.
            let unused = row == .length && s.hangman.setting(.mode).value == "phrase" ? "  " + h.lengthNotForPhrases : ""
            let text = label + "◀ " + value + " ▶" + unused
            body.append(Screens.margin + (row.rawValue == s.hangman.settingsRow ? Screens.marker + " " + style.highlight(text) : "  " + text))
            // The mode's description under its row, wrapped (never cut).
            if row == .mode, let v = setting.value, !h.modeDescription(v).isEmpty {
                let indent = Screens.margin + "  " + String(repeating: " ", count: labelWidth)
                body += Layout.wrap(h.modeDescription(v), width: max(10, width - indent.count - 1)).map { indent + style.dim($0) }
            }
            if let refusal = setting.refusal {
                // In the screen's language, from the code and the value refused: never the server's text.
                let reason = refusal.code == .badValue ? h.notAllowed((setting.refused ?? setting.value).map(shown) ?? "?")
                    : t.errorText(refusal.code) ?? t.refused(refusal.code.rawValue)
                body += Layout.keep(Layout.wrap(h.refused(reason), width: max(10, width - 8)), 2).map { Screens.margin + "    " + style.bad($0) }
            }
        }
        body.append("")
        body += Screens.paragraph(h.appliesNext, width).map { style.dim($0) }
        return Screens.frame(s, width, height, t, title: h.gameName + " · " + h.settingsEntry, right: s.myName ?? "", body: body,
                     help: h.settingsHelp)
    }

    // MARK: Against the computer, and the lists

    public static func hangmanComputer(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let h = t.hangman
        let style = Style(colour: s.colour)
        let mode = s.hangman.setting(.mode).value ?? "evil"
        // Phrases take no length.
        let length = mode == "phrase" ? "any" : s.hangman.setting(.length).value ?? "any"
        let summary = h.summary(h.modeName(mode), length == "any" ? h.any : length, s.hangman.setting(.misses).value ?? "8")
        let entries = HangmanComputerItem.allCases.map { item -> String in
            switch item {
            case .youGuess: h.youGuess(summary)
            case .computerGuesses: h.computerGuesses
            case .settings: h.settingsEntry
            case .back: t.menuBack
            }
        }
        let body = ["", Screens.margin + style.bold(h.computerTitle), ""] + Screens.menu(entries, selected: s.menuIndex, style,
                                                                            keys: HangmanComputerItem.allCases.map(\.letter), width: width)
        return Screens.frame(s, width, height, t, title: h.gameName, right: s.myName ?? "", body: body, help: t.computerHelp)
    }

    public static func hangmanRules(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let h = t.hangman
        let style = Style(colour: s.colour)
        var body = ["", Screens.margin + style.bold(h.rulesTitle)]
        for p in h.rules {
            if !p.hasPrefix("• ") { body.append("") }
            body += Screens.paragraph(p, width)
        }
        return Screens.frame(s, width, height, t, title: h.gameName, right: s.myName ?? "", body: body, help: h.rulesHelp)
    }

    public static func hangmanScores(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let h = t.hangman
        let bottom = Screens.bottomLines(s, width, t, banner: "", help: h.scoresHelp).count
        let body = [""] + hangmanList(s, rows: height - 3 - bottom, highlight: nil, mineMarked: true, width: width, t)
        return Screens.frame(s, width, height, t, title: h.gameName + " · " + t.scoresTitle, right: s.myName ?? "", body: body,
                     help: h.scoresHelp)
    }
}
