import GameKit
import GhostProtocol
import GhostStore

/// The lobby's records: a connection's session and what it is doing, a seek
/// queue as WAITING describes it, the last game for REMATCH, a pending offer,
/// and a game in progress (`Room`).
extension Lobby {
    /// A connection's session, a value. Every command is handed a copy of
    /// its connection's session (`perform`): what a game changes while a
    /// command runs (`state`, `last`, `watching`) is kept inline, the rest in
    /// one shared instance until a copy changes it (`Cold`, copy on write),
    /// so that the copy is a few fields and one retain, not eleven fields
    /// with their strings, dictionary and array.
    struct Session {
        var state: State = .idle
        /// The last finished game, for REMATCH.
        var last: LastGame?
        /// The game this connection watches (never while it plays, seeks or hosts).
        var watching: Int?

        /// The fields a game does not change, shared by copies until one changes.
        private final class Cold {
            var name: String?
            var lang: String
            var address: String = "" { didSet { network = NetworkKey.of(address) } }
            /// `NetworkKey.of(address)`, worked out when the address is set, not
            /// at each game's start, JOIN and cap check.
            private(set) var network: String
            var langChosen: Bool = false
            var waitingTold: [SeekKey: WaitingQueue] = [:]
            var loggedIn: String?
            var awaitingPassword: Int?
            var deferred: [LineFramer.Frame] = []

            init(name: String?, lang: String, address: String) {
                self.name = name
                self.lang = lang
                self.address = address
                network = NetworkKey.of(address)
            }

            func copy() -> Cold {
                let c = Cold(name: name, lang: lang, address: address)
                c.langChosen = langChosen
                c.waitingTold = waitingTold
                c.loggedIn = loggedIn
                c.awaitingPassword = awaitingPassword
                c.deferred = deferred
                return c
            }
        }

        private var cold: Cold

        init(name: String? = nil, lang: String, address: String = "") {
            cold = Cold(name: name, lang: lang, address: address)
        }

        /// Before a change to a cold field: its own instance, if a copy shares it.
        private mutating func ownCold() {
            if !isKnownUniquelyReferenced(&cold) { cold = cold.copy() }
        }

        var name: String? {
            get { cold.name }
            _modify { ownCold(); yield &cold.name }
        }
        var lang: String {
            get { cold.lang }
            _modify { ownCold(); yield &cold.lang }
        }
        /// The peer's address, for the per-address limit on new names ("" in tests).
        var address: String {
            get { cold.address }
            _modify { ownCold(); yield &cold.address }
        }
        /// The network the peer counts in for the caps (`NetworkKey.of(address)`:
        /// an IPv4 address, an IPv6 /64), "" for none (tests, the computer).
        var network: String { cold.network }
        /// LANG was sent before NAME: that choice becomes the name's preference.
        var langChosen: Bool {
            get { cold.langChosen }
            _modify { ownCold(); yield &cold.langChosen }
        }
        /// While seeking: the other seek queues as this seeker was last told
        /// them (WAITING), by queue; a queue it was not told of had no one.
        var waitingTold: [SeekKey: WaitingQueue] {
            get { cold.waitingTold }
            _modify { ownCold(); yield &cold.waitingTold }
        }
        /// The registered name this connection logged in to (NAME with its
        /// password, or REGISTER), if any (AccountDesk.swift).
        var loggedIn: String? {
            get { cold.loggedIn }
            _modify { ownCold(); yield &cold.loggedIn }
        }
        /// The ticket of the password job whose answer it waits for, and
        /// the lines that came meanwhile, which wait for it.
        var awaitingPassword: Int? {
            get { cold.awaitingPassword }
            _modify { ownCold(); yield &cold.awaitingPassword }
        }
        var deferred: [LineFramer.Frame] {
            get { cold.deferred }
            _modify { ownCold(); yield &cold.deferred }
        }
    }

    /// A seek queue as WAITING describes it: its kind, language and rounds,
    /// and how many wait in it.
    struct WaitingQueue: Equatable {
        var game: String
        var lang: String
        var rounds: Rounds
        var count: Int
        /// The queue's seconds per move, nil for no clock.
        var clock: Int?
        /// Ghost's variant (`super`), nil for Ghost itself.
        var variant: String? = nil
    }

    enum State: Equatable {
        case idle
        case seeking(GameOptions)
        /// `setup`: another kind's game as set up at NEW (with the host's saved settings).
        case hosting(code: String, options: GameOptions, setup: GameSetup?)
        case playing(game: Int, seat: Int)
    }

    struct LastGame: Equatable {
        let game: Int
        let lang: String
        let seat: Int
        let opponent: ConnectionID
        let match: Bool
        /// The game's kind and how it was set up: a rematch is the same game again.
        var kind: String
        var setup: GameSetup
        /// Seconds per move, nil without a clock: a rematch keeps it.
        var clock: Int? = nil
        /// Whether others could watch it (`watch=no`): a rematch keeps it.
        var watch = true
        var asked = false
    }

    /// A pending offer to restart the round (perhaps in another language).
    struct Offer: Equatable {
        var seat: Int
        var kind: OfferKind
        var lang: String?

        init(seat: Int, kind: OfferKind, lang: String?) {
            self.seat = seat
            self.kind = kind
            self.lang = lang
        }

        /// From the store; an offer of a kind this version does not know is dropped.
        init?(_ stored: StoredGame.Offer?) {
            guard let stored, let kind = OfferKind(rawValue: stored.kind) else { return nil }
            self.init(seat: stored.seat, kind: kind, lang: stored.lang)
        }

        var stored: StoredGame.Offer { StoredGame.Offer(seat: seat, kind: kind.rawValue, lang: lang) }
    }
}
