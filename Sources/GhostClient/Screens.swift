import GhostProtocol

/// Screens as pure functions of the state: `(state, width, height, strings)`
/// to exactly `height` lines, none wider than `width` columns. Attributes
/// (ANSI SGR) appear only when `state.colour` is on; without colour, the
/// selection and the player to move are marked with ▶.
public enum Screens {
    public typealias Function = (ClientState, Int, Int, Strings) -> [String]

    /// The screen for the state's current screen, at the state's size, in its language.
    public static func render(_ s: ClientState) -> [String] {
        render(s, width: s.width, height: s.height, strings: s.strings)
    }

    /// The smallest window every screen works in, and the largest area a
    /// screen uses: a larger window shows it centred.
    public static let minWidth = 60, minHeight = 20
    public static let maxWidth = 96, maxHeight = 32

    public static func render(_ s: ClientState, width: Int, height: Int, strings: Strings) -> [String] {
        StateLog.current?.states.append(s)
        guard width >= minWidth, height >= minHeight else {
            return tooSmall(width, height, strings, game: s.kindName(s.gamePlayed, strings), asking: s.confirmQuit)
        }
        let w = min(width, maxWidth), h = min(height, maxHeight)
        let left = String(repeating: " ", count: (width - w) / 2)
        let top = (height - h) / 2
        let lines = screen(s, w, h, strings).map { $0.isEmpty ? $0 : left + $0 }
        return Layout.fit(Array(repeating: "", count: top) + lines, width: width, height: height)
    }

    /// Below the smallest size: a request for a larger window, centred, and nothing else.
    static func tooSmall(_ width: Int, _ height: Int, _ t: Strings, game: String, asking quit: Bool = false) -> [String] {
        let request = t.windowTooSmall(game, minWidth, minHeight, width, height) + (quit ? " " + t.confirmQuit : "")
        let text = Layout.wrap(request, width: max(1, width - 2))
        let top = max(0, (height - text.count) / 2)
        return Layout.fit(Array(repeating: "", count: top) + text.map { Layout.center($0, in: width) }, width: width, height: height)
    }

    static func screen(_ s: ClientState, _ width: Int, _ height: Int, _ strings: Strings) -> [String] {
        let screen: Function = switch s.screen {
        case .language: language
        case .tutorial: tutorial
        case .name: NameScreens.name
        case .main: MainScreens.main
        case .computer: GhostScreens.computer
        case .join: LobbyScreens.join
        case .waiting: LobbyScreens.waiting
        case .resuming: LobbyScreens.resuming
        case .game: GhostScreens.game
        case .over: GhostScreens.over
        case .scores: ScoresScreens.scores
        case .hangman(let sub): HangmanScreens.hangman(sub)
        case .watchList: WatchScreens.watchList
        case .account(let sub): AccountScreens.account(sub)
        case .record(let sub): RecordScreens.record(sub)
        case .social(let sub): SocialScreens.social(sub)
        }
        return screen(s, width, height, strings)
    }

    static let margin = "  "
    static let marker = "▶"

    // MARK: The frame

    /// Title bar and rule, the body, then (at the bottom) a banner (plain
    /// text, shown as a warning), the status line and the key help.
    static func frame(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings,
                      title: String, right: String = "", body: [String], banner: String = "", help: String) -> [String] {
        let style = Style(colour: s.colour)
        // The title bar: the product, the title, and on the right (an address,
        // a name, the audience). When they do not all fit, the product's name
        // goes first, then the right part, then the title is shortened with
        // "…": never cut.
        var rightText = right.isEmpty ? "" : right + " "
        var left = " " + t.appTitle + (title.isEmpty ? "" : " · " + title)
        if Layout.visibleWidth(left) + Layout.visibleWidth(rightText) + 1 > width, !title.isEmpty { left = " " + title }
        if Layout.visibleWidth(left) + Layout.visibleWidth(rightText) + 1 > width { rightText = "" }
        var head = Layout.abbreviate(left, to: width - Layout.visibleWidth(rightText) - 1)
        head += String(repeating: " ", count: max(0, width - Layout.visibleWidth(head) - Layout.visibleWidth(rightText))) + rightText
        var lines = [style.colour ? style.title(head) : head,
                     style.dim(String(repeating: "─", count: max(0, width)))]
        let bottom = bottomLines(s, width, t, banner: banner, help: help)
        let bodyRows = max(0, height - lines.count - bottom.count)
        for row in body.dropFirst(bodyRows) where !Layout.plain(row).allSatisfy({ $0 == " " }) {
            LayoutAudit.cut("body row below the key help: “\(Layout.plain(row))”")
        }
        lines += body.prefix(bodyRows)
        while lines.count < height - bottom.count { lines.append("") }
        lines += bottom
        return Layout.fit(lines, width: width, height: height)
    }

    /// The frame's bottom rows: the banner, the status line and the key help,
    /// each taking a second row when it needs one (never cut mid-word).
    static func bottomLines(_ s: ClientState, _ width: Int, _ t: Strings, banner: String, help: String) -> [String] {
        let style = Style(colour: s.colour)
        // At most three rows each (a long error on the status line takes three at 60 columns).
        func rows(_ lines: [String], _ paint: (String) -> String) -> [String] {
            if lines.isEmpty { return [""] }
            for row in lines.dropFirst(3) { LayoutAudit.cut("fourth row of a bottom line: “\(row)”") }
            return lines.prefix(3).map { " " + paint($0) }
        }
        let room = max(1, width - 1)
        var (status, paint) = statusLine(s, t, style)
        // A line of chat on the status row: two rows at most (Social/).
        if s.alert == nil, s.link == .online, let said = SocialScreens.status(s, t, width: room) { status = said }
        // The quit question (Ctrl-C), on every screen, over the screen's own banner.
        // Then the block question, an invitation or a line of chat (Social/).
        let banner = s.confirmQuit ? t.confirmQuit : SocialScreens.banner(s, t, own: banner, width: room)
        // The chat line being typed takes the key help's place.
        let own = SocialScreens.chatHelp(s, t, width: room) ?? help
        // One quit key everywhere, named in every screen's key help.
        let help = own.isEmpty ? t.quitHint : own.contains("Ctrl-C") ? own : own + " · " + t.quitHint
        return rows(banner.isEmpty ? [] : Layout.wrap(banner, width: room), style.warn)
            + rows(status.isEmpty ? [] : Layout.wrap(status, width: room), paint)
            + rows(help.isEmpty ? [] : helpRows(help, width: room), style.dim)
    }

    /// The key help in rows: hints (the parts between " · ") are never split;
    /// a row holds as many whole hints as fit.
    static func helpRows(_ help: String, width: Int) -> [String] {
        let hints = help.split(separator: " · ").map(String.init)
        LayoutAudit.current?.hints += hints
        var rows: [String] = []
        for hint in hints {
            if let last = rows.last, Layout.visibleWidth(last) + 3 + Layout.visibleWidth(hint) <= width {
                rows[rows.count - 1] = last + " · " + hint
            } else {
                rows.append(hint)
            }
        }
        return rows
    }

    /// The alert if there is one, else the state of the connection, and its style.
    static func statusLine(_ s: ClientState, _ t: Strings, _ style: Style) -> (String, (String) -> String) {
        if let alert = s.alert {
            let text = noticeText(alert.notice, t)
            if case .serverError = alert.notice { return (text, style.bad) }
            return (text, style.warn)
        }
        switch s.link {
        case .online: return ("", style.dim)
        case .offline: return ((s.everOnline ? t.reconnecting : t.unreachable)(s.serverAddress), style.warn)
        case .refused(let why): return (t.account.connectionRefused(why), style.bad)
        case .connecting, .connected: return (t.connecting(s.serverAddress), style.dim)
        }
    }

    public static func noticeText(_ n: Notice, _ t: Strings) -> String {
        switch n {
        case .notYourTurn: t.notYourTurn
        case .lettersOnly: t.lettersOnly
        case .pastedSeveral: t.pastedSeveral
        case .notConnected: t.notConnected
        case .typeAName: t.typeAName
        case .typeACode: t.typeACode
        case .offerSent: t.offerSent
        case .gameEnded: t.gameEnded
        case .seekCancelled: t.seekCancelled
        case .seatTaken: t.seatTaken
        case .signedOut: t.signedOut
        case .returned(let p): t.returned(display(p, t))
        case .aborted(let reason): t.aborted(reason)
        case .unavailable(let item):
            switch item {
            case .accept, .decline: t.errorText(.noOffer) ?? ""
            case .claim: t.errorText(.notClaimable) ?? ""
            case .language(let code): t.alreadyIn(t.nameOfLanguage(code))
            default: ""
            }
        case .declined(let p): t.declined(display(p, t))
        case .accepted(let p): t.accepted(display(p, t))
        case .configSaveFailed(let why): t.configSaveFailed(why)
        case .hint(let winning, let letter): t.hint(winning, letter)
        case .challengeHint: t.challenge.challengeHint
        case .wordHint(let word): t.challenge.wordHint(word)
        case .typeTheWord: t.challenge.typeTheWord
        // The client's own words for the code; the server's English text is never shown.
        case .serverError(let code, _):
            t.errorText(code) ?? t.challenge.challengeErrorText(code) ?? t.watch.watchErrorText(code) ?? t.account.accountErrorText(code) ?? t.refused(code.rawValue)
        case .hangman(let notice): t.hangman.notice(notice, t)
        case .watchRefused(let code): t.watch.watchErrorText(code) ?? t.errorText(code) ?? t.refused(code.rawValue)
        case .account(let notice): t.account.accountNotice(notice)
        // A kind's own code in the server's words (the client knows no words for it).
        case .kindRefusal(let code, let text): t.errorText(code) ?? (text.isEmpty ? t.refused(code.rawValue) : t.generic.kindRefused(text))
        case .noComputer(let name): t.generic.noComputer(name)
        case .kindRules(let name): t.generic.kindRules(name)
        case .typeAWord: t.generic.typeAWord
        case .social(let notice): t.social.notice(notice, t)
        }
    }

    /// A vertical menu: "▶ g  Entry" for the selected entry, "  c  Entry" for
    /// the others, each entry's key (`keys`, a letter: one key style in every
    /// menu) before its label.
    /// Entries that do not apply now (`enabled` false) are dimmed. Given a
    /// `width`, an entry too long for it wraps, its next rows indented under
    /// its text (never cut).
    static func menu(_ entries: [String], selected: Int, _ style: Style, enabled: [Bool] = [], keys: [String],
                     width: Int? = nil) -> [String] {
        var lines: [String] = []
        var firsts: [String] = []
        for (i, e) in entries.enumerated() {
            let key = keys.indices.contains(i) ? keys[i] : " "
            let prefix = "\(key)  "
            let room = width.map { max(8, $0 - margin.count - 2 - Layout.visibleWidth(prefix)) } ?? Int.max
            let rows = room == Int.max ? [e] : Layout.wrap(e, width: room)
            let indent = String(repeating: " ", count: Layout.visibleWidth(prefix))
            for (r, row) in rows.enumerated() {
                let label = (r == 0 ? prefix : indent) + row
                if r == 0 { firsts.append(label) }
                let lead = margin + (i == selected && r == 0 ? marker + " " : "  ")
                if enabled.indices.contains(i), !enabled[i] {
                    lines.append(lead + style.dim(label))
                } else {
                    lines.append(lead + (i == selected ? style.highlight(label) : label))
                }
            }
        }
        LayoutAudit.current?.menus.append((firsts.map { Layout.plain($0) }, selected))
        LayoutAudit.current?.menuKeys.append(keys)
        return lines
    }

    /// Big text centred, or its fallback.
    static func big(_ text: String, _ width: Int, _ style: Style) -> [String] {
        BlockFont.draw(text, maxWidth: max(1, width - 4)).map { style.accent(Layout.center($0, in: width)) }
    }

    static func paragraph(_ text: String, _ width: Int) -> [String] {
        Layout.wrap(text, width: max(1, width - margin.count * 2)).map { margin + $0 }
    }

    // MARK: Before a game

    public static func language(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let names = Strings.uiLanguages.map { Strings.forLanguage($0).languageName }
        let body = [""] + big(t.productName(s.chosenKind), width, style) + ["", margin + style.bold(t.chooseLanguage), ""]
            + menu(names, selected: s.menuIndex, style, keys: Strings.languageLetters)
        return frame(s, width, height, t, title: "", body: body, help: "↑/↓ · Enter")
    }

    public static func tutorial(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let pages = t.allTutorialPages
        let i = min(max(0, s.settings.tutorialPage), max(0, pages.count - 1))
        // The page; when the window is short, the blank rows go, then the
        // page dots (the title counts the pages too).
        let room = height - 2 - bottomLines(s, width, t, banner: "", help: t.tutorialHelp).count
        var text: [String] = []
        var blanks = 0
        if pages.indices.contains(i) {
            for p in pages[i].paragraphs {
                if !p.hasPrefix("• ") { text.append(""); blanks += 1 }
                text += paragraph(p, width)
            }
        }
        let dots = margin + pages.indices.map { $0 == i ? "●" : "○" }.joined(separator: " ")
        let full = 2 + text.count + 2
        if full > room { text = text.filter { !$0.isEmpty } }
        var body: [String] = full > room ? [] : [""]
        if pages.indices.contains(i) { body.append(margin + style.bold(pages[i].title)) }
        body += text
        if body.count + 2 <= room { body += ["", dots] } else if body.count + 1 <= room { body.append(dots) }
        return frame(s, width, height, t, title: t.tutorialTitle(i + 1, pages.count), body: body, help: t.tutorialHelp)
    }

    /// A player's name in a sentence: the computer's seat (`bot-hard`) by its
    /// level, "the computer (hard)" (the strings capitalise it at a
    /// sentence's start, `atStart`).
    public static func display(_ name: String, _ t: Strings) -> String {
        name.hasPrefix("bot-") ? t.computerName(String(name.dropFirst(4))) : LayoutAudit.shown(name)
    }

    /// A player's name as a label (a player chip, a list's row): "Computer (hard)".
    public static func label(_ name: String, _ t: Strings) -> String {
        name.hasPrefix("bot-") ? t.computerLabel(String(name.dropFirst(4))) : LayoutAudit.shown(name)
    }

    static func leftPad(_ s: String, _ n: Int) -> String {
        String(repeating: " ", count: max(0, n - Layout.visibleWidth(s))) + s
    }
}

/// The states rendered while it is set (a task-local): the layout test
/// collects the states the other tests draw. Never set in the app.
public final class StateLog: @unchecked Sendable {
    public var states: [ClientState] = []
    public init() {}
    @TaskLocal public static var current: StateLog?
}
