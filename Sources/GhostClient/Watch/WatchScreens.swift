import GhostProtocol

/// Watching's screens: the list of games in progress, and the pieces the
/// play screens add for watching (the title, the key help, the count of
/// watchers). A watched game is drawn by its kind's own play screen.
public enum WatchScreens {
    /// The list of live games: two rows each (the players and the game,
    /// then its moves, watchers and clock); a game of a kind this client
    /// cannot show is dimmed and cannot be chosen.
    public static func watchList(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        var body = [""] + Screens.paragraph(t.watch.watchListIntro, width) + [""]
        let help = t.watch.watchListHelp
        guard let games = s.watch.games else {
            body.append(Screens.margin + style.dim(t.watch.watchListLoading))
            return Screens.frame(s, width, height, t, title: t.watch.watchListTitle, right: s.myName ?? "", body: body, help: help)
        }
        if games.isEmpty {
            body.append(Screens.margin + style.bold(t.watch.watchListEmpty))
            return Screens.frame(s, width, height, t, title: t.watch.watchListTitle, right: s.myName ?? "", body: body, help: help)
        }
        var rows: [(text: String, game: Int)] = []
        for (i, g) in games.enumerated() {
            let names = g.players.map { HangmanScreens.hangmanLabel($0, t) }
            let players = names.count == 2 ? t.watch.versus(names[0], names[1]) : names.joined(separator: ", ")
            // A kind this client has no code for by its name (HELP's), shown on the generic screen.
            let kind = ClientGames.plays(g.kind.rawValue) ? ClientGames.texts(g.kind, t).setup(g.fields) : s.kindName(g.kind, t)
            let head = players + " — " + kind
            let details = t.nameOfLanguage(g.lang) + " · "
                + (g.watchable ? t.watch.liveDetails(moves: g.moves, watchers: g.watchers, clock: g.clock) : t.watch.cannotShow(g.kind.rawValue))
            // Rows too long for the window wrap, indented (never cut).
            let room = max(10, width - Screens.margin.count - 4)
            for (r, line) in Layout.wrap(head, width: room + 2).enumerated() {
                let lead = r == 0 ? "" : "  "
                if !g.watchable {
                    rows.append(("  " + lead + style.dim(line), i))
                } else if i == s.watch.cursor && r == 0 {
                    rows.append((Screens.marker + " " + style.highlight(line), i))
                } else {
                    rows.append(("  " + lead + line, i))
                }
            }
            rows += Layout.wrap(details, width: room).map { ("    " + style.dim($0), i) }
        }
        if s.watch.more { rows.append(("  " + style.dim(t.watch.watchListMore), -1)) }
        // A window of the rows that keeps the chosen game in sight.
        let bottom = Screens.bottomLines(s, width, t, banner: "", help: help).count
        let room = max(2, height - 2 - bottom - body.count)
        let cursorRow = rows.firstIndex { $0.game == s.watch.cursor } ?? 0
        let start = min(max(0, cursorRow + 2 - room), max(0, rows.count - room))
        body += rows.dropFirst(start).prefix(room).map { Screens.margin + $0.text }
        return Screens.frame(s, width, height, t, title: t.watch.watchListTitle, right: s.myName ?? "", body: body, help: help)
    }

    /// A play screen's title, for a watcher: "Watching · …".
    static func watchTitle(_ g: GameInfo, _ title: String, _ t: Strings) -> String {
        g.watching ? t.watch.watchingTitle + " · " + title : title
    }

    /// The title bar's right side on a play screen: my name (a player's),
    /// how many watch (when any), and "private" for a game kept from watchers.
    static func audienceRight(_ s: ClientState, _ g: GameInfo?, _ t: Strings) -> String {
        var parts: [String] = []
        if g?.watching != true, let me = s.myName { parts.append(me) }
        if let g, g.watchers > 0 { parts.append(t.watch.watcherCount(g.watchers)) }
        if let g, !g.open { parts.append(t.watch.privateMark) }
        return parts.joined(separator: " · ")
    }

    /// The key help of a watcher: who is watched and how to stop, or, once
    /// the game has ended, how to go back to the list.
    static func watchHelp(_ s: ClientState, _ players: [String], _ t: Strings) -> String {
        if s.watch.ended { return t.watch.watchEndedHelp }
        let names = players.map { HangmanScreens.hangmanLabel($0, t) }
        return t.watch.watchingHelp(names.first ?? "?", names.count > 1 ? names[1] : "?")
    }
}
