import GameKit
import GhostProtocol

/// The server's command table: one row per verb with everything the server
/// knows about it, its handler, its cost and its flags, as Redis's
/// `server.c` keeps one row per command. The dispatch (`perform`), the
/// unit a command runs in (`handle`, Lobby+Recovery.swift) and what a watcher
/// may not send are all read from here. Parsing, usage and help stay in the
/// protocol's `CommandTable` (GhostProtocol: no server there), whose verbs
/// are these rows' keys: a test checks that every verb HELP lists has
/// exactly one row.
extension Lobby {
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
        /// It acts in a game: a watcher may not send it (`ERR not-in-game`).
        static let actsInGame = CommandFlags(rawValue: 1 << 3)
    }

    /// One verb's row. The handler gets the command (of this verb), its
    /// sender and the sender's session as the command found it.
    struct CommandRow: Sendable {
        let verb: Verb
        let flags: CommandFlags
        let handler: @Sendable (Lobby, Command, ConnectionID, Session) -> Void

        /// What one such line costs the sender's budget (Protocol.md §7):
        /// the protocol's `CommandSpec.cost`, which the loop's meter reads
        /// from the line's first word before it is parsed.
        var cost: Int { CommandTable.spec(verb).cost }
    }

    /// The rows, in HELP order (`Verb.allCases`).
    static let commandRows: [CommandRow] = Verb.allCases.map(commandRow)

    /// The row of `verb` (every verb has one: `commandRow(_:)` switches over
    /// all of them), looked up once per command by the verb's place in
    /// `Verb.allCases`, without hashing.
    static func row(_ verb: Verb) -> CommandRow {
        let rows = commandRows
        let i = ordinal(verb)
        return rows.indices.contains(i) && rows[i].verb == verb ? rows[i] : commandRow(verb)
    }

    /// The verb's place in `Verb.allCases` (HELP order); the compiler checks
    /// that every verb has one, LobbyCommandTableTests that each is right.
    static func ordinal(_ verb: Verb) -> Int {
        switch verb {
        case .name: 0
        case .register: 1
        case .password: 2
        case .names: 3
        case .lang: 4
        case .set: 5
        case .settings: 6
        case .seek: 7
        case .new: 8
        case .join: 9
        case .letter: 10
        case .solve: 11
        case .word: 12
        case .challenge: 13
        case .concede: 14
        case .leave: 15
        case .restart: 16
        case .accept: 17
        case .decline: 18
        case .resume: 19
        case .claim: 20
        case .rematch: 21
        case .games: 22
        case .watch: 23
        case .unwatch: 24
        case .moves: 25
        case .review: 26
        case .scores: 27
        case .top: 28
        case .profile: 29
        case .history: 30
        case .hint: 31
        case .stats: 32
        case .help: 33
        case .ping: 34
        case .quit: 35
        case .kindMove: 36
        }
    }

    /// The table itself. A handler's `guard case` cannot fail: `Command.verb`
    /// gives each command its verb, and only that verb's handler gets it.
    private static func commandRow(_ verb: Verb) -> CommandRow {
        func row(_ flags: CommandFlags = [], _ handler: @escaping @Sendable (Lobby, Command, ConnectionID, Session) -> Void) -> CommandRow {
            CommandRow(verb: verb, flags: flags, handler: handler)
        }
        switch verb {
        case .name:
            return row(.identity) { lobby, command, id, session in
                switch command {
                case .name(let name): lobby.setName(name, id, session)
                case let .login(name, password): lobby.login(name, password, id, session)
                default: break
                }
            }
        case .register:
            return row { lobby, command, id, session in
                if case .register(let password) = command { lobby.register(password, id, session) }
            }
        case .password:
            return row { lobby, command, id, session in
                if case .password(let password) = command { lobby.changePassword(password, id, session) }
            }
        case .names:
            return row(.readOnly) { lobby, command, id, _ in
                if case let .names(prefix, limit) = command { lobby.names(prefix: prefix, limit: limit, id) }
            }
        case .lang:
            return row(.identity) { lobby, command, id, session in
                if case .lang(let code) = command { lobby.setLanguage(code, id, session) }
            }
        case .set:
            return row(.identity) { lobby, command, id, session in
                if case let .set(key, value) = command { lobby.setSetting(key, value, id, session) }
            }
        case .settings:
            return row(.readOnly) { lobby, _, id, session in lobby.listSettings(id, session) }
        case .seek:
            return row { lobby, command, id, session in
                guard case .seek(let given) = command, let options = lobby.kindOptions(given, id),
                      lobby.ratedOptionsHold(options, seeking: true, id, session) else { return }
                lobby.seek(options, id, session)
            }
        case .new:
            return row { lobby, command, id, session in
                guard case .new(let given) = command, let options = lobby.kindOptions(given, id),
                      lobby.ratedOptionsHold(options, seeking: false, id, session) else { return }
                if options.bot != nil && options.game == nil { lobby.playComputer(options, id, session) } else { lobby.newOfKind(options, id, session) }
            }
        case .join:
            return row { lobby, command, id, session in
                if case .join(let code) = command { lobby.join(code, id, session) }
            }
        case .letter:
            return row([.hotPath, .actsInGame]) { lobby, command, id, session in
                switch command {
                case .letter(let letter): lobby.play(.letter(letter), from: id, session)
                case .front(let letter): lobby.play(.front(letter), from: id, session)
                default: break
                }
            }
        case .solve:
            return row(.actsInGame) { lobby, command, id, session in
                if case .solve(let answer) = command { lobby.play(.word(answer), from: id, session, verb: .solve) }
            }
        case .word:
            return row(.actsInGame) { lobby, command, id, session in
                if case .word(let word) = command { lobby.play(.word(word), from: id, session, verb: .word) }
            }
        case .challenge:
            return row(.actsInGame) { lobby, _, id, session in lobby.play(.challenge, from: id, session, verb: .challenge) }
        case .concede:
            return row(.actsInGame) { lobby, _, id, session in lobby.play(.concede, from: id, session, verb: .concede) }
        case .leave:
            return row(.actsInGame) { lobby, _, id, session in lobby.leave(id, session) }
        case .restart:
            return row(.actsInGame) { lobby, _, id, session in lobby.offerOrApply(kind: .restart, lang: nil, id, session) }
        case .accept:
            return row(.actsInGame) { lobby, _, id, session in lobby.answerOffer(accept: true, id, session) }
        case .decline:
            return row(.actsInGame) { lobby, _, id, session in lobby.answerOffer(accept: false, id, session) }
        case .resume:
            return row { lobby, command, id, session in
                if case .resume(let token) = command { lobby.resume(token, id, session) }
            }
        case .claim:
            return row(.actsInGame) { lobby, _, id, session in lobby.claim(id, session) }
        case .rematch:
            return row { lobby, _, id, session in lobby.rematch(id, session) }
        case .games:
            return row(.readOnly) { lobby, command, id, _ in
                if case .games(let limit) = command { lobby.listGames(limit, id) }
            }
        case .watch:
            return row(.readOnly) { lobby, command, id, session in
                if case .watch(let gameID) = command { lobby.watch(gameID, id, session) }
            }
        case .unwatch:
            return row(.readOnly) { lobby, _, id, session in lobby.unwatch(id, session) }
        case .moves:
            return row(.readOnly) { lobby, command, id, session in
                if case .moves(let gameID) = command { lobby.showMoves(gameID, id, session) }
            }
        case .review:
            return row(.readOnly) { lobby, command, id, session in
                if case .review(let gameID) = command { lobby.review(gameID, id, session) }
            }
        case .scores:
            return row(.readOnly) { lobby, command, id, _ in
                switch command {
                case .scores(let n, let board): lobby.listScores(n, board: board, id)
                case let .bestGames(n, game, mode): lobby.bestGames(n, game: game, mode: mode, id)
                default: break
                }
            }
        case .top:
            return row(.readOnly) { lobby, command, id, _ in
                if case let .top(n, game, variant) = command { lobby.top(n, game: game, variant: variant, id) }
            }
        case .profile:
            return row(.readOnly) { lobby, command, id, session in
                if case .profile(let name) = command { lobby.profile(name, id, session) }
            }
        case .history:
            return row(.readOnly) { lobby, command, id, session in
                if case let .history(name, limit) = command { lobby.history(name, limit: limit, id, session) }
            }
        case .hint:
            return row([.readOnly, .actsInGame]) { lobby, _, id, session in lobby.hint(id, session) }
        case .stats:
            return row(.readOnly) { lobby, _, id, _ in lobby.stats(id) }
        case .help:
            return row(.readOnly) { lobby, _, id, _ in lobby.help(id) }
        case .ping:
            return row(.readOnly) { lobby, _, id, _ in lobby.reply(id, .ok(.ping)) }
        case .quit:
            return row { lobby, _, id, _ in lobby.quit(id) }
        case .kindMove:
            // A kind's own move verb (Lobby+KindVerbs.swift): a move, as LETTER.
            return row([.hotPath, .actsInGame]) { lobby, command, id, session in
                if case let .kindMove(verb, arguments) = command { lobby.playKindMove(verb, arguments, id, session) }
            }
        }
    }

    // MARK: Dispatch

    /// One command, through its row; `handle` (Lobby+Recovery.swift) runs
    /// it as a unit that a failed write undoes.
    func perform(_ command: Command, _ row: CommandRow, from id: ConnectionID) {
        guard let session = sessions[id], storeError == nil else { return }
        if let watched = session.watching, row.flags.contains(.actsInGame) {
            return reply(id, .error(.notInGame, "you are watching game \(watched): watchers cannot play; UNWATCH to stop watching"))
        }
        row.handler(self, command, id, session)
    }

    // MARK: Commands too small for a file of their own

    /// HELP: every command with its usage, from the protocol's table.
    func help(_ id: ConnectionID) {
        for spec in CommandTable.specs { reply(id, .helpEntry(usage: spec.synopsis, text: spec.help)) }
        for line in kindHelp { reply(id, line) }
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
