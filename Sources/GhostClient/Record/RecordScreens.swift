import GhostProtocol

/// The record's screens: the history list, the replay with its
/// review, the profile and the leaders; and the end screen's rating line.
public enum RecordScreens {
    static func record(_ sub: RecordScreen) -> Screens.Function {
        switch sub {
        case .history: history
        case .replay: replay
        case .profile: profile
        case .leaders: leaders
        }
    }

    /// The end screen's line about ratings, for a rated game that just ended
    /// (OVER's `ratings= changes=`): mine, then the opponent's; nil for an unrated one.
    static func endRatingLine(_ s: ClientState, id: Int, _ t: Strings) -> String? {
        guard let end = s.record.ended, end.id == id else { return nil }
        var parts: [String] = []
        if let me = s.myName, let mine = end.of(me) { parts.append(t.record.yourRating(mine.rating, change: mine.change)) }
        for p in end.players where !s.isMe(p) {
            if let theirs = end.of(p) { parts.append(t.record.theirRating(Screens.label(p, t), theirs.rating, change: theirs.change)) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// A window of `rows` that keeps row `focus` in sight.
    static func window(_ rows: [String], focus: Int, room: Int) -> [String] {
        let start = min(max(0, focus + 2 - room), max(0, rows.count - room))
        return Array(rows.dropFirst(start).prefix(max(0, room)))
    }

    // MARK: The history list

    public static func history(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let help = t.record.historyHelp
        var body = [""] + Screens.paragraph(t.record.historyIntro, width) + [""]
        guard let games = s.record.history else {
            body.append(Screens.margin + style.dim(t.record.historyLoading))
            return Screens.frame(s, width, height, t, title: t.record.historyTitle, right: s.myName ?? "", body: body, help: help)
        }
        if games.isEmpty {
            body.append(Screens.margin + style.bold(t.record.historyEmpty))
            return Screens.frame(s, width, height, t, title: t.record.historyTitle, right: s.myName ?? "", body: body, help: help)
        }
        // One row a game: the result, the kind and opponent; then its date,
        // language (RESULT's lang=), reason and rating change, dimmed.
        var rows: [(text: String, game: Int)] = []
        let room = max(10, width - Screens.margin.count - 4)
        for (i, g) in games.enumerated() {
            let head = t.record.historyResult(g.result) + " · " + (g.match ? t.superghost.matchName(s.gameKindName(g.game, g.variant, t)) : s.gameKindName(g.game, g.variant, t)) + " · " + t.record.against(Screens.label(g.opponent, t))
            var details = [Screens.utcText(g.ended)]
            if let lang = g.lang { details.append(t.nameOfLanguage(lang)) }
            // An aborted game's reason is ABORTED's (`left`: before the first move), not OVER's.
            if g.result == "aborted" {
                if let why = t.record.historyAbortReason(g.reason) { details.append(why) }
            } else {
                details.append(t.record.historyReason(g.reason))
            }
            if let c = g.change { details.append(t.record.ratingChange(c)) }
            for (r, line) in Layout.wrap(head, width: room + 2).enumerated() {
                if i == s.record.cursor && r == 0 {
                    rows.append((Screens.marker + " " + style.highlight(line), i))
                } else {
                    rows.append(("  " + (r == 0 ? "" : "  ") + line, i))
                }
            }
            rows += Layout.wrap(details.joined(separator: " · "), width: room).map { ("    " + style.dim($0), i) }
        }
        let bottom = Screens.bottomLines(s, width, t, banner: "", help: help).count
        let space = max(2, height - 2 - bottom - body.count)
        // Short windows drop the intro first.
        if space < 4 { body = [""] }
        let fit = max(2, height - 2 - bottom - body.count)
        let focus = rows.firstIndex { $0.game == s.record.cursor } ?? 0
        body += window(rows.map(\.text), focus: focus + 1, room: fit).map { Screens.margin + $0 }
        return Screens.frame(s, width, height, t, title: t.record.historyTitle, right: s.myName ?? "", body: body, help: help)
    }

    // MARK: The replay

    public static func replay(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let hangmanGame = s.record.replay?.isHangman ?? false
        let help = t.record.replayHelp(hangman: hangmanGame)
        guard let r = s.record.replay else {
            return Screens.frame(s, width, height, t, title: t.record.historyTitle, body: [], help: help)
        }
        var title = t.record.replayTitle(r.id)
        if let e = r.entry { title += " · " + s.gameKindName(e.game, e.variant, t) }
        let right = r.entry.map { t.record.against(Screens.label($0.opponent, t)) } ?? ""
        var body: [String] = [""]
        guard let moves = r.moves else {
            body.append(Screens.margin + style.dim(t.record.replayLoading))
            return Screens.frame(s, width, height, t, title: title, right: right, body: body, help: help)
        }
        if moves.isEmpty {
            body.append(Screens.margin + style.bold(t.record.replayEmpty))
            return Screens.frame(s, width, height, t, title: title, right: right, body: body, help: help)
        }
        let step = min(max(0, r.step), moves.count)
        // A kind this client has no code for: its moves as lines (Games/Generic).
        if let e = r.entry, !ClientGames.plays(e.game) {
            return GenericScreens.genericReplay(s, r, moves, step: step, title: title, right: right, width, height, t, help: help)
        }
        let move = step > 0 ? moves[step - 1] : nil
        let rounds = Set(moves.map(\.round)).count > 1
        body += Screens.paragraph(style.bold(t.record.replayStep(step, of: moves.count, round: rounds ? (move ?? moves.first)?.round : nil)), width)
        if r.more { body.append(Screens.margin + style.dim(t.record.replayEarlier)) }
        body.append("")
        let ply = r.ply(at: step)
        // The position: Ghost's fragment (the review's, else worked out from the moves), Hangman's pattern (from the review).
        let position = hangmanGame ? (ply?.pattern ?? r.pattern(at: step) ?? "") : (ply?.fragment ?? r.fragment(at: step))
        if !position.isEmpty {
            let big = hangmanGame ? [] : Screens.big(position.uppercased(), width, style)
            let spaced = Layout.center(style.bold(BlockFont.spaced(position.uppercased())), in: width)
            let bottom = Screens.bottomLines(s, width, t, banner: "", help: help).count
            // The block letters when the window has room for them and the review's lines.
            if !big.isEmpty, body.count + big.count + 6 + bottom + 2 <= height {
                body += big
            } else {
                body.append(spaced)
            }
            body.append("")
        }
        if let move {
            body += Screens.paragraph(t.record.playedBy(Screens.label(move.player, t), me: s.isMe(move.player), move.play), width)
        }
        // The review: what perfect play made of this move, the mistake marked.
        var banner = ""
        switch r.review {
        case .none:
            body += [""] + Screens.paragraph(style.dim(t.record.reviewOffer(hangman: hangmanGame)), width)
        case .asking:
            body += [""] + Screens.paragraph(style.dim(t.record.reviewAsking), width)
        case .notReady:
            body += [""] + Screens.paragraph(t.record.reviewNotReady(waiting: r.reviewRetryAt != nil), width)
        case .refused(let code):
            body += [""] + Screens.paragraph(style.dim(t.record.reviewRefused(code)), width)
        case .done:
            if let ply, let move {
                let me = s.isMe(move.player)
                if let outcome = ply.outcome {
                    body += Screens.paragraph(t.record.outcomeAfter(Screens.label(move.player, t), me: me, win: outcome == "win"), width)
                }
                if !ply.better.isEmpty {
                    let text = "✗ " + t.record.lostIt(ply.play, better: ply.better)
                    body += Screens.paragraph(step == r.mistakeStep ? style.bad(text) : style.warn(text), width)
                }
                if let family = ply.fields["family"] {
                    body += Screens.paragraph(t.record.familyLeft(family, word: ply.fields["word"]), width)
                } else if let candidates = ply.fields["candidates"] {
                    body += Screens.paragraph(t.record.bestLetter(ply.fields["best"], candidates: candidates), width)
                }
            }
            if let m = r.mistakeStep, m <= moves.count {
                let who = moves[m - 1].player
                banner = t.record.firstMistake(m, Screens.label(who, t), me: s.isMe(who))
            } else if !hangmanGame {
                banner = t.record.noMistake
            }
        }
        return Screens.frame(s, width, height, t, title: title, right: right, body: body, banner: banner, help: help)
    }

    // MARK: The profile

    public static func profile(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let name = s.record.profile?.name ?? s.record.profileName ?? s.myName ?? ""
        // Another name's profile: x blocks it (Social/).
        let help = s.isMe(name) || name.hasPrefix("bot-") ? t.record.profileHelp : t.social.profileBlockHint + " · " + t.record.profileHelp
        let title = t.record.profileTitle(name)
        var body: [String] = [""]
        guard let p = s.record.profile else {
            body.append(Screens.margin + style.dim(t.record.profileLoading))
            return Screens.frame(s, width, height, t, title: title, right: s.myName ?? "", body: body, help: help)
        }
        if p.ratings.isEmpty {
            body += Screens.paragraph(p.registered ? t.record.profileNoRatings : t.record.profileGuest, width)
        }
        for r in p.ratings {
            body.append(Screens.margin + style.bold(t.ratingBoardName(r.board)))
            body += Screens.paragraph(t.record.ratingRow(r), width - 2).map { "  " + $0 }
            if var best = r.best {
                best.opponent = Screens.label(best.opponent, t)
                body += Screens.paragraph(t.record.bestWin(best), width - 2).map { "  " + style.dim($0) }
            }
        }
        if p.ratings.contains(where: { $0.rating.provisional }) { body += [""] + Screens.paragraph(style.dim(t.record.provisionalNote), width) }
        if !p.versus.isEmpty { body.append("") }
        for v in p.versus { body += Screens.paragraph(t.record.versusRecord(Screens.label(p.name, t), s.gameKindName(v.game, v.variant, t), v.record), width) }
        // Short windows: the blank rows go first.
        let room = height - 2 - Screens.bottomLines(s, width, t, banner: "", help: help).count
        if body.count > room { body = body.filter { !Layout.plain($0).allSatisfy { $0 == " " } } }
        return Screens.frame(s, width, height, t, title: title, right: s.myName ?? "", body: body, help: help)
    }

    // MARK: The leaders

    public static func leaders(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let help = t.record.leadersHelp
        let boards = RecordClient.boards
        let board = boards[min(max(0, s.record.board), boards.count - 1)].name
        let title = t.leadersTitle(board)
        var body: [String] = [""]
        guard let rows = s.record.leaders else {
            body.append(Screens.margin + style.dim(t.record.leadersLoading))
            return Screens.frame(s, width, height, t, title: title, right: s.myName ?? "", body: body, help: help)
        }
        let toGo = leadersToGo(s, board: board)
        if rows.isEmpty {
            body += Screens.paragraph(t.record.leadersEmpty(minGames: s.record.leadersMinGames, maxRD: s.record.leadersMaxRD), width)
            if let toGo { body += [""] + Screens.paragraph(t.record.leadersToGo(toGo), width) }
            return Screens.frame(s, width, height, t, title: title, right: s.myName ?? "", body: body, help: help)
        }
        let h = t.record.leadersHeader
        func row(_ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String {
            Screens.leftPad(a, 6) + "  " + Layout.pad(b, to: 17) + Screens.leftPad(c, 7) + Screens.leftPad(d, 9) + Screens.leftPad(e, 10)
        }
        body.append(Screens.margin + "  " + style.bold(row(h.rank, h.name, h.rating, h.games, h.record)))
        let room = max(1, height - 2 - body.count - Screens.bottomLines(s, width, t, banner: "", help: help).count)
        for r in rows.prefix(room) {
            let line = row("\(r.rank)", Screens.label(r.name, t), r.rating.description, "\(r.games)", "\(r.wins)–\(r.losses)")
            body.append(Screens.margin + (s.isMe(r.name) ? Screens.marker + " " + style.highlight(line) : "  " + line))
        }
        // Below the list, where there is room: what `?` means (provisional
        // names are listed), and how far you are from it.
        var notes: [String] = []
        if rows.prefix(room).contains(where: { $0.rating.provisional }) { notes += Screens.paragraph(t.record.provisionalNote, width) }
        if let toGo { notes += Screens.paragraph(t.record.leadersToGo(toGo), width) }
        if !notes.isEmpty, body.count + 1 + notes.count <= height - 2 - Screens.bottomLines(s, width, t, banner: "", help: help).count {
            body += [""] + notes.map { style.dim($0) }
        }
        return Screens.frame(s, width, height, t, title: title, right: s.myName ?? "", body: body, help: help)
    }

    /// How many more rated games you need on `board` to be listed, when the
    /// server says how many (`min_games=`) and your profile is the one last
    /// shown (PROFILE's games on the board); nil when listed, or unknown.
    static func leadersToGo(_ s: ClientState, board: String) -> Int? {
        guard let need = s.record.leadersMinGames, let me = s.myName, let profile = s.record.profile,
              profile.registered, profile.name.lowercased() == me.lowercased(),
              s.record.leaders?.contains(where: { s.isMe($0.name) }) != true else { return nil }
        let played = profile.ratings.first { $0.board == board }?.games ?? 0
        return played < need ? need - played : nil
    }
}
