import GameKit
import GhostProtocol

/// A game kind's own move verbs (GameKit's `MoveVerb`, Word
/// chain's `CHAIN <word>`): the parser reads them from the kinds' declarations
/// (`kindVerbs`), the command table routes them here (its `kindMove` row: a
/// move, hot path, not for watchers), and the room's kind turns them into
/// its move. The lobby names no kind and no verb here.
extension Lobby {
    /// A line the protocol's parser refused: a line whose verb is one of the
    /// kinds' is that kind's move; anything else gets the parser's `ERR`, as
    /// before there were kinds' verbs. (Only lines that are not the
    /// protocol's commands come here: the hot path never does.)
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
    /// A kind's move verb from a player: the move it stands for in the
    /// kind of the player's game, which judges it as any move. A game of
    /// another kind refuses it with its own code for a move it does not take.
    func playKindMove(_ verbName: String, _ arguments: [String], _ id: ConnectionID, _ at: ServerCommands.Seat?) {
        guard case let (gameID, seat)? = at, let room = rooms[gameID] else {
            return reply(id, .error(.notInGame, "you are not in a game; SEEK, NEW or JOIN one"))
        }
        guard let verb = room.kind.moveVerbs.first(where: { $0.name == verbName }) else {
            let owners = kindNames.filter { kind(named: $0)?.moveVerbs.contains { $0.name == verbName } == true }
            return reply(id, room.refusal(.notAMove("\(verbName) is a move of game=\(owners.joined(separator: "|")), not of game=\(room.kind.name)")))
        }
        apply(verb.move(arguments), in: room, by: seat, mover: id, kindVerb: verb.name)
    }
}
