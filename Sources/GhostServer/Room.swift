import GameKit
import GhostProtocol
import GhostStore

/// One game in play, of any kind: its moves (`game`, `match`), its clocks,
/// its pending offer, who sits in each seat. Its watchers are kept apart
/// (`WatchDesk.watchers`, Watchers.swift): a failed write replaces a room.
extension Lobby {
    /// A game in progress, of any kind. A class: the hot path mutates it in
    /// place instead of copying it in and out of `rooms`.
    final class Room {
        let id: Int
        let kind: any GameDefinition
        var lang: String
        /// The game as first stored: kind, variant, settings, seed, names, tokens.
        let record: NewGame
        /// The connection in each seat, nil while that player is away (or for the computer).
        var seats: [ConnectionID?] { didSet { deadlines.touch(self) } }
        /// Who sits in each seat: a person, or the computer at a level.
        let occupants: SeatPair<Seat>
        /// Rounds, the score over them, and the seat that starts the round in play.
        var match: Match
        /// The round in play; changed only through `setGame`, which keeps
        /// `gameToMove` and `gameIsOver` in step and touches the deadlines.
        private(set) var game: any Game
        /// `game.toMove`, `game.isOver` and `game.bothToMove`, kept in step
        /// with `game` by its observer: the clocks and the turn ask them
        /// several times a move, and each question to `game` (an existential
        /// in a class) copies the whole game value first.
        private(set) var gameToMove: Int
        private(set) var gameIsOver: Bool
        private(set) var gameBothToMove: Bool
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
        unowned let deadlines: Deadlines<Room>
        /// Touched since the deadlines last looked (see `Deadlines.touch`).
        var deadlineTouched = false
        /// Its next deadline as the deadlines last set it (`Deadlines.set`).
        var deadlineAt: Double?
        /// Whether this room is the one `Rooms` holds under its id (set by
        /// `Rooms.add` and `remove` only): the deadlines ask it for every
        /// room a turn touched, without a look-up.
        var listed = false
        /// Each seat's wins against the other in earlier games of this kind
        /// (against the computer: the person's record against it at that
        /// level and variant, ComputerRecord.swift); read from the store when
        /// first needed, nil if it could not be read.
        var rivalry: SeatPair<Int>?
        var rivalryRead = false
        /// A rated game's board and ratings (RatingDesk.swift): set at its
        /// start, read from the store when first needed after a reload; nil unrated.
        var rating: RoomRating?
        var ratingRead = false
        /// Per seat: whether that person has made a move in this game (a
        /// game whose first move does not come is aborted: Lifecycle.swift).
        var moved = SeatPair(false, false) { didSet { deadlines.touch(self) } }

        init(id: Int, kind: any GameDefinition, lang: String, record: NewGame, seats: [ConnectionID?], occupants: SeatPair<Seat>,
             match: Match, game: any Game, offer: Offer?, offerSpent: [Bool], awaySince: [Double?],
             turnSince: Double, deadlines: Deadlines<Room>) {
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
            gameToMove = game.toMove
            gameIsOver = game.isOver
            gameBothToMove = game.bothToMove
            deadlines.touch(self)
        }

        /// Puts `game` in play. Asks the value in hand, not `self.game`: a
        /// question to the room's own (an existential in a class) copies it
        /// first, and this runs for every move.
        func setGame(_ game: any Game) {
            self.game = game
            gameToMove = game.toMove
            gameIsOver = game.isOver
            gameBothToMove = game.bothToMove
            deadlines.touch(self)
        }

        /// Seat `seat` plays `move` on the room's game itself: the room
        /// holds the only reference to its game's box, so the move changes it
        /// in place (a copy, `var g = room.game; try g.play(…)`, made a new
        /// box and copied the whole value, and putting it back released the
        /// old one, on every move). A move the game throws for
        /// leaves it as it was (the `Game` contract). The room changes before
        /// the store has the move: a failed write puts the game back as stored
        /// (`RecoveryDesk.resynchronise`, the sender's and the computer's game).
        func play(_ move: Move, by seat: Int) throws(MoveError) -> Outcome? {
            defer { deadlines.touch(self) }
            return try Room.play(move, by: seat, on: &game, toMove: &gameToMove, isOver: &gameIsOver, both: &gameBothToMove)
        }

        /// The move, and `toMove`, `isOver` and `bothToMove` read within the
        /// same access to the game (read from the room's property, each copied
        /// the whole value), on the game opened from its existential once (read
        /// through the existential, one of them copied the value too).
        private static func play<G: Game>(_ move: Move, by seat: Int, on game: inout G,
                                          toMove: inout Int, isOver: inout Bool, both: inout Bool) throws(MoveError) -> Outcome? {
            // A move the game throws for leaves it as it was (the `Game`
            // contract): the three stay as they are.
            let outcome = try game.play(move, by: seat)
            toMove = game.toMove
            isOver = game.isOver
            both = game.bothToMove
            return outcome
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

        /// The computer's seat when it may move now: the seat to move, or,
        /// while both seats may, the other one.
        var computerToMove: Int? {
            guard !gameIsOver else { return nil }
            if bot(gameToMove) != nil { return gameToMove }
            return gameBothToMove && bot(1 - gameToMove) != nil ? 1 - gameToMove : nil
        }

        /// Whose turn TURN names: the player to move, or both (`alice,bob`)
        /// while both seats may move.
        var turnPlayer: String { gameBothToMove ? names.joined(separator: ",") : names[gameToMove] }

        /// The computer's level, if one seat is the computer.
        var computerLevel: BotLevel? { occupants.lazy.compactMap(\.level).first }

        /// The computer's level when its name says it (`bot-hard`), for GAME's
        /// `bot=`; nil for a computer a kind names itself (`bot-hangman`).
        var namedLevel: BotLevel? {
            guard let level = computerLevel, names.contains(GamePlay.botPrefix + level.rawValue) else { return nil }
            return level
        }

        /// A person whose connection is gone.
        func isAway(_ seat: Int) -> Bool { bot(seat) == nil && seats[seat] == nil }

        /// The high-score board this game counts on.
        var board: Board { Board(kind: kind.boardPrefix, computer: computerLevel, match: match.isMatch) }
    }
}

extension Lobby.Room: DeadlineEntry {}
