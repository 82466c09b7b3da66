import GhostProtocol

/// The texts of games on a clock (`clock=`), in both languages: the
/// countdown on the play screens, the main screen's clock setting, and the
/// end by time (`reason=time`).
public struct ClockTexts: Sendable {
    /// The language (`Strings.code`).
    public let code: String

    /// The seconds the player to move has left: "0:23 left".
    public func clockLeft(_ seconds: Int) -> String {
        let text = ClockTexts.minutesAndSeconds(seconds)
        return code == "nl" ? "nog \(text)" : "\(text) left"
    }

    /// The countdown of a game without a clock (TURN's `abort_in=`,
    /// `claim_in=`): "aborted in 0:45 without a move", "claimable in 4:10".
    public func deadlineLeft(_ deadline: TurnDeadline, _ seconds: Int) -> String {
        let text = ClockTexts.minutesAndSeconds(seconds)
        switch (deadline, code == "nl") {
        case (.abort, true): return "afgebroken over \(text) zonder zet"
        case (.abort, false): return "aborted in \(text) without a move"
        case (.claim, true): return "op te eisen over \(text)"
        case (.claim, false): return "claimable in \(text)"
        }
    }

    /// The key line of a Ghost game on a clock: quitting adjourns the game but
    /// does not stop your clock (Protocol.md, "An absent player's clock keeps
    /// running"), so it does not say the game waits.
    public func clockGameHelp(challenge: Bool) -> String {
        switch (code == "nl", challenge) {
        case (true, true): "a–z letter · ! uitdagen · Esc menu · ? regels · Ctrl-C stoppen (je klok loopt door)"
        case (true, false): "a–z letter spelen · Esc menu · ? regels · Ctrl-C stoppen (je klok loopt door)"
        case (false, true): "a–z letter · ! challenge · Esc menu · ? rules · Ctrl-C quit (your clock keeps running)"
        case (false, false): "a–z play a letter · Esc menu · ? rules · Ctrl-C quit (your clock keeps running)"
        }
    }

    /// Printed on quitting with a game on a clock in progress.
    public var farewellClockRuns: String {
        code == "nl" ? "Je spel gaat door en je klok loopt door: start ghost-client opnieuw om verder te spelen."
            : "Your game goes on and your clock keeps running: run ghost-client again to resume it."
    }

    /// The main screen's line for the clock of new games (nil: no clock).
    public func clockSetting(_ seconds: Int?) -> String {
        if code == "nl" {
            return "Klok: " + (seconds.map { "\(ClockTexts.minutesAndSeconds($0)) per zet" } ?? "uit") + " (t)"
        }
        return "Clock: " + (seconds.map { "\(ClockTexts.minutesAndSeconds($0)) a move" } ?? "off") + " (t)"
    }

    /// After a line about other seekers: their clock, if any (" On a clock of 0:30 a move.").
    public func seekersClock(_ seconds: Int?) -> String {
        guard let seconds else { return "" }
        let text = ClockTexts.minutesAndSeconds(seconds)
        return code == "nl" ? " Met een klok van \(text) per zet." : " On a clock of \(text) a move."
    }

    /// Why a game ended: `loser` ran out of time.
    public func reasonTime(_ loser: String) -> String {
        code == "nl" ? "\(loser) had geen tijd meer." : "\(loser) ran out of time."
    }

    /// The end of a Hangman game on time, from the guesser's side (`word` revealed).
    public func youRanOutOfTime(_ word: String) -> String {
        code == "nl" ? "Je tijd is op. Het woord was “\(word)”." : "Your time ran out. The word was “\(word)”."
    }

    /// `m:ss`.
    static func minutesAndSeconds(_ seconds: Int) -> String {
        let s = max(0, seconds)
        return "\(s / 60):" + (s % 60 < 10 ? "0" : "") + "\(s % 60)"
    }
}

extension Strings {
    /// The clock's texts in this language.
    public var clock: ClockTexts { ClockTexts(code: code) }
}
