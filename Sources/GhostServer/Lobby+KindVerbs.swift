import GameKit
import GhostProtocol

/// The game kinds' move verbs (GameKit's `MoveVerb`: Ghost's `LETTER`,
/// Hangman's `SOLVE`, Word chain's `CHAIN <word>`), every move a player
/// sends: the parser reads them from the kinds' declarations (`kindVerbs`;
/// a line of one letter and `LETTER <c>` on its fast path), the command
/// table routes them here (its `kindMove` row: a move, hot path, not for
/// watchers), and the room's kind turns them into its move. The lobby names
/// no kind and no verb here.
extension Lobby {
    /// A line the protocol's parser refused: a line whose verb is one of the
    /// kinds' is that kind's move; anything else gets the parser's `ERR`, as
    /// before there were kinds' verbs. (Only lines that are not the
    /// protocol's commands come here: a one-letter line and `LETTER <c>`
    /// never do.)
    func notACommand(_ error: CommandError, _ line: [UInt8], from id: ConnectionID) {
        if error == CommandParser.unknownCommand, !kindVerbs.isEmpty {
            switch CommandParser.parse(line, kindVerbs: kindVerbs) {
            case .success(let command?): return handle(command, from: id)
            case .success(nil): return
            case .failure(let e): return reply(id, .error(e.code, e.message))
            }
        }
        reply(id, .error(error.code, error.message))
    }

    /// HELP's lines of the kinds' move verbs: `HELP <VERB> <usage> -
    /// game=<kind>: <help>`, after the kinds' NEW lines.
    var kindVerbHelp: [ServerLine] {
        kindNames.compactMap { kind(named: $0) }.flatMap { kind in
            kind.moveVerbs.filter { kindVerbs[$0.name] != nil }.map { .helpEntry(usage: $0.synopsis, text: "game=\(kind.name): \($0.help)") }
        }
    }
}

extension GamePlay {
    /// A move from a person, a kind's verb: the move it stands for in the
    /// kind of the player's game, which judges it as any move. Another
    /// kind's verb (`CHALLENGE` in Hangman, `LETTER` in Word chain) is
    /// `Move.own`, which the game refuses in its own words and with its own
    /// code, as any move it does not take.
    func playKindMove(_ verbName: String, _ arguments: [String], _ id: ConnectionID, _ at: ServerCommands.Seat?) {
        guard case let (gameID, seat)? = at, let room = rooms[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game; SEEK, NEW or JOIN one"))
        }
        let move = room.kind.moveVerbs.first { $0.name == verbName }?.move(arguments)
            ?? .own(verb: verbName, word: arguments.first ?? "")
        if let refused = room.game.refuses(move, verb: verbName, by: seat) {
            return reply(id, room.refusal(refused))
        }
        apply(move, in: room, by: seat, mover: id, verb: verbName)
    }
}
