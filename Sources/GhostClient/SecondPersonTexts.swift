import GhostProtocol

/// Sentences about the player reading the screen, in the second person:
/// "You completed “ZOOK”…", never "carol completed “ZOOK”…" on
/// carol's own screen. Each says why, as the third-person ones do.
public struct SecondPersonTexts: Sendable {
    /// The language (`Strings.code`).
    public let code: String

    /// Why a game or round ended, when the loser is the reader; nil for a
    /// reason without such a sentence (the third-person one is used).
    public func youLost(_ reason: OverReason, fragment: String, winner: String, word: String?, superghost: Bool) -> String? {
        let nl = code == "nl"
        let w = word.map { "“" + $0.uppercased() + "”" }
        switch reason.rawValue {
        case OverReason.word.rawValue:
            return nl ? "Je maakte \(fragment), een woord van meer dan 3 letters." : "You completed \(fragment), a word of more than 3 letters."
        case OverReason.dead.rawValue:
            if superghost { return nl ? "Je maakte \(fragment): geen woord bevat dat." : "You made \(fragment): no word contains it." }
            return nl ? "Je maakte \(fragment): daar gaat geen woord mee verder." : "You made \(fragment): no word continues it."
        case OverReason.left.rawValue:
            return nl ? "Je hebt het spel verlaten." : "You left the game."
        case OverReason.abandoned.rawValue:
            return nl ? "Je bleef te lang weg; \(winner) eiste de winst op." : "You stayed away too long; \(winner) claimed the game."
        case OverReason.time.rawValue:
            return nl ? "Je tijd was op." : "You ran out of time."
        case "challenge-failed":
            return nl ? "Je daagde \(fragment) uit, maar \(winner) noemde \(w ?? "een woord")."
                : "You challenged \(fragment), but \(winner) named \(w ?? "a word")."
        case "bluff":
            guard let w else {
                return nl ? "Je werd uitgedaagd en noemde geen woord: met \(fragment) begint geen woord."
                    : "You were challenged and named no word: no word starts with \(fragment)."
            }
            return nl ? "Je werd uitgedaagd en noemde geen woord; \(fragment) had \(w) kunnen worden."
                : "You were challenged and named no word; \(fragment) could have been \(w)."
        default:
            return nil
        }
    }

    /// Why a game or round ended, when the winner is the reader and the
    /// sentence names the winner: "bob stayed away too
    /// long; you claimed the game." on your screen, never "…; alice claimed";
    /// nil for a reason whose sentence names only the loser.
    public func youWon(_ reason: OverReason, loser: String, fragment: String, word: String?) -> String? {
        let nl = code == "nl"
        let w = word.map { "“" + $0.uppercased() + "”" }
        switch reason.rawValue {
        case OverReason.abandoned.rawValue:
            return nl ? "\(atStart(loser)) bleef te lang weg; jij eiste de winst op." : "\(atStart(loser)) stayed away too long; you claimed the game."
        case "challenge-failed":
            return nl ? "\(atStart(loser)) daagde \(fragment) uit, maar jij noemde \(w ?? "een woord")."
                : "\(atStart(loser)) challenged \(fragment), but you named \(w ?? "a word")."
        default:
            return nil
        }
    }

    /// A sentence after a colon ("Last round: you made …"): its first word
    /// in lower case when it is "You"/"Je"/"Jij" or "The"/"De" (a name keeps its case).
    public func afterColon(_ text: String) -> String {
        let first = text.prefix { $0 != " " }
        guard ["You", "Je", "Jij", "The", "De"].contains(String(first)) else { return text }
        return first.lowercased() + text.dropFirst(first.count)
    }

    /// After the reason a round of a match ended: the letter the reader earns.
    public func youEarn(_ letter: String) -> String {
        code == "nl" ? "Je krijgt de letter \(letter)." : "You earn the letter \(letter)."
    }

    /// The end of a match the reader lost.
    public var youSpelledGhost: String { code == "nl" ? "Je hebt GHOST vol." : "You spelled GHOST." }

    /// The reader's last letter: "You played E".
    public func youPlayed(_ letter: String) -> String {
        code == "nl" ? "Jij speelde \(letter)" : "You played \(letter)"
    }

    /// Hangman: the reader's last guess.
    public func youGuessed(_ guess: String, hit: Bool) -> String {
        code == "nl" ? "Je raadde \(guess): \(hit ? "raak" : "mis")" : "You guessed \(guess): \(hit ? "hit" : "miss")"
    }
}

extension Strings {
    /// The second-person texts in this language.
    public var secondPerson: SecondPersonTexts { SecondPersonTexts(code: code) }
}
