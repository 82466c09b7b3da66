import GameKit
import GhostProtocol

/// The server's command table: one row per verb with everything the server
/// knows about it, its handler, its cost and its flags, as Redis's
/// `server.c` keeps one row per command. The dispatch (`perform`), the
/// unit a command runs in (`handle`, Lobby+GameSide.swift), what a watcher
/// may not send, which commands need a name, and what a line costs the
/// sender's budget (`cost(ofLine:)`, the loop's `LineMeter`) are all read from here. Parsing, usage and help stay in the
/// protocol's `CommandTable` (GhostProtocol: no server there), whose verbs
/// are these rows' keys: a test checks that every verb HELP lists has
/// exactly one row.
enum ServerCommands {
    typealias Session = Lobby.Session
    /// A player's game and seat in it (`Lobby.State.playing`).
    typealias Seat = (game: Int, seat: Int)

    /// What the server must know of a command besides its handler.
    struct CommandFlags: OptionSet, Sendable {
        let rawValue: UInt8

        /// It only reads the store: nothing to undo, so it runs without a unit.
        static let readOnly = CommandFlags(rawValue: 1 << 0)
        /// The hot path (a letter): its unit takes no savepoint (see `runCommand`).
        static let hotPath = CommandFlags(rawValue: 1 << 1)
        /// It changes who a connection is (its name or language), which a
        /// lost turn must undo (`Recovery.identities`).
        static let identity = CommandFlags(rawValue: 1 << 2)
        /// It acts in a game: a watcher may not send it (`ERR not-in-game`;
        /// `CommandRow.watcherAllowed`).
        static let actsInGame = CommandFlags(rawValue: 1 << 3)
        /// It needs a name: before NAME (or RESUME) it is answered `ERR
        /// no-name` and nothing else, by `perform`, after the row's
        /// `checkArguments` (Protocol.md §6: the arguments come before the state).
        static let needsName = CommandFlags(rawValue: 1 << 4)
        /// Its reply shows nothing a commit changed (PING, HELP, STATS):
        /// with `--durability full` it goes out without waiting for the
        /// newest sync, unless earlier replies on its connection still wait
        /// (`ConnectionTable.servingRevealsNothing`).
        static let revealsNothing = CommandFlags(rawValue: 1 << 5)
    }

    /// One verb's row (a class: a command looks its row up and passes it on
    /// without copying it). The handler gets the command (of this verb), its
    /// sender and the sender's session as the command found it.
    final class CommandRow: Sendable {
        let verb: Verb
        /// What one such line costs the sender's budget, in units (Protocol.md
        /// §7, "What commands cost", which the protocol's `CommandSpec.cost`
        /// documents): the loop's meter reads it from the line's first word
        /// before the line is parsed (`ServerCommands.cost(ofLine:)`, `LineMeter`).
        let cost: Int
        let flags: CommandFlags
        /// `ERR no-name`'s text for a row that `needsName`.
        let noNameText: String
        /// The checks of its arguments that need the server (the kinds, the
        /// settings), which come before the name's (Protocol.md §6); false
        /// after an `ERR`. The handler may make them again: they then pass silently.
        let checkArguments: (@Sendable (Lobby, Command, ConnectionID, Session) -> Bool)?
        let handler: @Sendable (Lobby, Command, ConnectionID, Session) -> Void
        /// The handler of a row that reads nothing of the session (PING,
        /// HELP, STATS, QUIT): `perform` then only checks that the session
        /// exists, without copying it out of the table and destroying the
        /// copy, on every PING.
        let sessionless: (@Sendable (Lobby, ConnectionID) -> Void)?
        /// The handler of a row that reads only where the sender plays (the
        /// moves: LETTER, SOLVE, WORD, CHALLENGE, CONCEDE, a kind's move
        /// verb): `perform` reads its game and seat and whether it watches,
        /// in place, without copying the whole session out of its table and
        /// destroying the copy, on every letter.
        let inGame: (@Sendable (Lobby, Command, ConnectionID, Seat?) -> Void)?

        /// Whether a watcher may send it (a command that acts in a game it may not).
        var watcherAllowed: Bool { !flags.contains(.actsInGame) }

        init(verb: Verb, cost: Int, flags: CommandFlags, noNameText: String,
             checkArguments: (@Sendable (Lobby, Command, ConnectionID, Session) -> Bool)?,
             handler: @escaping @Sendable (Lobby, Command, ConnectionID, Session) -> Void) {
            self.verb = verb
            self.cost = cost
            self.flags = flags
            self.noNameText = noNameText
            self.checkArguments = checkArguments
            self.handler = handler
            sessionless = nil
            inGame = nil
        }

        /// A row whose handler reads nothing of the session but where it plays,
        /// with no checks of its arguments and no need of a name (a move: not
        /// in a game, it is answered `ERR not-in-game`).
        init(verb: Verb, cost: Int, flags: CommandFlags, inGame: @escaping @Sendable (Lobby, Command, ConnectionID, Seat?) -> Void) {
            self.verb = verb
            self.cost = cost
            self.flags = flags.subtracting(.needsName)
            noNameText = ""
            checkArguments = nil
            handler = { lobby, command, id, session in inGame(lobby, command, id, session.state.seat) }
            sessionless = nil
            self.inGame = inGame
        }

        /// A row whose handler needs neither the command's arguments nor
        /// the session, and that anyone connected may send (a watcher, a
        /// connection without a name).
        init(verb: Verb, cost: Int, flags: CommandFlags, sessionless: @escaping @Sendable (Lobby, ConnectionID) -> Void) {
            self.verb = verb
            self.cost = cost
            self.flags = flags
            noNameText = ""
            checkArguments = nil
            handler = { lobby, _, id, _ in sessionless(lobby, id) }
            self.sessionless = sessionless
            inGame = nil
        }
    }

    /// The rows, in HELP order (`Verb.allCases`).
    static let commandRows: [CommandRow] = Verb.allCases.map(commandRow)

    /// The row of `verb` (every verb has one: `commandRow(_:)` switches over
    /// all of them), looked up once per command by the verb's place in
    /// `Verb.allCases`, without hashing.
    static func row(_ verb: Verb) -> CommandRow {
        let rows = commandRows
        let i = verb.ordinal
        if rows.indices.contains(i), rows[i].verb == verb { return rows[i] }
        return verb == .kindMove ? kindMoveRow : commandRow(verb)
    }

    /// The row of the kinds' own move verbs, made once: `kindMove` is not a
    /// HELP verb, so it is not among `commandRows` (a row made at each
    /// such move was a class and a closure allocated per move).
    private static let kindMoveRow = commandRow(.kindMove)

    /// The table itself. A handler's `guard case` cannot fail: `Command.verb`
    /// gives each command its verb, and only that verb's handler gets it.
    private static func commandRow(_ verb: Verb) -> CommandRow {
        // Each row's cost is the protocol's, stated once (CommandTable.spec).
        let cost = CommandTable.spec(verb).cost
        func row(_ flags: CommandFlags = [], noName: String = "send NAME <name> first",
                 checkArguments: (@Sendable (Lobby, Command, ConnectionID, Session) -> Bool)? = nil,
                 _ handler: @escaping @Sendable (Lobby, Command, ConnectionID, Session) -> Void) -> CommandRow {
            CommandRow(verb: verb, cost: cost, flags: flags, noNameText: noName, checkArguments: checkArguments, handler: handler)
        }
        func plainRow(_ flags: CommandFlags = [], _ handler: @escaping @Sendable (Lobby, ConnectionID) -> Void) -> CommandRow {
            CommandRow(verb: verb, cost: cost, flags: flags, sessionless: handler)
        }
        func moveRow(_ flags: CommandFlags, _ handler: @escaping @Sendable (Lobby, Command, ConnectionID, Seat?) -> Void) -> CommandRow {
            CommandRow(verb: verb, cost: cost, flags: flags, inGame: handler)
        }
        switch verb {
        case .name:
            return row(.identity) { lobby, command, id, session in
                switch command {
                case .name(let name): lobby.names.setName(name, id, session)
                case let .login(name, password): lobby.accountDesk.login(name, password, id, session)
                default: break
                }
            }
        case .register:
            return row(.needsName,
                       noName: "send NAME <name> first: REGISTER registers the name you use") { lobby, command, id, session in
                if case .register(let password) = command { lobby.accountDesk.register(password, id, session) }
            }
        case .password:
            return row { lobby, command, id, session in
                if case .password(let password) = command { lobby.accountDesk.changePassword(password, id, session) }
            }
        case .names:
            return row(.readOnly) { lobby, command, id, _ in
                if case let .names(prefix, limit) = command { lobby.names(prefix: prefix, limit: limit, id) }
            }
        case .lang:
            return row(.identity) { lobby, command, id, session in
                if case .lang(let code) = command { lobby.names.setLanguage(code, id, session) }
            }
        case .set:
            return row(.identity) { lobby, command, id, session in
                if case let .set(key, value) = command { lobby.preferences.setSetting(key, value, id, session) }
            }
        case .settings:
            return row(.readOnly) { lobby, _, id, session in lobby.preferences.listSettings(id, session) }
        case .seek:
            return row(.needsName, checkArguments: { lobby, command, id, session in
                guard case .seek(let given) = command, let options = lobby.matchmaking.kindOptions(given, id) else { return false }
                return lobby.ratings.ratedOptionsHold(options, seeking: true, id, session)
                    && lobby.matchmaking.clockAllowed(options, id, seeking: true)
            }) { lobby, command, id, session in
                guard case .seek(let given) = command, let options = lobby.matchmaking.kindOptions(given, id),
                      lobby.ratings.ratedOptionsHold(options, seeking: true, id, session) else { return }
                lobby.matchmaking.seek(options, id, session)
            }
        case .new:
            return row(.needsName, checkArguments: { lobby, command, id, session in
                guard case .new(let given) = command, let options = lobby.matchmaking.kindOptions(given, id) else { return false }
                return lobby.ratings.ratedOptionsHold(options, seeking: false, id, session) && lobby.matchmaking.clockAllowed(options, id)
            }) { lobby, command, id, session in
                guard case .new(let given) = command, let options = lobby.matchmaking.kindOptions(given, id),
                      lobby.ratings.ratedOptionsHold(options, seeking: false, id, session) else { return }
                lobby.matchmaking.new(options, id, session)
            }
        case .join:
            return row(.needsName) { lobby, command, id, session in
                if case .join(let code) = command { lobby.matchmaking.join(code, id, session) }
            }
        case .leave:
            return row(.actsInGame) { lobby, _, id, session in lobby.matchmaking.leave(id, session) }
        case .restart:
            return row(.actsInGame) { lobby, _, id, session in lobby.offers.offerOrApply(kind: .restart, lang: nil, id, session) }
        case .accept:
            return row(.actsInGame) { lobby, _, id, session in lobby.offers.answerOffer(accept: true, id, session) }
        case .decline:
            // No `actsInGame`: an invitation may be declined while watching.
            return row() { lobby, command, id, session in
                if case .declineInvite(let code) = command {
                    guard session.name != nil else { return lobby.reply(id, .error(.noName, "send NAME <name> first")) }
                    return lobby.invitations.decline(code, id, session)
                }
                // An offer's DECLINE acts in a game: a watcher may not send it.
                if let watched = session.watching { return lobby.watcherRefused(watched, id) }
                lobby.offers.answerOffer(accept: false, id, session)
            }
        case .resume:
            return row() { lobby, command, id, session in
                if case .resume(let token) = command { lobby.away.resume(token, id, session) }
            }
        case .claim:
            return row(.actsInGame) { lobby, _, id, session in lobby.away.claim(id, session) }
        case .rematch:
            return row() { lobby, _, id, session in lobby.matchmaking.rematch(id, session) }
        case .games:
            return row(.readOnly) { lobby, command, id, _ in
                if case .games(let limit) = command { lobby.watching.listGames(limit, id) }
            }
        case .watch:
            return row(.readOnly) { lobby, command, id, session in
                if case .watch(let gameID) = command { lobby.watching.watch(gameID, id, session) }
            }
        case .unwatch:
            return row(.readOnly) { lobby, _, id, session in lobby.watching.unwatch(id, session) }
        case .moves:
            return row(.readOnly) { lobby, command, id, session in
                if case .moves(let gameID) = command { lobby.review.showMoves(gameID, id, session) }
            }
        case .review:
            return row(.readOnly) { lobby, command, id, session in
                if case .review(let gameID) = command { lobby.review.review(gameID, id, session) }
            }
        case .view:
            return row(.readOnly) { lobby, command, id, session in
                if case .view(let gameID) = command { lobby.views.showView(gameID, id, session) }
            }
        case .scores:
            return row(.readOnly) { lobby, command, id, _ in
                switch command {
                case .scores(let n, let board): lobby.scores.listScores(n, board: board, id)
                case let .bestGames(n, game, mode): lobby.scores.bestGames(n, game: game, mode: mode, id)
                default: break
                }
            }
        case .top:
            return row(.readOnly) { lobby, command, id, _ in
                if case let .top(n, game, variant) = command { lobby.ratings.top(n, game: game, variant: variant, id) }
            }
        case .profile:
            return row(.readOnly) { lobby, command, id, session in
                if case .profile(let name) = command { lobby.ratings.profile(name, id, session) }
            }
        case .history:
            return row(.readOnly) { lobby, command, id, session in
                if case let .history(name, limit) = command { lobby.ratings.history(name, limit: limit, id, session) }
            }
        case .hint:
            return row([.readOnly, .actsInGame]) { lobby, _, id, session in lobby.play.hint(id, session) }
        case .stats:
            return plainRow([.readOnly, .revealsNothing]) { lobby, id in lobby.stats(id) }
        case .help:
            return plainRow([.readOnly, .revealsNothing]) { lobby, id in lobby.help(id) }
        case .ping:
            return plainRow([.readOnly, .revealsNothing]) { lobby, id in lobby.reply(id, .ok(.ping)) }
        case .quit:
            return plainRow() { lobby, id in lobby.quit(id) }
        case .follow:
            return row(.needsName) { lobby, command, id, session in
                if case .follow(let name) = command { lobby.social.follow(name, id, session) }
            }
        case .unfollow:
            return row(.needsName) { lobby, command, id, session in
                if case .unfollow(let name) = command { lobby.social.unfollow(name, id, session) }
            }
        case .following:
            return row([.readOnly, .needsName]) { lobby, _, id, session in lobby.social.following(id, session) }
        case .invite:
            return row(.needsName) { lobby, command, id, session in
                if case let .invite(name, options) = command { lobby.invitations.invite(name, options, id, session) }
            }
        case .say:
            return row(.needsName) { lobby, command, id, session in
                if case .say(let text) = command { lobby.chat.say(text, id, session) }
            }
        case .block:
            return row(.needsName) { lobby, command, id, session in
                if case .block(let name) = command { lobby.social.block(name, id, session) }
            }
        case .unblock:
            return row(.needsName) { lobby, command, id, session in
                if case .unblock(let name) = command { lobby.social.unblock(name, id, session) }
            }
        case .blocks:
            return row([.readOnly, .needsName]) { lobby, _, id, session in lobby.social.listBlocks(id, session) }
        case .report:
            return row(.needsName) { lobby, command, id, session in
                if case let .report(name, reason) = command { lobby.chat.report(name, reason, id, session) }
            }
        case .kindMove:
            // A move: a kind's verb (Lobby+KindVerbs.swift), `LETTER p` the most sent line.
            return moveRow([.hotPath, .actsInGame]) { lobby, command, id, seat in
                if case let .kindMove(verb, arguments) = command { lobby.play.playKindMove(verb, arguments, id, seat) }
            }
        }
    }

}

extension Lobby {
    // MARK: Dispatch

    /// One command, through its row; `handle` (Lobby+GameSide.swift) runs
    /// it as a unit that a failed write undoes.
    func perform(_ command: Command, _ row: ServerCommands.CommandRow, from id: ConnectionID) {
        if let sessionless = row.sessionless {
            guard sessions.has(id), storeError == nil else { return }
            return sessionless(self, id)
        }
        if let inGame = row.inGame {
            guard let (seat, watching) = sessions.seatAndWatching(id), storeError == nil else { return }
            if let watched = watching, !row.watcherAllowed { return watcherRefused(watched, id) }
            return inGame(self, command, id, seat)
        }
        guard let session = sessions[id], storeError == nil else { return }
        if let watched = session.watching, !row.watcherAllowed { return watcherRefused(watched, id) }
        if let check = row.checkArguments, !check(self, command, id, session) { return }
        if session.name == nil, row.flags.contains(.needsName) { return reply(id, .error(.noName, row.noNameText)) }
        row.handler(self, command, id, session)
    }

    func watcherRefused(_ watched: Int, _ id: ConnectionID) {
        reply(id, .error(.notInGame, "you are watching game \(watched): watchers cannot play; UNWATCH to stop watching"))
    }

}

extension ServerCommands {
    // MARK: Costs

    /// A one-letter line's cost (a move's), the line the loop meters most.
    private static let letterCost = row(.kindMove).cost

    /// What the loop reads from one framed line before serving it, from its
    /// first word, without parsing it.
    struct LineFacts {
        /// Its cost: its verb's row's `cost`, a one-character line a
        /// letter's, `NAME` with a password after the name (a login, which is
        /// hashed) `passwordCost`, a blank line `blankCost`, anything else
        /// `unknownCost` (CommandTable).
        let cost: Int
        /// Its replies show nothing a commit changed: a verb flagged
        /// `revealsNothing`, a blank line. (An `ERR` never does, whatever
        /// the line: `ConnectionTable.send`.)
        let revealsNothing: Bool
    }

    /// The facts of one framed line (the loop's `LineMeter` reads its cost).
    static func facts(ofLine line: [UInt8]) -> LineFacts {
        switch CommandTable.head(ofLine: line) {
        case .blank: return LineFacts(cost: CommandTable.blankCost, revealsNothing: true)
        case .letter: return LineFacts(cost: letterCost, revealsNothing: false)
        case .login: return LineFacts(cost: CommandTable.passwordCost, revealsNothing: false)
        // Not the protocol's verb: a kind's move (whose OK shows a commit),
        // or an ERR (which never makes a connection wait for one).
        case .unknown: return LineFacts(cost: CommandTable.unknownCost, revealsNothing: false)
        case .verb(let verb):
            let i = verb.ordinal
            guard rowFacts.indices.contains(i) else { return LineFacts(cost: CommandTable.unknownCost, revealsNothing: false) }
            return rowFacts[i]
        }
    }

    /// Each verb's facts, by its place in `Verb.allCases` (looked up once per line).
    private static let rowFacts: [LineFacts] = commandRows.map {
        LineFacts(cost: $0.cost, revealsNothing: $0.flags.contains(.revealsNothing))
    }

    /// The cost of one framed line, from its first word, without parsing it
    /// (the loop's `LineMeter` reads it before the line is served).
    static func cost(ofLine line: [UInt8]) -> Int { facts(ofLine: line).cost }
}

extension Lobby {
    // MARK: Commands too small for a file of their own

    /// HELP: every command with its usage, from the protocol's table.
    func help(_ id: ConnectionID) {
        for spec in CommandTable.specs { reply(id, .helpEntry(usage: spec.synopsis, text: spec.help)) }
        for line in matchmaking.kindHelp { reply(id, line) }
        for line in kindVerbHelp { reply(id, line) }
        reply(id, .ok(.help))
    }

    /// QUIT. Leaving the connection adjourns a game; LEAVE is how to resign.
    func quit(_ id: ConnectionID) {
        reply(id, .ok(.quit))
        outbox.close(id, .quit, "goodbye")
    }

    /// NAMES [prefix] [n]. Bounded: a reply never grows with the number of names stored.
    func names(prefix: String?, limit: Int, _ id: ConnectionID) {
        guard let found = persist({ try store.recentNames(prefix: prefix, limit: min(limit, CommandParser.maxNames)) })
        else { return failed(id) }
        for n in found.names { reply(id, .nameEntry(n)) }
        reply(id, .ok(.names(count: found.names.count, more: found.more)))
    }
}

extension Lobby.State {
    /// The game and seat of a player (`.playing`), nil otherwise.
    var seat: ServerCommands.Seat? {
        if case let .playing(game, seat) = self { return (game, seat) }
        return nil
    }
}
