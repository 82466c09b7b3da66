/// The password screens: logging in to a registered name, registering the
/// name in use, changing its password. What is typed shows as • only.
public enum AccountScreens {
    static func account(_ sub: AccountScreen) -> Screens.Function {
        { s, width, height, t in accountScreen(sub, s, width, height, t) }
    }

    static func accountScreen(_ sub: AccountScreen, _ s: ClientState, _ width: Int, _ height: Int, _ t: Strings) -> [String] {
        let style = Style(colour: s.colour)
        let a = s.account
        let name = (sub == .login ? a.loginName : s.myName) ?? ""
        var body = [""]
        let title: String
        switch sub {
        case .login:
            title = t.account.loginTitle
            body += Screens.paragraph(t.account.loginPrompt(name), width)
        case .register:
            title = t.account.registerTitle
            body += Screens.paragraph(t.account.registerPrompt(name), width)
        case .change:
            title = t.account.changePasswordTitle
            body += Screens.paragraph(t.account.changePasswordPrompt(name), width)
        }
        body.append("")
        guard a.transport.allowsPasswords else {
            // Nothing to type: the reason, and how to do it safely.
            body += Screens.paragraph(t.account.passwordInClear(s.serverAddress), width).map { style.warn($0) }
            return Screens.frame(s, width, height, t, title: title, right: name, body: body, help: sub == .login ? t.account.loginHelp : t.account.newPasswordHelp)
        }
        func field(_ label: String, _ count: Int, active: Bool) -> String {
            let room = max(1, width - Screens.margin.count - 2 - Layout.visibleWidth(label) - 1)
            let dots = count <= room ? String(repeating: "•", count: count) : "…" + String(repeating: "•", count: room - 1)
            let text = label + dots + (active ? "_" : "")
            return Screens.margin + (active ? Screens.marker + " " + style.highlight(text) : "  " + text)
        }
        if sub == .login {
            body.append(field(t.account.passwordLabel, a.typedCount, active: true))
        } else if let first = a.first {
            body.append(field(t.account.newPasswordLabel, first.unicodeScalars.count, active: false))
            body.append(field(t.account.againLabel, a.typedCount, active: true))
        } else {
            body.append(field(t.account.newPasswordLabel, a.typedCount, active: true))
        }
        body.append("")
        body += Screens.paragraph(t.account.passwordNotShown, width).map { style.dim($0) }
        if sub == .login, let at = a.retryAt, at > s.now {
            body.append("")
            let left = a.secondsToRetry(at: s.now)
            body += Screens.paragraph(a.sendAtRetry ? t.account.sendingIn(left) : t.account.retryIn(left), width).map { style.warn($0) }
        }
        return Screens.frame(s, width, height, t, title: title, right: name, body: body, help: sub == .login ? t.account.loginHelp : t.account.newPasswordHelp)
    }
}
