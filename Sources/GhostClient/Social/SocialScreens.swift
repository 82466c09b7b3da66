import GhostProtocol
import GameKit

/// The screens between people: friends with presence, the names you
/// block, and the privacy settings; and what every screen's bottom rows
/// add: an invitation, the block question, the chat line and what was said.
public enum SocialScreens {
    static func social(_ sub: SocialScreen) -> Screens.Function {
        switch sub {
        case .friends: friends
        case .blocks: blocks
        case .settings: settings
        }
    }

    public static func friends(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let x = t.social
        var body = [""] + Screens.paragraph(x.friendsIntro, width) + [""]
        if let field = s.social.addField {
            body += [Screens.margin + Screens.marker + " " + style.highlight(x.addLabel + field + "_"), ""]
        }
        let help = s.social.addField == nil ? x.friendsHelp : x.addHelp
        guard let friends = s.social.friends else {
            body.append(Screens.margin + style.dim(x.friendsLoading))
            return Screens.frame(s, width, height, t, title: x.friendsTitle, right: s.myName ?? "", body: body, help: help)
        }
        if friends.isEmpty { body += Screens.paragraph(x.friendsEmpty, width) }
        let nameWidth = min(18, (friends.map { Layout.visibleWidth(LayoutAudit.shown($0.name)) }.max() ?? 0) + 2)
        let rows: [String] = friends.enumerated().map { i, f in
            let name = Layout.pad(LayoutAudit.shown(f.name), to: nameWidth)
            let presence = x.presence(f)
            let text = name + (f.online ? style.bold(presence) : style.dim(presence))
            return i == s.social.friendsCursor ? Screens.marker + " " + style.highlight(text) : "  " + text
        }
        body += window(rows, cursor: s.social.friendsCursor, s, width, height, t, help: help, above: body.count)
        return Screens.frame(s, width, height, t, title: x.friendsTitle, right: s.myName ?? "", body: body, help: help)
    }

    public static func blocks(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let x = t.social
        var body = [""] + Screens.paragraph(x.blocksIntro, width) + [""]
        guard let names = s.social.blocks else {
            body.append(Screens.margin + style.dim(x.blocksLoading))
            return Screens.frame(s, width, height, t, title: x.blocksTitle, right: s.myName ?? "", body: body, help: x.blocksHelp)
        }
        if names.isEmpty { body.append(Screens.margin + x.blocksEmpty) }
        let rows = names.enumerated().map { i, name in
            i == s.social.blocksCursor ? Screens.marker + " " + style.highlight(LayoutAudit.shown(name)) : "  " + LayoutAudit.shown(name)
        }
        body += window(rows, cursor: s.social.blocksCursor, s, width, height, t, help: x.blocksHelp, above: body.count)
        return Screens.frame(s, width, height, t, title: x.blocksTitle, right: s.myName ?? "", body: body, help: x.blocksHelp)
    }

    public static func settings(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let x = t.social
        var body = [""] + Screens.paragraph(x.settingsIntro, width) + [""]
        for row in SocialSettingRow.allCases {
            let chosen = row.rawValue == s.social.settingsRow
            let text = x.settingLabel(row) + ": " + row.values.map { v in
                let name = x.settingValue(v)
                return v == s.social.setting(row) ? "[" + name + "]" : name
            }.joined(separator: " ")
            let lines = Layout.wrap(text, width: max(10, width - Screens.margin.count - 4))
            for (i, line) in lines.enumerated() {
                let lead = i == 0 ? "\(row.rawValue + 1) " : "  "
                body.append(Screens.margin + (chosen && i == 0 ? Screens.marker + " " + style.highlight(lead + line) : "  " + lead + line))
            }
        }
        return Screens.frame(s, width, height, t, title: x.settingsTitle, right: s.myName ?? "", body: body, help: x.settingsHelp)
    }

    /// The rows of a list that fit under `above` rows, keeping the cursor's in sight.
    static func window(_ rows: [String], cursor: Int, _ s: ClientState, _ width: Int, _ height: Int, _ t: Strings,
                       help: String, above: Int) -> [String] {
        let bottom = Screens.bottomLines(s, width, t, banner: "", help: help).count
        let room = max(1, height - 2 - bottom - above)
        let start = min(max(0, cursor + 1 - room), max(0, rows.count - room))
        return rows.dropFirst(start).prefix(room).map { Screens.margin + $0 }
    }

    // MARK: Every screen's bottom rows

    /// At most `rows` rows of `text` wrapped to `width`, the last ending in "…" when more did not fit.
    static func clip(_ text: String, width: Int, rows: Int) -> String {
        let wrapped = Layout.wrap(text, width: width)
        guard wrapped.count > rows else { return text }
        var kept = Array(wrapped.prefix(rows))
        kept[rows - 1] = Layout.abbreviate(kept[rows - 1] + " …", to: width)
        return kept.joined(separator: " ")
    }

    /// The banner a screen's own gives way to: the block question, else an
    /// invitation to you (no game on screen), else the older of the last
    /// two lines of chat (a game on screen, its own banner empty).
    static func banner(_ s: ClientState, _ t: Strings, own: String, width: Int) -> String {
        if let name = s.social.confirmBlock { return t.social.confirmBlock(LayoutAudit.shown(name)) }
        guard own.isEmpty else { return own }
        if let invitation = ChatFeature.shownInvitation(s) {
            return t.social.invitation(LayoutAudit.shown(invitation.from), invitationGame(s, invitation, t))
        }
        let lines = ChatFeature.shownLines(s)
        if lines.count > 1, let first = lines.first { return clip(said(s, first, t), width: width, rows: 1) }
        return ""
    }

    /// The status line when no alert is shown: the newest line of chat in a game.
    static func status(_ s: ClientState, _ t: Strings, width: Int) -> String? {
        ChatFeature.shownLines(s).last.map { clip(said(s, $0, t), width: width, rows: 2) }
    }

    /// The key help while the chat line is open: the line being typed, then how to send it.
    /// The end of a long line is shown (the hint it is in must fit one row).
    static func chatHelp(_ s: ClientState, _ t: Strings, width: Int) -> String? {
        guard let line = s.social.chat else { return nil }
        let room = width - Layout.visibleWidth(t.social.chatPrompt) - 2
        var shown = String(line.map { $0 == "·" ? "-" : $0 })
        if Layout.visibleWidth(shown) > room {
            while !shown.isEmpty, Layout.visibleWidth(shown) > room - 1 { shown.removeFirst() }
            shown = "…" + shown
        }
        return t.social.chatPrompt + shown + "_" + " · " + t.social.chatHelp
    }

    static func said(_ s: ClientState, _ line: SaidLine, _ t: Strings) -> String {
        t.social.saidLine(LayoutAudit.shown(line.player), line.text, mine: s.isMe(line.player))
    }

    /// The invited game in a few words: its kind (and Ghost's variant), its language.
    static func invitationGame(_ s: ClientState, _ i: Invitation, _ t: Strings) -> String {
        let kind = i.fields["game"].map { GameKind(rawValue: $0) } ?? .ghost
        let name = kind == .ghost ? t.variantName(i.fields["variant"]) : s.kindName(kind, t)
        let lang = i.fields["lang"].map { " (" + t.nameOfLanguage($0) + ")" } ?? ""
        return name + lang
    }
}
