import GhostProtocol

/// The high-score screen: a board's rows, the player's own marked.
public enum ScoresScreens {
    public static func scores(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        var body = [""]
        guard let rows = s.highScores.scores else {
            body.append(Screens.margin + t.scoresLoading)
            return Screens.frame(s, width, height, t, title: scoresTitle(s, t), body: body, help: t.scoresHelp)
        }
        if rows.isEmpty {
            body.append(Screens.margin + t.scoresEmpty)
            return Screens.frame(s, width, height, t, title: scoresTitle(s, t), body: body, help: t.scoresHelp)
        }
        // Columns as wide as their widest cell, header included (Dutch headers are longer).
        let h = t.scoresHeader
        let table = Table(header: [h.rank, h.name, h.wins, h.played], align: [.right, .left, .right, .right],
                          most: [nil, 18, nil, nil], least: [6, 16, 9, 7], flex: 1)
        let cells = rows.map { r in ["\(r.rank)", Screens.label(r.name, t), "\(r.wins)", "\(r.played)"] }
        let widths = table.widths(cells, width: width - 2 * Screens.margin.count - 2)
        body.append(Screens.margin + "  " + style.bold(table.line(table.header, widths)))
        let room = max(1, height - 2 - body.count - Screens.bottomLines(s, width, t, banner: "", help: t.scoresHelp).count)
        let start = min(max(0, s.highScores.scoresOffset), max(0, rows.count - room))
        for (r, c) in zip(rows, cells).dropFirst(start).prefix(room) {
            let line = table.line(c, widths)
            body.append(Screens.margin + (s.isMe(r.name) ? Screens.marker + " " + style.highlight(line) : "  " + line))
        }
        return Screens.frame(s, width, height, t, title: scoresTitle(s, t), body: body, help: t.scoresHelp)
    }

    /// The high-score screen's title: the board's name (an announced kind's with the kind's name first).
    static func scoresTitle(_ s: ClientState, _ t: Strings) -> String {
        guard let kind = s.highScores.scoresKind else { return t.scoresTitle + " · " + t.boardName(s.highScores.scoresBoard.name) }
        return t.scoresTitle + " · " + s.kindName(kind, t) + " · " + t.boardName(s.highScores.scoresKindMode)
    }
}
