import GhostProtocol
import GameKit

/// The main screen: the games panel, the menu and the settings of new games.
public enum MainScreens {
    /// The main screen: the games side by side (the chosen one marked),
    /// then the menu (`MainMenu.entries`, the chosen game's wording), then
    /// the settings of new games.
    public static func main(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let entries = MainMenu.entries.map { $0.label(s, t) }
        var games = gamesPanel(s, width, t)
        // The settings of new games (the clock and watchers), as many to a row as fit under the menu.
        var settingRows: [String] = []
        for part in [t.clock.clockSetting(s.config.clock), t.watch.watchersSetting(s.config.privateGames)] {
            if let last = settingRows.last, Layout.visibleWidth(last) + 3 + Layout.visibleWidth(part) <= width - 2 * Screens.margin.count {
                settingRows[settingRows.count - 1] = last + " · " + part
            } else {
                settingRows.append(part)
            }
        }
        let banner = s.confirmQuit ? t.confirmQuit : ""
        // The large title and the blank rows go when the window is short.
        var spare = height - 2 - Screens.bottomLines(s, width, t, banner: banner, help: t.mainHelp).count
            - games.count - entries.count - settingRows.count
        // At 60×20 the menu (with Friends) and the whole panel do not both
        // fit: the panel shows each game's choices, not all its options.
        if spare < 0 {
            let compact = s.genericChoice.map { GenericScreens.genericPanel(s, $0, width, t, aboutRows: 1) } ?? compactPanel(s, width, t)
            spare += games.count - compact.count
            games = compact
        }
        // At 60×20 with a two-row notice and a three-row games panel (a whole
        // variant name wrapped) there is a row too few: the
        // settings row gives way while the notice shows (it is back after).
        if spare < 0 {
            spare += settingRows.count
            settingRows = []
        }
        // The other kinds the server plays, by name, under the built-in ones when there is room (Games/Generic).
        let others = GenericScreens.announcedRow(s, width, t)
        if s.genericChoice == nil, !others.isEmpty, spare >= others.count {
            games += others
            spare -= others.count
        }
        var body: [String] = []
        if spare >= BlockFont.height + 3 {
            body += [""] + Screens.big(t.productName(s.chosenKind), width, style)
            spare -= BlockFont.height + 1
        }
        if spare >= 1 { body.append(""); spare -= 1 }
        body += games
        if spare >= 1 { body.append(""); spare -= 1 }
        body += Screens.menu(entries, selected: s.menuIndex, style, enabled: MainMenu.entries.map { GenericFeature.mainEntryEnabled(s, $0.item) }, keys: MainMenu.keys)
        if spare >= 1 { body.append("") }
        body += settingRows.map { Screens.margin + style.dim($0) }
        let who = s.myName.map { " · " + t.mainSignedInAs($0) } ?? ""
        return Screens.frame(s, width, height, t, title: t.gamesTitle + who, right: s.serverAddress, body: body, banner: banner,
                     help: t.mainHelp)
    }

    /// The games panel in two rows, for a short window: both games on the
    /// first, each with its choices only (Ghost's rounds, then its variant
    /// under it, Hangman's mode), their keys shown.
    static func compactPanel(_ s: ClientState, _ width: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let rounds = t.panelRounds[s.config.matchMode ? 1 : 0]
        let variant = t.panelVariants[s.config.superghost ? 1 : s.config.challenge ? 2 : 0]
        let mode = t.hangman.modeName(s.hangman.setting(.mode).value ?? "evil")
        func paint(_ kind: GameKind, _ text: String) -> String { s.config.game == kind ? text : style.dim(text) }
        func head(_ kind: GameKind, _ name: String, _ rest: String) -> String {
            let chosen = s.config.game == kind
            let head = (chosen ? "● " : "○ ") + name
            return (chosen ? style.highlight(head) : style.bold(head)) + "  " + paint(kind, rest)
        }
        let ghost = [head(.ghost, t.ghostName, "m [\(rounds)]"), "  " + paint(.ghost, "v [\(variant)]")]
        let column = ghost.map(Layout.visibleWidth).max() ?? 0
        return [Screens.margin + Layout.pad(ghost[0], to: column) + "   " + head(.hangman, t.hangman.gameName, "[\(mode)]"),
                Screens.margin + ghost[1]]
    }

    /// The games side by side, the chosen one marked ●
    /// (a radio button: the menu's ▶ stays the menu's):
    /// Ghost with its variants (v) and its rounds (m), Hangman with its
    /// modes. Each column wraps its own text to half the width.
    static func gamesPanel(_ s: ClientState, _ width: Int, _ t: Strings) -> [String] {
        // An announced kind chosen: every game's name, then what it is (Games/Generic).
        if let kind = s.genericChoice { return GenericScreens.genericPanel(s, kind, width, t) }
        let style = Style(colour: s.colour)
        func choices(_ all: [String], chosen: String) -> String {
            all.map { $0 == chosen ? "[" + $0 + "]" : $0 }.joined(separator: " ")
        }
        // A line of choices wraps between them, never inside one ("Bluff and
        // challenge" stays whole; one wider than the column wraps as text).
        func wrapped(_ key: String, _ all: [String], chosen: String, width: Int) -> [String] {
            var out: [String] = [], row = key
            for part in all.map({ $0 == chosen ? "[" + $0 + "]" : $0 }) {
                let next = row + " " + part
                if Layout.visibleWidth(next) <= width || row == key { row = next } else { out.append(row); row = "  " + part }
            }
            out.append(row)
            return out.flatMap { Layout.wrap($0, width: width) }
        }
        let variants = t.panelVariants, rounds = t.panelRounds
        let variant = variants[s.config.superghost ? 1 : s.config.challenge ? 2 : 0]
        // Ghost's rounds first: they share the heading's row when it has room.
        let h = t.hangman
        let saved = s.hangman.setting(.mode).value ?? "evil"
        let hangman = [choices(HangmanFeature.hangmanModes.map(h.modeName), chosen: h.modeName(saved))]
        // Hangman's column as wide as its text (up to half), Ghost's the rest.
        let room = max(24, width - Screens.margin.count * 2 - 3)
        let rightWidth = min(room / 2, 2 + ((hangman + [h.gameName]).map(Layout.visibleWidth).max() ?? 0))
        let leftWidth = room - rightWidth
        let ghost = wrapped("m", rounds, chosen: rounds[s.config.matchMode ? 1 : 0], width: leftWidth - 2)
            + wrapped("v", variants, chosen: variant, width: leftWidth - 2)
        func rows(_ name: String, _ kind: GameKind, _ lines: [String], _ column: Int) -> [String] {
            let chosen = s.config.game == kind
            let head = (chosen ? "● " : "○ ") + name
            func paint(_ text: String) -> String { chosen ? text : style.dim(text) }
            var lines = lines
            var first = chosen ? style.highlight(head) : style.bold(head)
            if let line = lines.first, Layout.visibleWidth(head) + 2 + Layout.visibleWidth(line) <= column {
                first += "  " + paint(line)
                lines.removeFirst()
            }
            return [first] + lines.flatMap { Layout.wrap($0, width: column - 2) }.map { "  " + paint($0) }
        }
        let left = rows(t.ghostName, .ghost, ghost, leftWidth), right = rows(h.gameName, .hangman, hangman, rightWidth)
        return (0..<max(left.count, right.count)).map { i in
            let l = left.indices.contains(i) ? left[i] : ""
            let r = right.indices.contains(i) ? right[i] : ""
            return Screens.margin + Layout.pad(l, to: leftWidth) + "   " + r
        }
    }
}
