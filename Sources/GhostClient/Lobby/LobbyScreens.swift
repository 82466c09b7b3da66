import GhostProtocol
import GameKit

/// The screens of the lobby: typing a private game's code, waiting for an
/// opponent (hosting or seeking), and resuming a game after a reconnect.
public enum LobbyScreens {
    public static func join(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        var body = [""] + Screens.paragraph(t.joinPrompt, width) + [""]
        body.append(Screens.margin + Screens.marker + " " + style.highlight(t.codeLabel + s.codeField + "_"))
        if !s.codeField.isEmpty { body += [""] + Screens.big(s.codeField, width, style) }
        return Screens.frame(s, width, height, t, title: t.joinTitle, body: body, help: t.joinHelp)
    }

    public static func waiting(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        var body: [String] = [""]
        switch s.lobby {
        case .hosting(let code, _, _, _) where s.social.invitedCode == code:
            // An invitation (Social/): the invitee has the code already.
            body += Screens.paragraph(t.social.waitingForAnswer(LayoutAudit.shown(s.social.invitedName ?? "")), width)
        case .hosting(let code, _, let match, _):
            body += [Screens.margin + style.bold(t.hostingCode), ""] + Screens.big(code, width, style) + [""]
            body += [Layout.center(style.bold(BlockFont.spaced(code)), in: width), ""]
            body += Screens.paragraph(t.hostingHint + (match ? t.matchSuffix : ""), width)
        case .seeking(let lang, let match, let game):
            body += Screens.paragraph(s.texts(for: game, t, match: match).seeking(t.nameOfLanguage(lang)), width)
            for other in s.otherSeekers {
                // Another game's queue says which game it is.
                let texts = s.texts(for: other.game, t)
                let rounds: Rounds = other.match ? .ghost : .one
                let queue = other.game == game ? texts.queue(rounds) : texts.name + " (" + texts.queue(rounds) + ")"
                body += Screens.paragraph(t.othersWaiting(other.count, t.nameOfLanguage(other.lang), queue)
                                      + t.clock.seekersClock(other.clock) + t.seekersVariant(other.variant), width)
            }
            body += [""] + Screens.paragraph(t.seekingHint, width).map { style.dim($0) }
        case nil:
            break
        }
        // The game waited for, and for Ghost its variant, always named in the title.
        var waitingFor = ""
        switch s.lobby {
        case .seeking(_, _, let game) where game != .ghost, .hosting(_, _, _, let game) where game != .ghost:
            waitingFor = s.kindName(game, t)
        case .seeking, .hosting: waitingFor = t.variantName(superghost: s.config.superghost, challenge: s.config.challenge)
        case nil: break
        }
        return Screens.frame(s, width, height, t, title: t.waitingTitle + (waitingFor.isEmpty ? "" : " · " + waitingFor),
                     right: s.myName ?? "", body: body, help: t.waitingHelp)
    }

    public static func resuming(_ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let body = ["", Screens.margin + style.bold(t.resuming)]
        return Screens.frame(s, width, height, t, title: "", right: s.serverAddress, body: body, help: t.quitHint)
    }
}
