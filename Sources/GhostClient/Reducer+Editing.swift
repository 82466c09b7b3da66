/// The terminal's editing keys in every text field: Ctrl-U
/// clears the field, Ctrl-W erases its last word, as in a shell. They work
/// through the field's own Backspace, one character at a time, so each
/// field keeps its rules (the name picker searches again, a password queued
/// for after a wait is no longer what is sent); with no field open they do
/// nothing, and they never send anything themselves.
extension ClientState {
    /// The text field open on this screen, as typed, if any: the name, a
    /// join code, a password, the word that answers a challenge, Hangman's
    /// answer (words apart with `/`) or a duel's word.
    var typedField: String? {
        switch screen {
        case .name: return namePicker.nameField
        case .join: return codeField
        case .account: return account.field
        case .game: return answeringChallenge ? game?.ghost?.answer : GenericFeature.typing(self) ? game?.generic?.field : nil
        case .hangman(.play):
            if let answer = hangman.answer { return answer }
            guard !hangman.confirmNew, game != nil, !gameMenuOpen, !confirmLeave, mustSetWord else { return nil }
            return hangman.wordField
        default: return nil
        }
    }

    /// Ctrl-U (`wholeField`) or Ctrl-W on the open text field.
    mutating func eraseTyped(wholeField: Bool, _ fx: inout [ClientEffect]) {
        guard let text = typedField, !text.isEmpty else { return }
        let count = wholeField ? text.count : ClientState.lastWordLength(text)
        for _ in 0..<count { key(.backspace, &fx) }
    }

    /// How many characters Ctrl-W erases: the spaces at the end, then the
    /// word before them (a shell's rule; `/` parts the words of Hangman's answer).
    static func lastWordLength(_ text: String) -> Int {
        let apart: (Character) -> Bool = { $0 == " " || $0 == "/" }
        let trailing = text.reversed().prefix(while: apart).count
        let word = text.reversed().dropFirst(trailing).prefix(while: { !apart($0) }).count
        return trailing + word
    }
}
