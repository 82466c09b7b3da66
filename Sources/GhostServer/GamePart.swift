import GameKit
import GhostCore
import GhostProtocol
import GhostStore

/// What each part of the lobby's game side (GamePlay, Finishing, Offers,
/// Away, RecoveryDesk, Lifecycle, WatchDesk) has: the context's services
/// under the names the lobby's code has always used for them (`LobbyPart`),
/// and the rooms (`Rooms`, the registry of the games in play).
///
/// A part holds the parts it uses as `let`s, given at its init, one way
/// only: no part holds the lobby or a part above it (docs/architecture.md,
/// "Inside the lobby", draws the graph). A call on a `let` reference costs
/// no reference counting (scripts/callgrind-letters.py), where one through
/// a property of the lobby retained and released the part.
///
/// What a game part works out from the context and a room alone (the
/// countdowns, TURN) is here, in this protocol's extension, so that any
/// part may say it without a reference to the part that used to own it.
protocol GamePart: LobbyPart {
    /// The games in play (the lobby's registry, Rooms.swift).
    var rooms: Rooms { get }
}

extension GamePart {
    // MARK: Countdowns

    /// Seconds the absent player to move has left, or the full grace period
    /// if the clock is not running.
    func graceLeft(_ room: Room) -> Int {
        guard let deadline = room.claimDeadline(settings) else { return Int(settings.graceSeconds.rounded(.up)) }
        return max(0, Int((deadline - clock.monotonic).rounded(.up)))
    }

    /// The seconds the person to move has left (TURN's `clock=`), rounded
    /// up; nil when `clockDeadline` is.
    func clockLeft(_ room: Room) -> Int? {
        guard let deadline = room.clockDeadline() else { return nil }
        return max(0, Int((deadline - clock.monotonic).rounded(.up)))
    }

    /// A TURN's countdown in a game without a clock: the seconds
    /// left for the mover's first move before the game is aborted, or before
    /// the opponent may claim a game the mover stalls in. Nil when neither
    /// applies (a clock, the computer to move, the mover away: ADJOURNED's
    /// `grace=` counts that).
    func deadlineLeft(_ room: Room) -> TurnDeadline? {
        if let due = room.firstMoveDeadline(settings) {
            return .abort(max(0, Int((due - clock.monotonic).rounded(.up))))
        }
        if let due = room.stallDeadline(settings) {
            return .claim(max(0, Int((due - clock.monotonic).rounded(.up))))
        }
        return nil
    }

    // MARK: TURN

    /// TURN as the full state gives it: with the kind's state fields (Ghost's `last=`).
    func stateTurnLine(_ room: Room) -> ServerLine { stateTurnLine(room, room.game) }

    /// The same, with the room's game value in hand (`room.game`, copied once by the caller).
    func stateTurnLine(_ room: Room, _ game: any Game) -> ServerLine {
        let state = game.stateFields(names: room.names)
        return state.isEmpty ? turnLine(room, game)
            : .turn(id: room.id, player: room.turnPlayer,
                    fields: GamePlay.joined(GamePlay.joined(game.publicFields, room.kind.matchFields(room.match)), state),
                    clock: clockLeft(room), deadline: room.clock == nil ? deadlineLeft(room) : nil)
    }

    func turnLine(_ room: Room) -> ServerLine { turnLine(room, room.game) }

    /// TURN with the room's game value in hand: a move has it already (`apply`'s
    /// `game`, now the room's), and asking `room.game` would copy it again.
    func turnLine(_ room: Room, _ game: any Game) -> ServerLine {
        .turn(id: room.id, player: room.turnPlayer, fields: GamePlay.joined(game.publicFields, room.kind.matchFields(room.match)),
              clock: clockLeft(room), deadline: room.clock == nil ? deadlineLeft(room) : nil)
    }
}

/// A game part that tells a game's seats and watchers (GamePlay, Finishing,
/// Offers' play, Lifecycle, Away): it holds the watchers' part.
protocol Broadcasting: GamePart {
    var watching: WatchDesk { get }
}

extension Broadcasting {
    /// One line to every person seated at the game, rendered once, and to
    /// its watchers. Nothing sent here may be secret or meant for one seat.
    func broadcast(_ gameID: Int, _ line: ServerLine) {
        guard let room = rooms[gameID] else { return }
        broadcast(room, line)
    }

    /// The same, for a room in hand (the room in `rooms` under its id): a move
    /// and a game's end broadcast several lines, each looked up again before.
    func broadcast(_ room: Room, _ line: ServerLine) {
        outbox.send(line, toEach: room.seats)
        watching.toWatchers(room.id, line)
    }
}
