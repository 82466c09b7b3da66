import GameKit
import GhostCore
import GhostProtocol

/// What the Lobby type keeps of the game side, whose work is done by its
/// parts (GamePart.swift): one-line forwarders, nothing else.
extension Lobby {
    // MARK: The public entries the server and the tests use

    /// The next moment the clock matters to a game, a seek queue or the
    /// watchers, if any (monotonic seconds; Away.swift).
    public var nextDeadline: Double? { away.nextDeadline }

    /// Everything the clock has made due (Away.swift).
    public func tick() { away.tick() }

    // MARK: Called by the lobby side's code (Lobby.swift, Lobby+Seeking.swift, Lobby+Review.swift…)
    // While the lobby side is split apart (`splitdesk`), its code calls these
    // as Lobby methods; at the merge its calls go to the parts directly
    // (`lobby.play.startGame(…)`) and these go.

    /// Names of the computer's seats (GamePlay.botPrefix).
    static var botPrefix: String { GamePlay.botPrefix }

    static func roundSeed(_ seed: UInt64, round: Int) -> UInt64 { GamePlay.roundSeed(seed, round: round) }

    @discardableResult
    func startGame(lang: String, people: [ConnectionID], options: GameOptions, kind given: (any GameDefinition)? = nil,
                   setup prepared: GameSetup? = nil, ack: ((any Game) -> Void)? = nil) -> Bool {
        play.startGame(lang: lang, people: people, options: options, kind: given, setup: prepared, ack: ack)
    }

    @discardableResult
    func finish(_ gameID: Int, loser: Int, reason: EndReason, ack: (ConnectionID, ServerLine)? = nil, info: String? = nil) -> Bool {
        play.finish(gameID, loser: loser, reason: reason, ack: ack, info: info)
    }

    func adjourn(_ gameID: Int, seat: Int) { away.adjourn(gameID, seat: seat) }

    func offerOrApply(kind: OfferKind, lang: String?, _ id: ConnectionID, _ session: Session) {
        offers.offerOrApply(kind: kind, lang: lang, id, session)
    }
}
