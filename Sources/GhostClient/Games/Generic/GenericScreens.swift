import GhostProtocol
import GameKit

/// The generic game screen: a game of any kind, drawn from the
/// server's last `VIEW` answer. The players and whose turn it is as on
/// Ghost's screen; then the board's rows (label, then the value: `cells` as
/// boxed letters like the keyboard's `[P][E][A]`, `count` as `n/max`, `text`
/// as it is); then the moves offered as a list, with the word field of a
/// move that takes a word. One renderer for every kind this client has no
/// code for, for players and watchers alike.
public enum GenericScreens {
    public static func genericGame(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        guard let g = s.game, let b = g.generic else {
            return Screens.frame(s, width, height, t, title: "", body: ["", Screens.margin + t.resuming], help: t.generic.genericHelpWait)
        }
        let chips = GhostScreens.chipsAndStanding(s, g, width, t, style)
        var banner = ""
        let turn: String
        if g.watching, s.watch.ended, let r = s.watch.result {
            turn = style.bold(r.drawn ? t.generic.itsADraw : t.winnerIs(Screens.display(r.winner, t)))
            banner = r.info ?? GhostScreens.reasonText(r, t)
        } else if let mover = g.toMove, case let both = mover.split(separator: ",").map(String.init), both.count == 2 {
            // Both players may move, and this is a watcher.
            turn = t.generic.genericBothToMove(Screens.display(both[0], t), Screens.display(both[1], t))
        } else if let mover = g.toMove {
            let base = s.isMe(mover) ? style.good(t.generic.genericYourTurn)
                : g.away.map { $0.lowercased() == mover.lowercased() } == true ? t.awayToMove(Screens.display(mover, t)) : t.theirTurn(Screens.display(mover, t))
            turn = base + Screens.clockSuffix(s, mover, t, style, width: width, turn: base)
        } else {
            turn = ""
        }
        if let away = g.away {
            banner = g.claimable && !g.watching ? t.claimablePrompt(Screens.display(away, t), menuOpen: s.gameMenuOpen) : t.opponentAway(Screens.display(away, t), g.grace ?? 60)
        } else if let offer = g.offer, !g.watching {
            banner = s.isMe(offer.player) ? t.offerFromMe(Screens.display(Screens.opponent(of: s, in: g) ?? "?", t))
                : t.offerPrompt(Screens.display(offer.player, t), Screens.offerText(offer, t), s.offerKeys ?? .oneKey)
        }
        let board = b.rows.map { viewRows($0, s, width, t, style) } ?? [Screens.margin + style.dim(t.generic.genericLoading)]

        var help: String
        var lower: [String]
        if g.watching {
            help = WatchScreens.watchHelp(s, g.players, t)
            lower = []
        } else if s.confirmLeave {
            help = t.generic.genericHelpWait
            lower = Screens.paragraph(g.personMoved ? t.confirmLeave : t.confirmCallOff, width).map { style.warn($0) }
        } else if let code = s.confirmLanguage, s.gameMenuOpen {
            help = t.generic.genericHelpWait
            lower = Screens.paragraph(t.confirmLanguage(t.nameOfLanguage(code)), width).map { style.warn($0) }
        } else if s.gameMenuOpen {
            help = t.gameMenuHelp
            lower = [Screens.margin + style.bold(t.menuTitle)] + Screens.gameMenu(s, g, t, style)
        } else if b.moves.isEmpty {
            help = t.generic.genericHelpWait
            lower = []
        } else {
            help = b.typesText ? t.generic.genericHelpWord : b.letterMove != nil ? t.generic.genericHelpLetter : t.generic.genericHelpMoves
            lower = viewMoves(b, s, width, t, style)
        }

        // The blank rows go first when the window is short.
        let rows = height - 2 - Screens.bottomLines(s, width, t, banner: banner, help: help).count
        var turnRows = turn.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        // The last move, as MOVE's first field says it (“bob played GOAT”).
        if let last = g.lastMove, !(g.watching && s.watch.ended) {
            let text = s.isMe(last.player) ? t.secondPerson.youPlayed(last.letter.uppercased()) : t.played(Screens.display(last.player, t), last.letter.uppercased())
            turnRows += Layout.wrap(text, width: width - 4).map { style.dim($0) }
        }
        var spacers = [true, true, !turnRows.isEmpty, !lower.isEmpty]  // after the title, the chips, the turn, the board
        func total() -> Int { spacers.filter { $0 }.count + chips.count + turnRows.count + board.count + lower.count }
        for i in [3, 2, 1, 0] where total() > rows { spacers[i] = false }
        var body: [String] = spacers[0] ? [""] : []
        body += chips
        if spacers[1] { body.append("") }
        body += turnRows.map { Layout.center($0, in: width) }
        if spacers[2] { body.append("") }
        body += board
        if spacers[3] { body.append("") }
        body += lower
        let title = WatchScreens.watchTitle(g, s.kindName(b.kind, t) + " · " + t.nameOfLanguage(g.lang), t)
        return Screens.frame(s, width, height, t, title: title, right: WatchScreens.audienceRight(s, g, t), body: body, banner: banner, help: help)
    }

    /// The board's rows: each label in a column, its value beside it (wrapped under itself when long).
    static func viewRows(_ rows: [ViewRowLine], _ s: ClientState, _ width: Int, _ t: Strings, _ style: Style) -> [String] {
        // A player's row is labelled with the player's name.
        let labels = rows.map { row in row.seat.map { Screens.label($0, t) + (s.isMe($0) ? " (\(t.you))" : "") } ?? row.label }
        let column = min(max(0, labels.map(Layout.visibleWidth).max() ?? 0), max(8, width / 3))
        let room = max(8, width - Screens.margin.count * 2 - column - 2)
        var out: [String] = []
        for (row, name) in zip(rows, labels) {
            let value = rowValue(row, room: room, style)
            let names = Layout.wrap(name, width: column)
            let values = Layout.wrap(value, width: room)
            for i in 0..<max(names.count, values.count, 1) {
                let l = names.indices.contains(i) ? style.dim(names[i]) : ""
                let v = values.indices.contains(i) ? values[i] : ""
                out.append(Screens.margin + Layout.pad(l, to: column) + "  " + v)
            }
        }
        return out
    }

    /// A row's value as its shape says: boxed letters (spaced capitals when
    /// the boxes do not fit), `n/max`, or the text as it is.
    static func rowValue(_ row: ViewRowLine, room: Int, _ style: Style) -> String {
        switch row.shape {
        case .cells:
            let boxes = row.value.map { c -> String in
                switch c {
                case "/": " "
                case "_": "[ ]"
                default: "[" + c.uppercased() + "]"
                }
            }.joined()
            if Layout.visibleWidth(boxes) <= room { return boxes }
            return BlockFont.spaced(String(row.value.uppercased().map { $0 == "/" ? " " : $0 }))
        case .count:
            return row.max.map { "\(row.value)/\($0)" } ?? row.value
        default:
            return row.value
        }
    }

    /// The moves offered: "▶ CHAIN <word> · what it does" for the one chosen
    /// (↑/↓), then the field of the word typed when a move takes one.
    static func viewMoves(_ b: GenericBoard, _ s: ClientState, _ width: Int, _ t: Strings, _ style: Style) -> [String] {
        var out = [Screens.margin + style.bold(t.generic.genericMovesTitle)]
        let room = max(10, width - Screens.margin.count * 2 - 2)
        for (i, move) in b.moves.enumerated() {
            let takes = move.takes == .word ? " " + t.generic.genericTakesWord : move.takes == .letter ? " " + t.generic.genericTakesLetter : ""
            let text = move.verb + takes + (move.then.map { " " + $0 } ?? "") + (move.help.isEmpty ? "" : " · " + move.help)
            for (r, line) in Layout.wrap(text, width: room).enumerated() {
                if r == 0, i == b.cursor {
                    out.append(Screens.margin + Screens.marker + " " + style.highlight(line))
                } else {
                    out.append(Screens.margin + "  " + (r == 0 ? "" : "  ") + line)
                }
            }
        }
        if b.typesText {
            out += ["", Screens.margin + style.bold(t.generic.genericWordLabel) + b.field.uppercased() + "_"]
        }
        return out
    }
}

extension GenericScreens {
    /// The main screen's games with an announced kind chosen: every game by
    /// name, the chosen one marked ●, then what it is (its HELP summary), wrapped.
    /// `aboutRows`: at most that many rows of what the kind is, shortened with "…" (a short window).
    static func genericPanel(_ s: ClientState, _ kind: GameKind, _ width: Int, _ t: Strings, aboutRows: Int = .max) -> [String] {
        let style = Style(colour: s.colour)
        let room = max(20, width - Screens.margin.count * 2)
        let rows = names(s.offeredKinds.map { k in
            let name = s.kindName(k, t)
            return k == kind ? style.highlight("● " + name) : style.bold("○ " + name)
        }, width: room)
        let about = s.announced(kind)?.about ?? ""
        var text = about.isEmpty ? [] : Layout.wrap(about, width: room - 2).map { "  " + $0 }
        if text.count > aboutRows, aboutRows > 0 {
            text = Array(text.prefix(aboutRows))
            text[aboutRows - 1] = Layout.abbreviate(text[aboutRows - 1] + " …", to: room)
        }
        return (rows + text).map { Screens.margin + $0 }
    }
}

extension GenericScreens {
    /// The replay of a game of a kind this client has no code for: no
    /// position to draw, so its moves one a line ("3. bob: word:eel"), the
    /// one the replay stands on marked, then what REVIEW said (`no-review`
    /// for a kind without one).
    static func genericReplay(_ s: ClientState, _ r: Replay, _ moves: [ReplayMove], step: Int, title: String, right: String,
                              _ width: Int, _ height: Int, _ t: Strings, help: String) -> [String] {
        let style = Style(colour: s.colour)
        var body: [String] = [""] + Screens.paragraph(style.bold(t.record.replayStep(step, of: moves.count, round: nil)), width)
        if r.more { body.append(Screens.margin + style.dim(t.record.replayEarlier)) }
        body.append("")
        var review: [String] = []
        switch r.review {
        case .refused(let code): review = [""] + Screens.paragraph(style.dim(t.record.reviewRefused(code)), width)
        case .asking: review = [""] + Screens.paragraph(style.dim(t.record.reviewAsking), width)
        case .notReady: review = [""] + Screens.paragraph(t.record.reviewNotReady(waiting: r.reviewRetryAt != nil), width)
        case .none, .done: break
        }
        let lines = moves.enumerated().map { i, m -> String in
            let text = t.generic.replayMoveLine(m.n, Screens.label(m.player, t), t.record.playText(m.play))
            return i + 1 == step ? Screens.marker + " " + style.highlight(text) : "  " + text
        }.flatMap { Layout.wrap($0, width: width - Screens.margin.count * 2).enumerated().map { $0.offset == 0 ? Screens.margin + $0.element : Screens.margin + "    " + $0.element } }
        let room = max(1, height - 2 - Screens.bottomLines(s, width, t, banner: "", help: help).count - body.count - review.count)
        body += RecordScreens.window(lines, focus: max(0, step - 1), room: room)
        body += review
        return Screens.frame(s, width, height, t, title: title, right: right, body: body, help: help)
    }
}

extension GenericScreens {
    /// The kinds the server announced, by name, on a row of their own under
    /// the built-in games (the main screen adds it when it has room; ←/→ reach them).
    static func announcedRow(_ s: ClientState, _ width: Int, _ t: Strings) -> [String] {
        guard !s.serverKinds.isEmpty else { return [] }
        let style = Style(colour: s.colour)
        return names(s.serverKinds.map { style.bold("○ " + $0.name) }, width: max(20, width - Screens.margin.count * 2)).map { Screens.margin + $0 }
    }

    /// Games' names in rows, three spaces apart, a row holding as many whole names as fit.
    static func names(_ parts: [String], width: Int) -> [String] {
        var rows: [String] = []
        for part in parts {
            if let last = rows.last, Layout.visibleWidth(last) + 3 + Layout.visibleWidth(part) <= width {
                rows[rows.count - 1] = last + "   " + part
            } else {
                rows += Layout.wrap(part, width: width)
            }
        }
        return rows
    }
}
