import GameKit
import GhostStore

/// A person's running record against the computer: how
/// many finished games each side has won, sent as GAME's `record=` as it is
/// between two people, so a client never counts it itself.
///
/// It is kept in the head-to-head table (`rivals`), with the computer's seat
/// name (`bot-easy` … `bot-hard`, Hangman's `bot-hangman`) as the other name,
/// so it costs one look-up at a game's start and one write at its end. The
/// computer's names start with `bot-`, which people cannot take, so no such
/// row is ever two people's. Its "kind" is the board it is kept per: the kind
/// with its variant when it has one (`ghost`, `ghost-super`,
/// `ghost-challenge`, `hangman-evil`, `hangman-fair`, `hangman-phrase`,
/// `hangman-duel`), so the computer at each level, in each variant, has its
/// own record. A match counts once, as between two people. Read by GamePlay
/// (`rivalry`) and written by Finishing (`recordFinish`).
extension GamePart {
    /// Where a game against the computer keeps its person's record: the
    /// person's seat, the row's kind, and the computer's name; nil for a
    /// game between two people (or, never, two computers).
    static func computerRival(_ room: Room) -> (person: Int, kind: String, computer: String)? {
        guard let seat = (0..<2).first(where: { room.bot($0) != nil }), room.bot(1 - seat) == nil,
              room.names.indices.contains(seat), room.names.indices.contains(1 - seat) else { return nil }
        let variant = room.record.variant
        return (1 - seat, variant.isEmpty ? room.kind.name : "\(room.kind.name)-\(variant)", room.names[seat])
    }

    /// Against the computer: each seat's wins in the person's finished games
    /// against it before this one (nil between two people). One look-up; a
    /// read that fails leaves it out, as between two people.
    func computerRecord(_ room: Room) -> [Int]? {
        guard let rival = Self.computerRival(room),
              let (mine, its) = try? store.scoreStore.headToHead(kind: rival.kind, room.names[rival.person], rival.computer)
        else { return nil }
        return rival.person == 0 ? [mine, its] : [its, mine]
    }

    /// Counts a finished game against the computer in the person's record,
    /// when the game counts for them (`--scores-for registered`: a
    /// registered name only, as on the boards). In the finish's transaction.
    func recordComputerResult(_ room: Room, winner: Int, counts: ScoringPolicy.Decision) throws {
        guard let rival = Self.computerRival(room), counts.listed.indices.contains(rival.person),
              counts.listed[rival.person], (0...1).contains(winner) else { return }
        let person = room.names[rival.person]
        try store.scoreStore.recordHeadToHead(kind: rival.kind, winner: winner == rival.person ? person : rival.computer,
                                   loser: winner == rival.person ? rival.computer : person)
    }
}

/// Two people's head-to-head record (`rivals`), read by GamePlay
/// (`rivalry`), written by Finishing, listed by PROFILE (`VERSUS`).
enum PeopleRecord {
    /// The head-to-head row's kind of a game between two people:
    /// per variant, as against the computer, for a kind people
    /// play each other in more than one variant of (its rating boards:
    /// Ghost's `ghost`, `ghost-super`, `ghost-challenge`); a kind with one
    /// such variant keeps its own name (Hangman's duels: `hangman`). Plain
    /// Ghost keeps `ghost`, so the record of games finished before this
    /// (which summed every variant) stays Ghost's.
    static func kind(_ kind: any GameDefinition, variant: String) -> String {
        kind.ratingBoards.count > 1 && !variant.isEmpty ? "\(kind.name)-\(variant)" : kind.name
    }
}
