import GhostProtocol

/// Ghost's screens: the game (the players and their G-H-O-S-T letters, whose
/// turn, the fragment in large letters, the keyboard that flashes the letter
/// just played), the game over, and the computer's levels. Pure functions of
/// the state, like every screen. The core draws no Ghost board: it dispatches
/// `.game`, `.over` and `.computer` here, as it dispatches Hangman's screens
/// to Games/Hangman.
public enum GhostScreens {
    /// The on-screen keyboard, QWERTY rows, each key as `[Q]`; the key just
    /// played flashes: reverse colours, or `*Q*` without colour.
    public static func keyboard(flash: Character?, width: Int, style: Style) -> [String] {
        let lit = flash.map { Character($0.uppercased()) }
        return Screens.keyboardRows.enumerated().map { row, keys in
            let cells = keys.map { k -> String in
                if k == lit { return style.colour ? style.flash("[\(k)]") : "*\(k)*" }
                return "[\(k)]"
            }
            let line = String(repeating: " ", count: row * 2) + cells.joined(separator: " ")
            // Centre the whole keyboard block (as wide as its first row).
            let blockWidth = 10 * 4 - 1
            let left = max(0, (width - blockWidth) / 2)
            return String(repeating: " ", count: left) + line
        }
    }

    /// The fragment in large letters (5 rows), always `BlockFont.height` rows tall.
    public static func fragment(_ text: String, width: Int, style: Style, empty: String) -> [String] {
        if text.isEmpty {
            var rows = [String](repeating: "", count: BlockFont.height)
            rows[BlockFont.height / 2] = Layout.center(style.dim(empty), in: width)
            return rows
        }
        var rows = Screens.big(text, width, style)
        if rows.count < BlockFont.height {
            // The fallback is one row: put it in the middle.
            let pad = (BlockFont.height - rows.count) / 2
            rows = [String](repeating: "", count: pad) + rows
            while rows.count < BlockFont.height { rows.append("") }
        }
        return rows
    }

    /// "▶ alice (you)" for the player to move (in reverse video with colour),
    /// "  bob" for the other; both as wide as the longer label, so nothing
    /// moves when the turn changes. In a match, each player's letters of
    /// G-H-O-S-T on a second line, under their name.
    /// The players' chips, centred, then whether the server rates the game
    /// (GAME's ratings=) and the running score against this opponent (the
    /// server's record, when it sent one), dimmed: the head of the Ghost
    /// screen and of the generic one.
    static func chipsAndStanding(_ s: ClientState, _ g: GameInfo, _ width: Int, _ t: Strings, _ style: Style) -> [String] {
        var chips = playerChips(s, g, t, style).map { Layout.center($0, in: width) }
        var standing: [String] = g.ratings != nil ? [t.record.ratedGame] : []
        if let them = Screens.opponent(of: s, in: g), let record = g.record {
            standing.append(t.runningScore(record.mine, record.theirs, Screens.display(them, t)))
        }
        if !standing.isEmpty {
            chips += Layout.wrap(standing.joined(separator: " · "), width: width - 4).map { Layout.center(style.dim($0), in: width) }
        }
        return chips
    }

    static func playerChips(_ s: ClientState, _ game: GameInfo, _ t: Strings, _ style: Style) -> [String] {
        let names = game.players.count == 2 ? game.players : ["?", "?"]
        let labels = names.map { name -> String in
            var label = Screens.label(name, t)
            if s.isMe(name) { label += " (\(t.you))" }
            if game.away == name { label += " …" }
            return label
        }
        let w = max(9, labels.map(Layout.visibleWidth).max() ?? 0)
        let chips = zip(names, labels).map { name, label -> String in
            let padded = style.colour ? " " + Layout.pad(label, to: w) + " " : Layout.pad(label, to: w)
            return game.toMove == name ? Screens.marker + " " + style.highlight(padded) : "  " + padded
        }
        var lines = [chips[0] + "   vs   " + chips[1]]
        if let ghost = game.ghost, ghost.match {
            let cells = (0..<2).map { i -> String in
                let cw = Layout.visibleWidth(chips[i])
                let letters = ghostText(ghost.letters.indices.contains(i) ? ghost.letters[i] : "", style)
                let pad = max(0, (cw - Layout.visibleWidth(letters)) / 2)
                let cell = String(repeating: " ", count: pad) + letters
                return cell + String(repeating: " ", count: max(0, cw - Layout.visibleWidth(cell)))
            }
            lines.append(cells[0] + "        " + cells[1])
        }
        return lines
    }

    /// "G H · · ·": the letters of G-H-O-S-T a player holds, the rest as dots.
    public static func ghostText(_ letters: String, _ style: Style) -> String {
        let held = min(5, letters.count)
        let got = "GHOST".prefix(held).map(String.init).joined(separator: " ")
        let rest = Array(repeating: "·", count: 5 - held).joined(separator: " ")
        return [style.bad(got), style.dim(rest)].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// How a round of a match ended, and why: "bob completed “PEAR”, a word
    /// of more than 3 letters. bob earns the letter G." On the loser's own
    /// screen, in the second person ("You completed … You earn the letter G.").
    static func roundText(_ s: ClientState, _ end: RoundEnd, _ game: GameInfo, _ t: Strings) -> String {
        let why = reasonText(reason: end.reason, loser: end.loser, winner: end.winner, fragment: end.fragment, word: end.word,
                             superghost: game.ghost?.superghost == true, loserIsMe: s.isMe(end.loser),
                             winnerIsMe: s.isMe(end.winner), t)
        guard let seat = game.players.firstIndex(of: end.loser), end.ghost.indices.contains(seat),
              let letter = end.ghost[seat].last else { return why }
        return why + " " + (s.isMe(end.loser) ? t.secondPerson.youEarn(String(letter)) : t.earnsOnly(Screens.display(end.loser, t), String(letter)))
    }

    public static func game(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        // A kind this client has no code for: drawn from VIEW (Games/Generic).
        if s.game?.generic != nil { return GenericScreens.genericGame(s, width, height, t) }
        let style = Style(colour: s.colour)
        guard let g = s.game else {
            return Screens.frame(s, width, height, t, title: "", body: ["", Screens.margin + t.resuming], help: t.gameHelp)
        }
        let gs = g.ghost ?? GhostState()
        let chips = chipsAndStanding(s, g, width, t, style)
        let turn: String
        if g.watching, s.watch.ended, let r = s.watch.result {
            // A watched game's end: who won (the banner says why).
            let winner = Screens.display(r.winner, t)
            turn = style.bold(r.match ? t.winnerIsMatch(winner) : t.winnerIs(winner))
        } else if gs.roundEnd != nil {
            turn = style.bold(t.roundOver)
        } else if let mover = g.toMove, gs.challenged {
            // Bluff and challenge: the player to move must name a word.
            let frag = "“" + gs.fragment.uppercased() + "”"
            let base = s.isMe(mover) ? style.good(t.challenge.youAreChallenged(frag)) : t.challenge.theyAreChallenged(Screens.display(mover, t))
            turn = base + Screens.clockSuffix(s, mover, t, style, width: width, turn: base)
        } else if let mover = g.toMove {
            let base = s.isMe(mover) ? style.good(t.yourTurn)
                : g.away.map { $0.lowercased() == mover.lowercased() } == true ? t.awayToMove(Screens.display(mover, t)) : t.theirTurn(Screens.display(mover, t))
            turn = base + Screens.clockSuffix(s, mover, t, style, width: width, turn: base)
        } else {
            turn = ""
        }
        var caption: [String] = []
        if !gs.fragment.isEmpty {
            caption.append("“" + gs.fragment.uppercased() + "” · " + t.letterCount(gs.fragment.count))
        }
        if let last = g.lastMove, !gs.fragment.isEmpty {
            // Superghost: and where the letter went.
            caption.append((s.isMe(last.player) ? t.secondPerson.youPlayed(last.letter.uppercased()) : t.played(Screens.display(last.player, t), last.letter.uppercased()))
                           + (gs.superghost && gs.fragment.count > 1 ? t.superghost.playedWhere(front: gs.lastAtFront) : ""))
        }
        // Superghost: where my next letter goes, on a row of its own (never cut).
        var nextEnd: [String] = []
        if gs.superghost, gs.roundEnd == nil, let mover = g.toMove, s.isMe(mover) {
            nextEnd = Layout.wrap(t.superghost.nextLetterEnd(front: gs.frontNext), width: width - 4).map { Layout.center($0, in: width) }
        }
        var help = g.clock != nil ? t.clock.clockGameHelp(challenge: gs.challenge) : gs.challenge ? t.challenge.challengeGameHelp : t.gameHelp
        // Bluff and challenge: who challenged, and (above the keyboard) the answer as it is typed.
        var answer: String?
        if gs.challenge, gs.challenged, gs.roundEnd == nil, let mover = g.toMove {
            let by = gs.challenger ?? g.players.first { $0 != mover } ?? "?"
            caption = [caption.first ?? "", t.challenge.challengedBy(Screens.display(by, t))].filter { !$0.isEmpty }
            if s.isMe(mover) {
                answer = Layout.center(style.bold(t.challenge.yourWord((gs.fragment + gs.answer).uppercased())), in: width)
                help = t.challenge.answerHelp
            }
        }
        // A watcher's keys play nothing: the help says whom it watches and how to stop.
        if g.watching { help = WatchScreens.watchHelp(s, g.players, t) }
        var lower: [String]
        if s.confirmLeave {
            lower = Screens.paragraph(g.personMoved ? t.confirmLeave : t.confirmCallOff, width).map { style.warn($0) }
        } else if let code = s.confirmLanguage, s.gameMenuOpen {
            lower = Screens.paragraph(t.confirmLanguage(t.nameOfLanguage(code)), width).map { style.warn($0) }
        } else if s.gameMenuOpen {
            lower = [Screens.margin + style.bold(t.menuTitle)] + Screens.gameMenu(s, g, t, style)
            help = t.gameMenuHelp
        } else {
            lower = (answer.map { [$0] } ?? []) + keyboard(flash: g.flash, width: width, style: style)
        }

        var banner = ""
        if let away = g.away {
            // A watcher claims nothing and answers no offer: the banners that ask for a key are a player's.
            banner = g.claimable && !g.watching ? t.claimablePrompt(Screens.display(away, t), menuOpen: s.gameMenuOpen) : t.opponentAway(Screens.display(away, t), g.grace ?? 60)
        } else if let offer = g.offer, !g.watching {
            banner = s.isMe(offer.player) ? t.offerFromMe(Screens.display(Screens.opponent(of: s, in: g) ?? "?", t))
                : t.offerPrompt(Screens.display(offer.player, t), Screens.offerText(offer, t), s.offerKeys ?? .oneKey)
        } else if let end = gs.roundEnd {
            banner = roundText(s, end, g, t)
        } else if let end = gs.previousRound {
            banner = t.lastRound + t.secondPerson.afterColon(roundText(s, end, g, t))
        }
        // The blank rows go first when the window is short, then the large
        // letters (the caption still spells the fragment), then the last
        // round's banner (it says how a round before this one ended; the
        // menu's entries matter more): the menu always fits. A real match
        // needed that: at 60×20 in Dutch, with 16-character names, the last
        // round's banner took three rows and pushed the game menu's last
        // entry off the screen (a recorded session).
        let lastRoundBanner = g.away == nil && (g.offer == nil || g.watching) && gs.roundEnd == nil && gs.previousRound != nil
        var rows = height - 2 - Screens.bottomLines(s, width, t, banner: banner, help: help).count
        var spacers = [true, chips.count == 1, true, true]  // after the title, the chips, the turn, the caption
        var big = fragment(gs.fragment, width: width, style: style, empty: t.emptyFragment)
        // A countdown too long for the turn's row goes on a row of its own (clockSuffix).
        let turnRows = turn.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The caption wraps (a long name): every row of it counts.
        func captionRows() -> Int { Layout.wrap(caption.joined(separator: " · "), width: width - 4).count }
        func total() -> Int { spacers.filter { $0 }.count + chips.count + turnRows.count + captionRows() + big.count + nextEnd.count + lower.count }
        for i in [3, 2, 1, 0] where total() > rows { spacers[i] = false }
        if total() > rows {
            big = []
            if gs.fragment.isEmpty { caption = [style.dim(t.emptyFragment)] }
        }
        if total() > rows, lastRoundBanner {
            banner = ""
            rows = height - 2 - Screens.bottomLines(s, width, t, banner: banner, help: help).count
        }
        var body: [String] = spacers[0] ? [""] : []
        body += chips
        if spacers[1] { body.append("") }
        body += turnRows.map { Layout.center($0, in: width) }
        if spacers[2] { body.append("") }
        body += big
        body += Layout.wrap(caption.joined(separator: " · "), width: width - 4).map { Layout.center($0, in: width) }
        body += nextEnd
        if spacers[3] { body.append("") }
        body += lower

        // The variant always named: "Superghost · English · round 1".
        // A match says so: "Ghost match · English · round 2".
        let variant = t.variantName(superghost: gs.superghost, challenge: gs.challenge)
        let title = WatchScreens.watchTitle(g, (gs.match ? t.superghost.matchName(variant) : variant) + " · "
                                   + t.gameTitle(t.nameOfLanguage(g.lang), g.round), t)
        return Screens.frame(s, width, height, t, title: title, right: WatchScreens.audienceRight(s, g, t), body: body,
                     banner: banner, help: help)
    }

    /// The reason a game ended, in the client's words (from `reason=`).
    public static func reasonText(_ r: GameResult, _ t: Strings) -> String {
        reasonText(reason: r.reason, loser: r.loser, winner: r.winner, fragment: r.fragment, word: r.word, superghost: r.superghost, t)
    }

    /// The reason, on the loser's own screen in the second person.
    static func reasonText(_ s: ClientState, _ r: GameResult, _ t: Strings) -> String {
        reasonText(reason: r.reason, loser: r.loser, winner: r.winner, fragment: r.fragment, word: r.word, superghost: r.superghost,
                   loserIsMe: s.isMe(r.loser), winnerIsMe: s.isMe(r.winner), t)
    }

    static func reasonText(reason: OverReason, loser: String, winner: String, fragment: String, word: String? = nil,
                           superghost: Bool = false, loserIsMe: Bool = false, winnerIsMe: Bool = false,
                           _ t: Strings) -> String {
        let frag = "“" + fragment.uppercased() + "”"
        let (loser, winner) = (Screens.display(loser, t), Screens.display(winner, t))
        if loserIsMe, let text = t.secondPerson.youLost(reason, fragment: frag, winner: winner, word: word, superghost: superghost) { return text }
        if winnerIsMe, let text = t.secondPerson.youWon(reason, loser: loser, fragment: frag, word: word) { return text }
        if let text = t.challenge.challengeReason(reason, loser: loser, winner: winner, fragment: frag, word: word) { return text }
        switch reason {
        case .word: return t.reasonWord(loser, frag)
        case .dead: return superghost ? t.superghost.reasonDeadSuper(loser, frag) : t.reasonDead(loser, frag)
        case .left: return t.reasonLeft(loser)
        case .abandoned: return t.reasonAbandoned(loser, winner)
        case .time: return t.clock.reasonTime(loser)
        default: return t.reasonOther(loser, reason.rawValue)
        }
    }

    public static func over(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        guard let r = s.result else {
            return Screens.frame(s, width, height, t, title: t.overTitle, body: [], help: t.overHelp)
        }
        var body: [String] = [""]
        let headline: String
        let winner = Screens.display(r.winner, t)
        if r.drawn {
            headline = style.bold(t.generic.itsADraw)
        } else if s.isMe(r.winner) {
            headline = style.good(r.match ? t.youWinMatch(winner) : t.youWin(winner))
        } else if s.isMe(r.loser) {
            headline = style.bold(r.match ? t.theyWinMatch(winner) : t.theyWin(winner))
        } else {
            headline = style.bold(r.match ? t.winnerIsMatch(winner) : t.winnerIs(winner))
        }
        body += Screens.paragraph(headline, width)
        body.append("")
        // The reason in the screen's language, from OVER's fields (never the server's INFO text).
        // After a dead fragment, the word its last letter could have led to.
        // (Bluff and challenge's reasons name their word themselves.)
        let possible = t.challenge.challengeReason(r.reason, loser: "", winner: "", fragment: "", word: nil) != nil ? "" : r.word.map { " " + t.possibleWord("“" + r.fragment.dropLast().uppercased() + "”", "“" + $0.uppercased() + "”") } ?? ""
        // A game drawn from VIEW (`kind` set) says why in its kind's words
        // only (its INFO, below): these reasons are Ghost's.
        if r.kind == nil, !r.drawn { body += Screens.paragraph(reasonText(s, r, t) + possible, width) }
        // A kind this client has no code for says why in its own words (OVER's INFO).
        if r.kind != nil, let info = r.info { body += Screens.paragraph(info, width) }
        if let ended = r.endedAt { body += Screens.paragraph(t.endedMeanwhile(Screens.utcText(ended)), width) }
        // A rated game: the ratings after it and their changes (Record/).
        if let rating = RecordScreens.endRatingLine(s, id: r.id, t) { body += Screens.paragraph(style.bold(rating), width) }
        if r.match, r.players.count == 2, r.ghost.count == 2 {
            if let seat = r.players.firstIndex(of: r.loser), r.ghost[seat].count >= 5 {
                body.append(Screens.margin + (s.isMe(r.loser) ? t.secondPerson.youSpelledGhost : t.spelledGhost(Screens.display(r.loser, t))))
            }
            let cells = (0..<2).map { Screens.label(r.players[$0], t) + " " + ghostText(r.ghost[$0], style) }
            let line = Screens.margin + t.ghostLabel + ":  " + cells.joined(separator: "   ")
            // Long names: each player's letters on a row of their own.
            body += Layout.visibleWidth(line) <= width ? [line] : [Screens.margin + t.ghostLabel + ":"] + cells.map { Screens.margin + "  " + $0 }
        }
        if !r.fragment.isEmpty { body.append(Screens.margin + t.finalFragment + BlockFont.spaced(r.fragment)) }
        var places: [String] = []
        if !r.ranks.isEmpty {
            places += ["", Screens.margin + t.places]
            // Best place first, whatever order the RANK lines came in.
            for rank in r.ranks.sorted(by: { $0.rank < $1.rank }) {
                let line = t.rankLine(rank.rank, Screens.label(rank.name, t), rank.wins)
                places.append(Screens.margin + (s.isMe(rank.name) ? Screens.marker + " " + style.bold(line) : "  " + line))
            }
        }
        let entries = OverMenuItem.allCases.map { item -> String in
            switch item {
            case .rematch: r.bot != nil ? t.overPlayAgain : t.overRematch
            case .newGame: t.overNewGame
            case .changeName: t.overChangeName
            case .main: t.overMain
            case .scores: t.overScores
            case .review: t.overReview
            }
        }
        // Each entry with its letter, the same after every game.
        let menuRows = Screens.menu(entries, selected: s.menuIndex, style, keys: OverMenuItem.allCases.map(\.letter), width: width)
        var banner = ""
        let opponent = Screens.display(r.players.first { !s.isMe($0) } ?? (s.isMe(r.winner) ? r.loser : r.winner), t)
        if let by = r.rematchOfferedBy {
            banner = t.rematchOffered(Screens.display(by, t))
        } else if r.rematchAsked {
            banner = t.rematchWaiting(opponent)
        } else if r.rematchLapsed {
            banner = t.rematchLapsed(opponent)
        }
        // The menu always fits: when the window is short, the blank rows go
        // first, then the places (the high-score screen has them).
        let room = height - 2 - Screens.bottomLines(s, width, t, banner: banner, help: t.overHelp).count
        if body.count + places.count + 1 + menuRows.count > room {
            body = body.filter { !$0.isEmpty }
            places = places.filter { !$0.isEmpty }
        }
        if body.count + places.count + 1 + menuRows.count > room { places = [] }
        body += places
        if body.count + 1 + menuRows.count <= room { body.append("") }
        body += menuRows
        // A match's end names it: "Game over · Ghost match".
        let title = r.match ? t.overTitle + " · " + t.superghost.matchName(t.variantName(superghost: r.superghost, challenge: r.challenge))
            : r.kind.map { t.overTitle + " · " + s.kindName($0, t) } ?? t.overTitle
        return Screens.frame(s, width, height, t, title: title, right: s.myName ?? "", body: body,
                     banner: banner, help: t.overHelp)
    }

    public static func computer(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let items = GenericFeature.computerItems(s)
        // An announced kind's levels by name: what they play like is the kind's own.
        let generic = s.genericChoice.map { s.kindName($0, t) }
        let entries = items.map { item -> String in
            switch item {
            case .level(let l): generic != nil ? t.levelName(l.rawValue) : t.levelName(l.rawValue) + " — " + t.levelDescription(l.rawValue)
            case .starter: t.whoStarts(s.computerFirst ? t.starterComputer : t.starterYou)
            case .back: t.menuBack
            }
        }
        var body = ["", Screens.margin + t.computerPrompt, ""] + Screens.menu(entries, selected: s.menuIndex, style, keys: items.map(\.letter), width: width)
        if generic == nil { body += ["", Screens.margin + style.dim(t.menuMode(s.config.matchMode ? t.modeMatch : t.modeSingle))] }
        let variant = generic ?? t.variantName(superghost: s.config.superghost, challenge: s.config.challenge)
        return Screens.frame(s, width, height, t, title: t.computerTitle + " · " + variant, right: s.myName ?? "", body: body, help: t.computerHelp)
    }
}
