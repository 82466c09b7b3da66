import GameKit
import GhostProtocol
import GhostStore

/// The lobby's records: a connection's session and what it is doing, a seek
/// queue as WAITING describes it, the last game for REMATCH, a pending offer,
/// and a game in progress (`Table`).
extension Lobby {
    struct Session {
        var name: String?
        var lang: String
        /// The peer's address, for the per-address limit on new names ("" in tests).
        var address = ""
        /// LANG was sent before NAME: that choice becomes the name's preference.
        var langChosen = false
        var state: State = .idle
        /// The last finished game, for REMATCH.
        var last: LastGame?
        /// While seeking: the other seek queues as this seeker was last told
        /// them (WAITING), by queue; a queue it was not told of had no one.
        var waitingTold: [String: WaitingQueue] = [:]
        /// The game this connection watches (never while it plays, seeks or hosts).
        var watching: Int?
        /// The registered name this connection logged in to (NAME with its
        /// password, or REGISTER), if any (Lobby+Accounts.swift).
        var loggedIn: String?
        /// The ticket of the password job whose answer it waits for, and
        /// the lines that came meanwhile, which wait for it.
        var awaitingPassword: Int?
        var deferred: [LineFramer.Frame] = []
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

    /// A game in progress, of any kind. A class: the hot path mutates it in
    /// place instead of copying it in and out of `tables`.
    final class Table {
        let id: Int
        let kind: any GameDefinition
        var lang: String
        /// The game as first stored: kind, variant, settings, seed, names, tokens.
        let record: NewGame
        /// The connection in each seat, nil while that player is away (or for the computer).
        var seats: [ConnectionID?] { didSet { deadlines.touch(self) } }
        /// Who sits in each seat: a person, or the computer at a level.
        let occupants: [Seat]
        /// Rounds, the score over them, and the seat that starts the round in play.
        var match: Match
        /// The round in play.
        var game: any Game { didSet { deadlines.touch(self) } }
        /// When the computer plays its next move (monotonic), if it is to move.
        var botDue: Double? { didSet { deadlines.touch(self) } }
        var offer: Offer?
        var offerSpent: [Bool]
        /// When each seat went away (monotonic), and when the current turn began.
        var awaySince: [Double?] { didSet { deadlines.touch(self) } }
        var turnSince: Double { didSet { deadlines.touch(self) } }
        /// CLAIMABLE was announced for the current absence.
        var claimAnnounced = false { didSet { deadlines.touch(self) } }
        /// After a time loss could not be stored: not before this (monotonic)
        /// is it tried again.
        var timeRetry: Double? { didSet { deadlines.touch(self) } }
        /// What the clock fields above feed: every change to them touches it.
        unowned let deadlines: Deadlines
        /// Touched since the deadlines last looked (see `Deadlines.touch`).
        var deadlineTouched = false
        /// Each seat's wins against the other in earlier games of this kind
        /// (against the computer: the person's record against it at that
        /// level and variant, ComputerRecord.swift); read from the store when
        /// first needed, nil if it could not be read.
        var rivalry: [Int]?
        var rivalryRead = false
        /// A rated game's board and ratings (Lobby+Ratings.swift): set at its
        /// start, read from the store when first needed after a reload; nil unrated.
        var rating: TableRating?
        var ratingRead = false
        /// Per seat: whether that person has made a move in this game (a
        /// game whose first move does not come is aborted: Lobby+Lifecycle.swift).
        var moved = [false, false] { didSet { deadlines.touch(self) } }

        init(id: Int, kind: any GameDefinition, lang: String, record: NewGame, seats: [ConnectionID?], occupants: [Seat],
             match: Match, game: any Game, offer: Offer?, offerSpent: [Bool], awaySince: [Double?],
             turnSince: Double, deadlines: Deadlines) {
            self.id = id
            self.kind = kind
            self.lang = lang
            self.record = record
            self.seats = seats
            self.occupants = occupants
            self.match = match
            self.game = game
            self.offer = offer
            self.offerSpent = offerSpent
            self.awaySince = awaySince
            self.turnSince = turnSince
            self.deadlines = deadlines
            deadlines.touch(self)
        }

        var names: [String] { record.players }
        var tokens: [String] { record.tokens }
        /// Seconds per move, nil for a game without a clock.
        var clock: Int? { record.clock > 0 ? record.clock : nil }
        /// Whether others may watch it (false: `NEW watch=no`).
        var open: Bool { record.watch }

        func seat(of conn: ConnectionID) -> Int? { seats.firstIndex(of: conn) }

        /// The computer's level in a seat, nil for a person.
        func bot(_ seat: Int) -> BotLevel? { occupants.indices.contains(seat) ? occupants[seat].level : nil }

        /// The computer's level, if one seat is the computer.
        var computerLevel: BotLevel? { occupants.lazy.compactMap(\.level).first }

        /// The computer's level when its name says it (`bot-hard`), for GAME's
        /// `bot=`; nil for a computer a kind names itself (`bot-hangman`).
        var namedLevel: BotLevel? {
            guard let level = computerLevel, names.contains(Lobby.botPrefix + level.rawValue) else { return nil }
            return level
        }

        /// A person whose connection is gone.
        func isAway(_ seat: Int) -> Bool { bot(seat) == nil && seats[seat] == nil }

        /// The high-score board this game counts on.
        var board: Board { Board(kind: kind.boardPrefix, computer: computerLevel, match: match.isMatch) }
    }
}
