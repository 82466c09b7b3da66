/// The questions asked before anything destructive (issue #27): changing a
/// game's language restarts its round; quitting from the main screen.
extension Strings {
    public func confirmLanguage(_ language: String) -> String {
        code == "nl" ? "In het \(language) spelen en de ronde herstarten? j: ja · n: nee"
            : "Play in \(language) and restart the round? y: yes · n: no"
    }

    /// The claim prompt: with the game menu closed, Esc opens it (then 3
    /// claims); with it open, Esc would close it, so the prompt names 3
    /// (issue #27 Found 12).
    public func claimablePrompt(_ away: String, menuOpen: Bool) -> String {
        guard menuOpen else { return claimable(away) }
        return code == "nl" ? "\(atStart(away)) bleef te lang weg: 3 → de winst opeisen, of blijf wachten."
            : "\(atStart(away)) stayed away too long: 3 → claim the win, or keep waiting."
    }

    public var confirmQuit: String {
        code == "nl" ? "Het programma stoppen? j: ja · n: nee" : "Quit the program? y: yes · n: no"
    }
}

extension GameMenuItem {
    /// The item's key, the same in every game (issue #27): 1 accept, 2
    /// decline, 3 claim, 4 hint, 5 restart, 6–8 the server's languages in
    /// order, 9 leave, 0 back to the game. An item a game has no use for is
    /// left out, and the others keep their keys.
    public func key(languages: [String]) -> Int {
        switch self {
        case .accept: 1
        case .decline: 2
        case .claim: 3
        case .hint: 4
        case .restart: 5
        case .language(let code): 6 + min(2, languages.firstIndex(of: code) ?? 2)
        case .leave: 9
        case .close: 0
        }
    }
}
