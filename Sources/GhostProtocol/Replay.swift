
/// `MOVES` and `REVIEW`: their limits and argument.
public enum Replay {
    /// The most moves `MOVES` lists, and `REVIEW` reads: the last ones
    /// played. A G-H-O-S-T match of bluff and challenge without restarts
    /// has at most 9 rounds of at most 66 moves (a 64-letter fragment, a
    /// challenge, its answer): 594. Only restarts (against the computer they
    /// are free) could make more; the earlier moves are then left out
    /// (`more=yes`).
    public static let maxMoves = 600
}

extension CommandTable {
    /// `MOVES <id>`, `REVIEW <id>`: a game's id, a number, as `WATCH` takes it.
    static func gameID(_ args: [Substring], _ verb: Verb) -> Result<Int, ArgumentError> {
        guard args.count == 1 else { return .failure(.usage) }
        let word = args[0]
        guard (1...18).contains(word.utf8.count), word.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let id = Int(word) else {
            return .failure(.other(CommandError(.badArguments, "\(verb.rawValue) takes a game's id, a number")))
        }
        return .success(id)
    }
}
