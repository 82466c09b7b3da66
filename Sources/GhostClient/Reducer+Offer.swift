import GhostWire

/// An opponent's offer (restart the round, play in another language) takes
/// one key to answer. Letters are moves on the board,
/// so the answer is not y/n: Enter accepts and Backspace (or Delete)
/// declines, the yes and no of every question the client asks (quit, leave,
/// a language change, Hangman's new game). Letters keep playing while the
/// offer stands, and a move declines it, as the server has it: an offer that
/// arrives while you type can never turn a letter into an answer.
extension ClientState {
    /// How the opponent's pending offer is answered now; nil with none to
    /// answer (none, my own, a watcher's view, a question open).
    public var offerKeys: OfferKeys? {
        guard let g = game, !g.watching, let offer = g.offer, !isMe(offer.player),
              !confirmLeave, confirmLanguage == nil, !confirmQuit else { return nil }
        if gameMenuOpen { return .menuOpen }
        // A word typed takes Enter (send) and Backspace (erase): the menu answers.
        if answeringChallenge || g.generic?.typesText == true || hangman.answer != nil || hangman.confirmNew || (g.hangman != nil && mustSetWord) { return .viaMenu }
        return .oneKey
    }

}
