import GameKit
import GhostCore
import GhostProtocol

/// What the Lobby type keeps of the game side, whose work is done by its
/// parts (GamePart.swift): one-line forwarders, nothing else.
extension Lobby {
    // MARK: The public entries the server and the tests use

    /// The next moment the clock matters to a game, a seek queue or the
    /// watchers, if any (monotonic seconds; Away.swift).
    public var nextDeadline: Double? {
        // The store out of reach: nothing runs out; the probe is looked at once a second.
        if recovery.outage != nil { return context.monotonic + StoreOutage.probeSeconds }
        guard let presence = social.due else { return away.nextDeadline }
        return min(away.nextDeadline ?? presence, presence)
    }

    /// Everything the clock has made due (Away.swift).
    public func tick() {
        if recovery.outage != nil {
            recovery.outageTick(sendState: { game, seat in play.sendState(game, to: seat) })
            if recovery.outage == nil {
                moderation.reload()
                social.settle()
            }
            return
        }
        away.tick()
        social.tick()
    }

    /// Runs one command as a unit: if one of its writes fails, it is undone
    /// as a whole and answered `ERR store-failed` (RecoveryDesk.swift).
    /// `consuming`: `received` hands over the command it parsed, which is
    /// destroyed here as a `Command`; borrowed, the parse's whole
    /// `Result<Command?, CommandError>` was destroyed after, through the
    /// generic value witnesses of Result and Optional, on every line.
    public func handle(_ command: consuming Command, from id: ConnectionID) {
        // Its row (ServerCommands.swift) says which unit it runs in.
        let row = ServerCommands.row(command.verb)
        if recovery.outage != nil, !row.flags.contains(.revealsNothing), command.verb != .quit {
            // The store is out of reach (StoreOutage.swift): nothing that could not be stored.
            return context.reply(id, .error(.storeFailed, StoreOutage.refusedText))
        }
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
        // Names taken or given up by it: their followers are told (SocialDesk.swift).
        if sessions.names.anyTouched { social.settle() }
    }

    /// The turn is committed: nothing of it can be lost any more (RecoveryDesk.swift).
    public func committed() { recovery.committed() }

    /// A commit failed and the store rolled the turn back (RecoveryDesk.swift).
    public func recoverLostTurn(withdrawn: Set<ConnectionID>) {
        recovery.recoverLostTurn(withdrawn: withdrawn, sendState: { game, seat in play.sendState(game, to: seat) })
        moderation.reload()
        social.settle()
    }

    /// Set only when the lobby could not resynchronise with SQLite's store
    /// after a failed write: the server must stop (RecoveryDesk.swift).
    /// PostgreSQL out of reach is an outage instead (StoreOutage.swift).
    public var storeError: Error? { recovery.storeError }

    /// The text of `ERR store-failed` (RecoveryDesk.swift).
    static var storeFailedText: String { RecoveryDesk.storeFailedText }
}
