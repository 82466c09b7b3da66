import GameKit
import GhostCore
import GhostProtocol
import GhostStore

/// What each part of the lobby's game side (GamePlay, Finishing, Offers,
/// Away, RecoveryDesk, Lifecycle, WatchDesk) has: the lobby it belongs to,
/// through which it reaches the other parts (only by their methods:
/// `lobby.away.graceLeft(table)`), and the context's services under the
/// names the lobby's code has always used for them (`LobbyPart`).
///
/// The lobby holds its parts as `let`s, built in its init before it can hand
/// itself out; it then sets each part's `lobby` (`Lobby.init`), before any
/// command, tick or restore. A part's `lobby` is `unowned(unsafe)` (the lobby
/// owns the part and outlives it). The parts a part calls on every move or
/// loop turn it holds directly, as `let`s given at init (`play.broadcast`,
/// `watching.toWatchers`): a call through one costs no reference counting,
/// where one through `lobby` retains and releases the part
/// (scripts/callgrind-letters.py). Those references run one way only
/// (Finishing, Offers → GamePlay → Away → Lifecycle; GamePlay, Away,
/// RecoveryDesk → WatchDesk), so no two parts keep each other alive.
protocol GamePart: LobbyPart {
    /// The lobby this part belongs to (it holds the part).
    var lobby: Lobby! { get }
}
