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

    /// Runs one command as a unit: if one of its writes fails, it is undone
    /// as a whole and answered `ERR store-failed` (RecoveryDesk.swift).
    public func handle(_ command: Command, from id: ConnectionID) {
        // Its row (Lobby+Commands.swift) says which unit it runs in.
        let row = Lobby.row(command.verb)
        if row.flags.contains(.readOnly) {
            // It only reads the store: nothing to undo, so no unit around it.
            perform(command, row, from: id)
        } else if row.flags.contains(.hotPath) {
            // The hot path: no savepoint (see `runCommand`).
            recovery.runCommand(from: id, savepoint: false) { perform(command, row, from: id) }
        } else if row.flags.contains(.identity) {
            // It changes who a connection is, which a lost turn must undo.
            recovery.runCommand(from: id, identity: sessions[id]) { perform(command, row, from: id) }
        } else {
            recovery.runCommand(from: id) { perform(command, row, from: id) }
        }
    }

    /// The turn is committed: nothing of it can be lost any more (RecoveryDesk.swift).
    public func committed() { recovery.committed() }

    /// A commit failed and the store rolled the turn back (RecoveryDesk.swift).
    public func recoverLostTurn(withdrawn: Set<ConnectionID>) { recovery.recoverLostTurn(withdrawn: withdrawn) }

    /// Set only when the lobby could not resynchronise with the store after a
    /// failed write: the server must stop (RecoveryDesk.swift).
    public var storeError: Error? { recovery.storeError }

    /// The text of `ERR store-failed` (RecoveryDesk.swift).
    static var storeFailedText: String { RecoveryDesk.storeFailedText }

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

    func runCommand(from id: ConnectionID? = nil, game: Int? = nil, identity: Session? = nil, savepoint: Bool = true,
                    _ body: () -> Void) {
        recovery.runCommand(from: id, game: game, identity: identity, savepoint: savepoint, body)
    }

    @discardableResult
    func abort(_ gameID: Int, reason: AbortReason, ack: (ConnectionID, ServerLine)? = nil) -> Bool {
        lifecycle.abort(gameID, reason: reason, ack: ack)
    }

    func underGameCaps(_ id: ConnectionID, _ session: Session) -> Bool { lifecycle.underGameCaps(id, session) }

    func network(of conn: ConnectionID) -> String { lifecycle.network(of: conn) }

    func stopWatching(_ id: ConnectionID) { watching.stopWatching(id) }

    /// Everyone watching a game, for STATS.
    var watcherTotal: Int { watching.watcherTotal }

    func adjourn(_ gameID: Int, seat: Int) { away.adjourn(gameID, seat: seat) }

    func offerOrApply(kind: OfferKind, lang: String?, _ id: ConnectionID, _ session: Session) {
        offers.offerOrApply(kind: kind, lang: lang, id, session)
    }
}
