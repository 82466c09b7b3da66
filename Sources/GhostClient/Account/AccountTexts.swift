import GhostProtocol

/// The texts of registered names and passwords, in both languages.
public struct AccountTexts: Sendable {
    /// The language (`Strings.code`).
    public let code: String

    private var dutch: Bool { code == "nl" }

    // The main screen's entry.
    public var menuRegister: String { dutch ? "Je naam registreren" : "Register your name" }
    public var menuChangePassword: String { dutch ? "Je wachtwoord wijzigen" : "Change your password" }

    public var loginTitle: String { dutch ? "Inloggen" : "Log in" }
    public var registerTitle: String { menuRegister }
    public var changePasswordTitle: String { menuChangePassword }

    public func loginPrompt(_ name: String) -> String {
        dutch ? "De naam “\(name)” is geregistreerd. Typ het wachtwoord om als \(name) te spelen."
            : "The name “\(name)” is registered. Type its password to play as \(name)."
    }
    public func registerPrompt(_ name: String) -> String {
        dutch ? "Registreer “\(name)”: daarna speelt alleen wie het wachtwoord kent als \(name). Het wachtwoord heeft 8 tot 200 tekens; spaties mogen."
            : "Register “\(name)”: from then on, only someone who knows the password plays as \(name). The password has 8 to 200 characters; spaces are allowed."
    }
    public func changePasswordPrompt(_ name: String) -> String {
        dutch ? "Een nieuw wachtwoord voor “\(name)”: 8 tot 200 tekens; spaties mogen."
            : "A new password for “\(name)”: 8 to 200 characters; spaces are allowed."
    }
    public var passwordLabel: String { dutch ? "Wachtwoord: " : "Password: " }
    public var newPasswordLabel: String { dutch ? "Nieuw wachtwoord: " : "New password: " }
    public var againLabel: String { dutch ? "Nog een keer:     " : "Once more:    " }
    public var passwordNotShown: String {
        dutch ? "Wat je typt, wordt niet getoond en nergens bewaard." : "What you type is not shown, and never saved."
    }
    public func retryIn(_ seconds: Int) -> String {
        dutch ? "Te veel verkeerde wachtwoorden: je kunt het over \(seconds) s weer proberen."
            : "Too many wrong passwords: you can try again in \(seconds) s."
    }
    /// Enter during the wait: the password goes by itself when it ends.
    public func sendingIn(_ seconds: Int) -> String {
        dutch ? "Te veel verkeerde wachtwoorden: je wachtwoord wordt over \(seconds) s verstuurd…"
            : "Too many wrong passwords: sending yours in \(seconds) s…"
    }
    /// Why no password is sent on this connection.
    public func passwordInClear(_ server: String) -> String {
        dutch ? "Je wachtwoord zou onversleuteld over het netwerk gaan naar \(server), leesbaar voor iedereen onderweg. Start de client met --tls (de TLS-poort van de server), of met --insecure om het toch te sturen."
            : "Your password would cross the network to \(server) unencrypted, readable by anyone on the way. Start the client with --tls (the server's TLS port), or with --insecure to send it anyway."
    }
    public var loginHelp: String {
        dutch ? "typ het wachtwoord · Enter inloggen · Esc andere naam" : "type the password · Enter log in · Esc another name"
    }
    public var newPasswordHelp: String {
        dutch ? "typ het wachtwoord · Enter bevestigen · Esc terug" : "type the password · Enter confirm · Esc back"
    }

    public func accountNotice(_ n: AccountNotice) -> String {
        switch n {
        case .passwordInClear:
            dutch ? "Geen wachtwoord zonder TLS: start met --tls (of --insecure)." : "No password without TLS: start with --tls (or --insecure)."
        case .typeAPassword: dutch ? "Typ eerst het wachtwoord." : "Type the password first."
        case .passwordForm: dutch ? "Een wachtwoord heeft 8 tot 200 tekens." : "A password has 8 to 200 characters."
        case .passwordsDiffer: dutch ? "De twee waren niet gelijk: typ het nieuwe wachtwoord opnieuw." : "The two differed: type the new password again."
        case .typeItAgain: dutch ? "Typ het nog een keer, ter controle." : "Type it once more, to be sure."
        case .badPassword: dutch ? "Verkeerd wachtwoord: probeer het opnieuw." : "Wrong password: try again."
        case .tooManyAttempts(let s): retryIn(s)
        case .sendingIn(let s): sendingIn(s)
        case .registered(let name):
            dutch ? "“\(name)” is nu geregistreerd: voortaan vraagt de client het wachtwoord." : "“\(name)” is registered: from now on it needs your password."
        case .passwordChanged: dutch ? "Je wachtwoord is gewijzigd." : "Your password is changed."
        case .serverBusy: dutch ? "De server is druk met wachtwoorden: probeer het zo weer." : "The server is busy checking passwords: try again in a moment."
        }
    }

    /// A refusal about registered names, in the client's words; nil: not one of those.
    public func accountErrorText(_ code: ErrorCode) -> String? {
        switch code {
        case AccountCodes.nameRegistered:
            dutch ? "Die naam is al geregistreerd: kies een andere, of log in met het wachtwoord." : "That name is registered already: choose another, or log in with its password."
        case AccountCodes.notRegistered:
            dutch ? "Die naam is niet geregistreerd." : "That name is not registered."
        case AccountCodes.badPassword: accountNotice(.badPassword)
        case AccountCodes.badPasswordForm: accountNotice(.passwordForm)
        case AccountCodes.serverBusy: accountNotice(.serverBusy)
        case AccountCodes.passwordRequired:
            dutch ? "Die naam is geregistreerd: hij vraagt een wachtwoord." : "That name is registered: it needs its password."
        case AccountCodes.tooManyAttempts:
            dutch ? "Te veel verkeerde wachtwoorden: wacht even." : "Too many wrong passwords: wait a little."
        default: nil
        }
    }

    /// The status line when the connection was refused for good (TLS).
    public func connectionRefused(_ why: String) -> String {
        guard dutch else { return "Not connected: " + why + ". Ctrl-C quits." }
        let prefix = TLSFailure.unverified("")
        let text = why.hasPrefix(prefix)
            ? "het certificaat van de server kon niet worden gecontroleerd: " + why.dropFirst(prefix.count)
            : why
        return "Geen verbinding: " + text + ". Ctrl-C stopt."
    }
}

extension Strings {
    /// The texts of registered names texts in this language.
    public var account: AccountTexts { AccountTexts(code: code) }
}
