import GhostProtocol

/// The texts of the record, in both languages: the end screen's
/// rating, the history list, the replay and its review, the profile and the
/// rating lists' leaders. They speak to the player as "you".
public struct RecordTexts: Sendable {
    /// The language (`Strings.code`).
    public let code: String

    private var dutch: Bool { code == "nl" }

    // MARK: The end screen

    /// "Your rating: 1512? (+12), provisional".
    public func yourRating(_ rating: ShownRating, change: Int?) -> String {
        let delta = change.map { " (" + RecordTexts.signed($0) + ")" } ?? ""
        let provisional = rating.provisional ? (dutch ? ", voorlopig" : ", provisional") : ""
        return (dutch ? "Je rating: " : "Your rating: ") + rating.description + delta + provisional
    }

    /// "bob: 1488 (−12)".
    public func theirRating(_ name: String, _ rating: ShownRating, change: Int?) -> String {
        name + ": " + rating.description + (change.map { " (" + RecordTexts.signed($0) + ")" } ?? "")
    }

    /// `+12`, `−12` (a real minus sign), `±0`.
    static func signed(_ n: Int) -> String { n > 0 ? "+\(n)" : n < 0 ? "−\(-n)" : "±0" }

    // MARK: During a game

    /// A rated game's mark on its play screen (GAME's `ratings=`): not
    /// "gewaardeerd", which is "appreciated".
    public var ratedMark: String { dutch ? "met rating" : "rated" }
    /// The line under the players: "Rated game", then the running score.
    public var ratedGame: String { dutch ? "Spel met rating" : "Rated game" }

    // MARK: The history list

    public var historyTitle: String { dutch ? "Je spellen" : "Your games" }
    public var historyIntro: String {
        dutch ? "Je afgelopen spellen, het nieuwste eerst. Kies er een om het opnieuw af te spelen en te zien waar het gewonnen of verloren werd."
            : "Your finished games, newest first. Choose one to replay it and see where it was won or lost."
    }
    public var historyLoading: String { dutch ? "Je spellen worden opgevraagd…" : "Asking the server for your games…" }
    public var historyEmpty: String { dutch ? "Je hebt nog geen spel uitgespeeld." : "You have not finished a game yet." }
    /// The main screen's key for the history list, in its key help when there is room.
    public var historyKeyHint: String { dutch ? "h je spellen" : "h your games" }
    public var historyHelp: String {
        dutch ? "↑/↓ kiezen · Enter afspelen · p je profiel · o profiel tegenstander · r vernieuwen · Esc terug"
            : "↑/↓ choose · Enter replay · p your profile · o opponent's profile · r refresh · Esc back"
    }

    /// How a finished game went for you: won, lost, drawn, aborted (no winner, no score), no result.
    public func historyResult(_ result: String) -> String {
        switch result {
        case "win": dutch ? "gewonnen" : "won"
        case "loss": dutch ? "verloren" : "lost"
        case "draw": dutch ? "gelijkspel" : "drawn"
        case "aborted": dutch ? "afgebroken" : "aborted"
        default: dutch ? "geen uitslag" : "no result"
        }
    }

    /// Why a game was aborted, in a few words (ABORTED's `reason=`); nil for
    /// a reason this client does not know (an abort like any other).
    public func historyAbortReason(_ reason: String) -> String? {
        switch reason {
        case "no-first-move": dutch ? "geen eerste zet op tijd" : "no first move in time"
        case "untouched": dutch ? "te lang niet gespeeld" : "nobody played it for too long"
        case "left": dutch ? "verlaten voor de eerste zet" : "left before the first move"
        default: nil
        }
    }

    /// Why a game ended, in a word or two (OVER's `reason=`).
    public func historyReason(_ reason: String) -> String {
        switch reason {
        case "word": dutch ? "een woord" : "a word"
        case "dead": dutch ? "doodlopend" : "a dead end"
        case "left": dutch ? "verlaten" : "left"
        case "abandoned": dutch ? "te lang weg" : "away too long"
        case "time": dutch ? "tijd om" : "out of time"
        case "solved": dutch ? "geraden" : "solved"
        case "hanged": dutch ? "opgehangen" : "hanged"
        case "challenge", "bluff", "no-word": dutch ? "uitgedaagd" : "challenged"
        case "challenge-failed": dutch ? "een mislukte uitdaging" : "a failed challenge"
        case "conceded": dutch ? "opgegeven" : "gave up"
        default: reason
        }
    }

    /// The opponent on a history row: "vs bob".
    public func against(_ name: String) -> String { dutch ? "tegen \(name)" : "vs \(name)" }

    /// A rating change on a history row: "rating +12".
    public func ratingChange(_ change: Int) -> String { "rating " + RecordTexts.signed(change) }

    // MARK: The replay and its review

    public func replayTitle(_ id: Int) -> String { dutch ? "Terugkijken · spel \(id)" : "Replay · game \(id)" }
    public var replayLoading: String { dutch ? "De zetten worden opgevraagd…" : "Asking the server for the moves…" }
    public var replayEmpty: String { dutch ? "In dit spel is geen zet gedaan." : "No move was made in this game." }
    public var replayEarlier: String { dutch ? "(de eerste zetten zijn weggelaten)" : "(the first moves are left out)" }
    /// The replay's key help; Hangman's review names no losing move, so its help has no `m`.
    public func replayHelp(hangman: Bool) -> String {
        if hangman {
            return dutch ? "←/→ zet terug/verder · Home/End begin/eind · r analyse · Esc terug"
                : "←/→ step back/on · Home/End start/end · r review · Esc back"
        }
        return dutch ? "←/→ zet terug/verder · Home/End begin/eind · r analyse · m de beslissende fout · Esc terug"
            : "←/→ step back/on · Home/End start/end · r review · m the losing move · Esc back"
    }
    /// "Move 3 of 7 · round 2".
    public func replayStep(_ step: Int, of count: Int, round: Int?) -> String {
        let r = round.map { dutch ? " · ronde \($0)" : " · round \($0)" } ?? ""
        if step == 0 { return (dutch ? "Het begin · \(count) zetten" : "The start · \(count) moves") + r }
        return (dutch ? "Zet \(step) van \(count)" : "Move \(step) of \(count)") + r
    }

    /// A move for people: "A", "S at the front", "a challenge", "the word “PEAR”", "gave up".
    public func playText(_ play: String) -> String {
        if play.hasPrefix("<") { return play.dropFirst().uppercased() + (dutch ? " vooraan" : " at the front") }
        // A kind's own verb: `move:<VERB>[:<word>]`, as the verb and its word.
        if play.hasPrefix("move:") {
            let parts = play.dropFirst(5).split(separator: ":", maxSplits: 1)
            guard let verb = parts.first else { return play.uppercased() }
            return parts.count > 1 ? "\(verb) “\(parts[1].uppercased())”" : String(verb)
        }
        if play.hasPrefix("word:") {
            let word = play.dropFirst(5).replacingSlashes.uppercased()
            return dutch ? "het woord “\(word)”" : "the word “\(word)”"
        }
        switch play {
        case "challenge": return dutch ? "uitdagen" : "a challenge"
        case "concede": return dutch ? "opgeven" : "giving up"
        case "hidden": return dutch ? "(verborgen)" : "(hidden)"
        default: return play.uppercased()
        }
    }

    /// "You played A" / "bob played A".
    public func playedBy(_ who: String, me: Bool, _ play: String) -> String {
        if dutch { return (me ? "Je speelde " : "\(who) speelde ") + playText(play) }
        return (me ? "You played " : "\(who) played ") + playText(play)
    }

    public var reviewAsking: String { dutch ? "De analyse wordt opgevraagd…" : "Asking the server for the review…" }
    /// The review is still being worked out: asked again by itself (`waiting`), or, once the client gave up asking, with r.
    public func reviewNotReady(waiting: Bool) -> String {
        if waiting {
            return dutch ? "De server rekent de analyse nog uit: ze verschijnt hier vanzelf zodra ze klaar is."
                : "The server is still working the review out: it appears here by itself once it is ready."
        }
        return dutch ? "De server rekent de analyse nog steeds uit: druk op r om het weer te vragen."
            : "The server is still working the review out: press r to ask again."
    }
    public func reviewOffer(hangman: Bool) -> String {
        if hangman {
            return dutch ? "Druk op r voor de analyse: bij elke gok hoeveel woorden er nog mogelijk waren, en welke letter het best te raden was."
                : "Press r for the review: at each guess, how many words were still possible, and which letter was the best guess."
        }
        return dutch ? "Druk op r voor de analyse: bij elke zet wat perfect spel ervan maakt, en de zet die het spel verloor."
            : "Press r for the review: after each move what perfect play makes of it, and the move that lost the game."
    }
    public func reviewRefused(_ code: ErrorCode) -> String {
        switch code {
        case .noReview: dutch ? "Van dit soort spel is geen analyse." : "This kind of game has no review."
        case .notOver: dutch ? "Dit spel is nog bezig: de analyse komt als het afgelopen is." : "This game is still in progress: it can be reviewed once it is over."
        case .noSuchGame: dutch ? "Dit spel is er niet (meer), of is privé." : "This game does not exist (any more), or is private."
        default: dutch ? "Geen analyse (\(code.rawValue))." : "No review (\(code.rawValue))."
        }
    }

    /// A list of moves: "R", "R or S", "R, S or T".
    func orList(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + (dutch ? " of " : " or ") + last
    }

    /// The mistake: "“Q” lost it: “R” would have won."; "A challenge lost it: …" (a sentence starts with a capital).
    public func lostIt(_ play: String, better: [String]) -> String {
        let q = RecordTexts.capitalFirst(quoted(play)), rs = orList(better.map(quoted))
        if better.isEmpty { return dutch ? "\(q) verspeelde de winst." : "\(q) lost it." }
        if dutch { return "\(q) verspeelde de winst: \(rs) had gewonnen." }
        return "\(q) lost it: \(rs) would have won."
    }

    /// A text with its first letter a capital (a sentence's start).
    static func capitalFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// A move in quotes, as the mistake line names it.
    func quoted(_ play: String) -> String {
        play.count == 1 ? "“" + play.uppercased() + "”" : playText(play)
    }

    /// What perfect play makes of the position after the move, for its mover.
    public func outcomeAfter(_ who: String, me: Bool, win: Bool) -> String {
        if dutch {
            let subject = me ? "kon je" : "kon \(who)"
            return win ? "Hierna \(subject) de winst afdwingen." : "Hierna \(subject) tegen perfect spel niet meer winnen."
        }
        let subject = me ? "you" : who
        return win ? "From here \(subject) could force a win." : "From here \(subject) could not win against perfect play."
    }

    /// The review's verdict on the whole game.
    public func firstMistake(_ step: Int, _ who: String, me: Bool) -> String {
        if dutch { return me ? "Je eerste fout was zet \(step) (m toont hem)." : "De eerste fout was zet \(step), van \(who) (m toont hem)." }
        return me ? "Your first mistake was move \(step) (m shows it)." : "The first mistake was move \(step), by \(who) (m shows it)."
    }
    public var noMistake: String { dutch ? "Niemand gaf een gewonnen stand weg." : "Nobody threw a win away." }

    /// Hangman's review of a guess against the evil computer (`family= word=`):
    /// the words it could still switch to after the guess, and one of them.
    public func familyLeft(_ n: String, word: String?) -> String {
        let words = dutch ? (n == "1" ? "1 woord" : "\(n) woorden") : (n == "1" ? "1 word" : "\(n) words")
        guard let word else {
            return dutch ? "Na deze gok kon de computer nog uit \(words) kiezen." : "After this guess the computer could still choose from \(words)."
        }
        let w = "“" + word.uppercased() + "”"
        return dutch ? "Na deze gok kon de computer nog uit \(words) kiezen, zoals \(w)."
            : "After this guess the computer could still choose from \(words), such as \(w)."
    }

    /// Hangman's review of a guess against the fair computer or in a duel
    /// (`candidates= [best=]`): the words that fitted what the guesser had
    /// seen before it, and the letter that would have told the most.
    public func bestLetter(_ letter: String?, candidates: String) -> String {
        let words = dutch ? (candidates == "1" ? "paste 1 woord" : "pasten \(candidates) woorden")
            : (candidates == "1" ? "1 word fitted" : "\(candidates) words fitted")
        let head = dutch ? "Voor deze gok \(words) bij wat bekend was" : "Before this guess \(words) what was known"
        guard let letter else { return head + "." }
        return head + (dutch ? "; de beste letter was \(letter.uppercased())." : "; the best letter was \(letter.uppercased()).")
    }

    // MARK: The profile and the leaders

    public func profileTitle(_ name: String) -> String { (dutch ? "Profiel · " : "Profile · ") + name }
    public var profileLoading: String { dutch ? "Het profiel wordt opgevraagd…" : "Asking the server for the profile…" }
    public var profileNoRatings: String {
        dutch ? "Nog geen rating: die komt na een spel met rating, tussen twee geregistreerde namen (tegen de computer nooit)."
            : "No rating yet: one comes with a rated game, between two registered names (never against the computer)."
    }
    public var profileGuest: String {
        dutch ? "Dit is een gastnaam: registreer hem om met rating te spelen." : "This is a guest's name: register it to play rated games."
    }
    public var profileHelp: String { dutch ? "t ranglijsten · Esc terug" : "t leaders · Esc back" }

    /// "1512?  ±80 · 12 games: 8 won, 4 lost".
    public func ratingRow(_ r: ProfileRating) -> String {
        let games = dutch ? (r.games == 1 ? "1 spel" : "\(r.games) spellen") : (r.games == 1 ? "1 game" : "\(r.games) games")
        let record = dutch ? "\(r.wins) gewonnen, \(r.losses) verloren" : "\(r.wins) won, \(r.losses) lost"
        return "\(r.rating) ±\(r.deviation) · \(games): \(record)"
    }
    public func bestWin(_ w: RatedWin) -> String {
        dutch ? "beste winst: tegen \(w.opponent) (\(w.rating)), spel \(w.game)" : "best win: against \(w.opponent) (\(w.rating)), game \(w.game)"
    }
    public var provisionalNote: String {
        dutch ? "? = voorlopig: nog te weinig spellen voor een vaste rating." : "? = provisional: too few games yet for a settled rating."
    }
    /// "You against bob: 2–1 (Ghost)"; `game`: the game's (and variant's) name.
    public func versusRecord(_ name: String, _ game: String, _ r: HeadToHead) -> String {
        dutch ? "Jij tegen \(name): \(r.mine)–\(r.theirs) (\(game))"
            : "You against \(name): \(r.mine)–\(r.theirs) (\(game))"
    }

    public var leadersLoading: String { dutch ? "De ranglijst wordt opgevraagd…" : "Asking the server for the leaders…" }
    /// An empty list, and who it waits for as the server says it (`OK TOP
    /// min_games= max_rd=`): "… after 10 rated games on it"; without them, in general.
    public func leadersEmpty(minGames: Int?, maxRD: Int?) -> String {
        guard let n = minGames else {
            return dutch ? "Nog niemand op deze lijst: er komen geregistreerde namen op die genoeg spellen met rating hebben gespeeld."
                : "Nobody on this list yet: it lists registered names with enough rated games."
        }
        let games = dutch ? (n == 1 ? "1 spel met rating" : "\(n) spellen met rating") : (n == 1 ? "1 rated game" : "\(n) rated games")
        if dutch {
            let settled = maxRD == nil ? "" : " en de rating niet meer voorlopig is (geen ?)"
            return "Nog niemand op deze lijst: een geregistreerde naam komt erop zodra die hier \(games) heeft gespeeld\(settled)."
        }
        let settled = maxRD == nil ? "" : " and its rating is no longer provisional (no ?)"
        return "Nobody on this list yet: a registered name is listed once it has played \(games) here\(settled)."
    }
    /// Your own way onto the list: "You: 7 more rated games to go."
    public func leadersToGo(_ n: Int) -> String {
        if dutch { return n == 1 ? "Jij: nog 1 spel met rating te gaan." : "Jij: nog \(n) spellen met rating te gaan." }
        return n == 1 ? "You: 1 more rated game to go." : "You: \(n) more rated games to go."
    }
    public var leadersHeader: (rank: String, name: String, rating: String, games: String, record: String) {
        dutch ? ("Plaats", "Naam", "Rating", "Spellen", "W–V") : ("Rank", "Name", "Rating", "Games", "W–L")
    }
    public var leadersHelp: String { dutch ? "←/→ andere lijst · Esc terug" : "←/→ another list · Esc back" }
}

extension StringProtocol {
    /// A phrase's words, stored with `/` between them, with spaces.
    var replacingSlashes: String { String(map { $0 == "/" ? " " : $0 }) }
}

extension Strings {
    /// The record's texts in this language.
    public var record: RecordTexts { RecordTexts(code: code) }

    /// A game's kind for people: Ghost, Superghost, Challenge, Hangman.
    public func gameKindName(_ game: String, _ variant: String?) -> String {
        ghostKindName(game, variant) ?? hangmanKindName(game, variant) ?? game
    }

    /// A rating list's name: Ghost, Superghost, Challenge, Hangman duel.
    public func ratingBoardName(_ board: String) -> String {
        ghostBoardName(board) ?? hangmanBoardName(board) ?? board
    }

    public func leadersTitle(_ board: String) -> String { (code == "nl" ? "Ranglijst · " : "Leaders · ") + ratingBoardName(board) }
}
