import GhostProtocol

/// Pieces every game screen shares: the keyboard layout, the game menu,
/// offers, the opponent, times. (Each game draws its own board: Games/<Kind>.)
extension Screens {
    static let keyboardRows = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"]

    /// Unix seconds as "2023-11-14 22:32 UTC" (the core has no time zone).
    static func utcText(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let minute = (seconds - days * 86_400) / 60
        // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(minute / 60)):\(two(minute % 60)) UTC"
    }

    /// The game menu's entries, every one with its fixed letter; those that
    /// do not apply now dimmed, with words that say so.
    static func gameMenu(_ s: ClientState, _ g: GameInfo, _ t: Strings, _ style: Style, width: Int? = nil) -> [String] {
        let items = PlayFeature.gameMenuItems(s)
        let entries = items.map { item -> String in
            let on = PlayFeature.gameMenuEnabled(s, item)
            switch item {
            case .accept: return on ? t.menuAccept(offerText(g.offer, t)) : t.menuAcceptNone
            case .decline: return on ? t.menuDecline : t.menuDeclineNone
            case .claim: return on ? t.menuClaim(display(g.away ?? "?", t)) : t.menuClaimNone
            case .hint: return t.menuHint
            case .restart: return t.menuRestart
            case .language(let code): return on ? t.menuPlayIn(t.nameOfLanguage(code)) : t.menuPlayingIn(t.nameOfLanguage(code))
            case .leave: return t.menuLeave
            case .close: return t.menuClose
            }
        }
        return menu(entries, selected: s.menuIndex, style, enabled: items.map { PlayFeature.gameMenuEnabled(s, $0) },
                    keys: items.map { $0.letter(languages: s.serverLanguages) }, width: width)
    }

    static func offerText(_ offer: Offer?, _ t: Strings) -> String {
        guard let offer else { return "" }
        switch offer.kind {
        case .lang: return t.langOffer(t.nameOfLanguage(offer.lang ?? "?"))
        case .restart: return t.restartOffer
        }
    }

    /// " · 0:23 left" after whose turn it is, in a game on a clock; the
    /// last 10 seconds of my own move in warning colours.
    /// Without a clock, the server's countdown to an abort or a claim,
    /// the last 15 seconds of my own in warning colours.
    /// With `width`, a countdown that would not fit beside the turn's text
    /// (`turn`, without it) follows it after a line break instead.
    static func clockSuffix(_ s: ClientState, _ mover: String, _ t: Strings, _ style: Style,
                            width: Int? = nil, turn: String = "") -> String {
        if let (deadline, left) = s.deadlineLeft {
            let text = t.clock.deadlineLeft(deadline, left)
            let shown = s.isMe(mover) && left <= 15 ? style.warn(text) : style.dim(text)
            if let width, Layout.visibleWidth(turn) + 3 + Layout.visibleWidth(text) > width - 2 { return "\n" + shown }
            return " · " + shown
        }
        guard let left = s.clockLeft else { return "" }
        let text = t.clock.clockLeft(left)
        return " · " + (s.isMe(mover) && left <= 10 ? style.warn(text) : text)
    }

    static func opponent(of s: ClientState, in g: GameInfo) -> String? {
        g.players.first { !s.isMe($0) }
    }
}
