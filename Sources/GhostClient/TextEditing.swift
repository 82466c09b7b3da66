/// The terminal's editing keys in every text field: Ctrl-U
/// clears the field, Ctrl-W erases its last word, as in a shell. They work
/// through the field's own Backspace, one character at a time, so each
/// field keeps its rules (the name picker searches again, a password queued
/// for after a wait is no longer what is sent); with no field open they do
/// nothing, and they never send anything themselves.
enum TextEditing {
    /// The text field open on this screen, as typed, if any: the name, a
    /// join code, a password, the word that answers a challenge, Hangman's
    /// answer (words apart with `/`) or a duel's word.
    static func typedField(_ s: ClientState) -> String? {
        if let chat = s.social.chat { return chat }
        switch s.screen {
        case .social(.friends): return s.social.addField
        case .name: return s.namePicker.nameField
        case .join: return s.codeField
        case .account: return s.account.field
        case .game: return s.answeringChallenge ? s.game?.ghost?.answer : GenericFeature.typing(s) ? s.game?.generic?.field : nil
        case .hangman(.play):
            if let answer = s.hangman.answer { return answer }
            guard !s.hangman.confirmNew, s.game != nil, !s.gameMenuOpen, !s.confirmLeave, s.mustSetWord else { return nil }
            return s.hangman.wordField
        default: return nil
        }
    }

    /// Ctrl-U (`wholeField`) or Ctrl-W on the open text field.
    static func eraseTyped(_ st: inout ClientState, wholeField: Bool, _ fx: inout [ClientEffect]) {
        guard let text = typedField(st), !text.isEmpty else { return }
        let count = wholeField ? text.count : lastWordLength(text)
        for _ in 0..<count { st.key(.backspace, &fx) }
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
