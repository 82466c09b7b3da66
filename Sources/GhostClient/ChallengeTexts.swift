import GhostProtocol

/// The texts of bluff and challenge (`variant=challenge`), in both
/// languages: the main screen's choice of game, the challenge key, the
/// answer prompt, the hints, the refusals and the ends of a game.
public struct ChallengeTexts: Sendable {
    /// The language (`Strings.code`).
    public let code: String

    /// The main screen's line for the Ghost variant of new games.
    public func variantSetting(superghost: Bool, challenge: Bool) -> String {
        guard challenge else { return SuperghostTexts(code: code).variantSetting(superghost) }
        return code == "nl" ? "Spel: Bluffen en uitdagen (v verandert dit)" : "Game: Bluff and challenge (v changes it)"
    }

    /// The key line of a game of bluff and challenge.
    public var challengeGameHelp: String {
        code == "nl" ? "a–z letter · ! uitdagen · Esc menu · ? regels · Ctrl-C stoppen (het spel wacht)"
            : "a–z letter · ! challenge · Esc menu · ? rules · Ctrl-C quit (the game waits)"
    }

    /// The key line while you are challenged.
    public var answerHelp: String {
        code == "nl" ? "a–z typ het woord · Enter stuur · - geef op · Esc menu"
            : "a–z type the word · Enter send · - concede · Esc menu"
    }

    /// The turn line when you are challenged.
    public func youAreChallenged(_ fragment: String) -> String {
        code == "nl" ? "Uitgedaagd: typ een woord dat met \(fragment) begint"
            : "Challenged: type a word that starts with \(fragment)"
    }

    /// The turn line while the opponent must answer.
    public func theyAreChallenged(_ name: String) -> String {
        code == "nl" ? "\(atStart(name)) moet een woord noemen" : "\(atStart(name)) must name a word"
    }

    /// Under the fragment: who challenged it.
    public func challengedBy(_ name: String) -> String {
        code == "nl" ? "\(atStart(name)) daagt uit" : "\(atStart(name)) challenges"
    }

    /// Under the fragment, while you answer: the word so far.
    public func yourWord(_ word: String) -> String {
        code == "nl" ? "Jouw woord: \(word)_" : "Your word: \(word)_"
    }

    /// Enter before a letter of the answer.
    public var typeTheWord: String {
        code == "nl" ? "Typ eerst de letters na het fragment, dan Enter (of - om op te geven)."
            : "Type the letters after the fragment first, then Enter (or - to concede)."
    }

    /// `OK HINT challenge=yes`.
    public var challengeHint: String {
        code == "nl" ? "Hint: met dit fragment begint geen woord. Daag uit met !"
            : "Hint: no word starts with this fragment. Challenge with !"
    }

    /// `OK HINT word=<w>`, or none (`concede=yes`).
    public func wordHint(_ word: String?) -> String {
        guard let word else {
            return code == "nl" ? "Hint: er begint geen woord mee; geef op met -" : "Hint: no word starts with it; concede with -"
        }
        return code == "nl" ? "Hint: antwoord “\(word.uppercased())”." : "Hint: answer “\(word.uppercased())”."
    }

    /// The refusals of bluff and challenge, in the screen's language.
    public func challengeErrorText(_ error: ErrorCode) -> String? {
        let nl = code == "nl"
        switch error {
        case .challengePending: return nl ? "Je bent uitgedaagd: typ een woord en Enter, of - om op te geven." : "You are challenged: type a word and Enter, or - to concede."
        case .badWord: return nl ? "Het woord moet met het fragment beginnen en langer zijn." : "The word must start with the fragment and be longer."
        case .noChallenge: return nl ? "Niemand heeft je uitgedaagd: speel een letter." : "Nobody challenged you: play a letter."
        case .emptyFragment: return nl ? "Er is nog niets om uit te dagen: speel een letter." : "Nothing to challenge yet: play a letter."
        case .wrongVariant: return nl ? "Uitdagen kan alleen in Bluffen en uitdagen." : "Challenges are only for Bluff and challenge."
        case .fragmentTooLong: return nl ? "Zo lang is geen woord: daag uit met !" : "No word is that long: challenge with !"
        default: return nil
        }
    }

    /// Why a game of bluff and challenge ended: `challenge-failed` (the
    /// challenger loses; `word` the answer) and `bluff` (the challenged
    /// player loses; `word` one that starts with the fragment, if any).
    public func challengeReason(_ reason: OverReason, loser: String, winner: String, fragment: String, word: String?) -> String? {
        let nl = code == "nl"
        let w = word.map { "“" + $0.uppercased() + "”" }
        switch reason.rawValue {
        case "challenge-failed":
            return nl ? "\(atStart(loser)) daagde \(fragment) uit, maar \(winner) noemde \(w ?? "een woord")."
                : "\(atStart(loser)) challenged \(fragment), but \(winner) named \(w ?? "a word")."
        case "bluff":
            guard let w else {
                return nl ? "\(atStart(loser)) werd uitgedaagd en noemde geen woord: met \(fragment) begint geen woord."
                    : "\(atStart(loser)) was challenged and named no word: no word starts with \(fragment)."
            }
            return nl ? "\(atStart(loser)) werd uitgedaagd en noemde geen woord; \(fragment) had \(w) kunnen worden."
                : "\(atStart(loser)) was challenged and named no word; \(fragment) could have been \(w)."
        default:
            return nil
        }
    }
}

extension Strings {
    /// Bluff and challenge's texts in this language.
    public var challenge: ChallengeTexts { ChallengeTexts(code: code) }
}
