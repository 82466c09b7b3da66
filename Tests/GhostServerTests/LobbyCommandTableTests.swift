import Testing
import TestSupport
import GhostProtocol
@testable import GhostServer

/// The server's command table (ServerCommands.swift): one row per verb,
/// from which the dispatch, the unit each command runs in and what a
/// watcher may not send are read.
@Suite(.ownThread) struct LobbyCommandTableTests {
    @Test func everyVerbHelpListsHasExactlyOneRow() {
        let helpVerbs = Command.helpLines.map { String($0.usage.split(separator: " ")[0]) }
        #expect(helpVerbs.count == ServerCommands.commandRows.count)
        for verb in helpVerbs {
            #expect(ServerCommands.commandRows.filter { $0.verb.rawValue == verb }.count == 1, "\(verb)")
        }
        for (i, verb) in Verb.allCases.enumerated() {
            #expect(verb.ordinal == i, "\(verb)")
            #expect(ServerCommands.row(verb).verb == verb)
        }
        #expect(MemoryLayout<Verb>.size == 1 && Verb.kindMove.ordinal == Verb.allCases.count)
    }

    /// The flags, verb by verb: what the four switches they replace said.
    @Test func flagsAreTheOnesTheSwitchesHad() {
        func verbs(_ flag: ServerCommands.CommandFlags) -> Set<String> {
            Set(ServerCommands.commandRows.filter { $0.flags.contains(flag) }.map(\.verb.rawValue))
        }
        #expect(verbs(.readOnly) == ["PING", "HELP", "NAMES", "SCORES", "SETTINGS", "HINT", "STATS", "GAMES", "WATCH",
                                     "UNWATCH", "TOP", "PROFILE", "HISTORY", "MOVES", "REVIEW", "VIEW", "FOLLOWING", "BLOCKS"])
        // Moves are the kinds' verbs, one row (`kindMove`, below).
        #expect(verbs(.hotPath) == [])
        #expect(verbs(.identity) == ["NAME", "LANG", "SET"])
        // DECLINE acts in a game when it answers an offer, and its handler
        // refuses a watcher that; `DECLINE <code>` answers an invitation, which a watcher may.
        #expect(verbs(.actsInGame) == ["LEAVE", "RESTART", "ACCEPT", "CLAIM", "HINT"])
        #expect(verbs(.needsName) == ["REGISTER", "SEEK", "NEW", "JOIN", "FOLLOW", "UNFOLLOW", "FOLLOWING", "INVITE", "SAY",
                                      "BLOCK", "UNBLOCK", "BLOCKS", "REPORT"])
        // What a watcher may send: every command that does not act in a game.
        #expect(Set(ServerCommands.commandRows.filter { !$0.watcherAllowed }.map(\.verb.rawValue)) == verbs(.actsInGame))
    }

    /// Each row's cost is the protocol's (the loop meters a line by it before parsing).
    @Test func costsAreTheProtocols() {
        for row in ServerCommands.commandRows { #expect(row.cost == CommandTable.spec(row.verb).cost) }
        #expect(ServerCommands.row(.ping).cost == 1)
        #expect(ServerCommands.row(.kindMove).cost == 1)
    }

    /// The loop's meter reads a line's cost from the rows, from its first
    /// word, before the line is parsed; it is what the protocol documents.
    @Test func theMeterReadsTheRowsCosts() {
        for row in ServerCommands.commandRows {
            for line in [row.verb.rawValue, row.verb.rawValue.lowercased() + " x", " \t" + row.verb.rawValue + " x y"]
            where !(row.verb == .name && line.hasSuffix(" x y")) {
                #expect(LineMeter.fixedCost(.line(Array(line.utf8))) == row.cost, "\(line)")
            }
        }
        let lines = ["", "  ", "e", "7", "NAME ann", "NAME ann ", "name ann secret password", "NAME ann x", "FROBNICATE",
                     "frobnicatexyz", "LETTERS a", "é", "sëek", "PING"]
        for line in lines {
            #expect(ServerCommands.cost(ofLine: Array(line.utf8)) == CommandTable.cost(ofLine: Array(line.utf8)), "\(line)")
        }
        #expect(LineMeter.fixedCost(.line(Array("NAME ann secret password".utf8))) == CommandTable.passwordCost)
        #expect(LineMeter.fixedCost(.line(Array("e".utf8))) == ServerCommands.row(.kindMove).cost)
        // A kind's move verb is no protocol verb: it costs a move's, as an unknown line.
        #expect(LineMeter.fixedCost(.line(Array("LETTER e front".utf8))) == ServerCommands.row(.kindMove).cost)
        #expect(LineMeter.fixedCost(.tooLong) == CommandTable.tooLongCost)
    }

    /// A well-formed line of each verb, sent before NAME.
    static let beforeName: [Verb: String] = [
        .name: "NAME ann", .register: "REGISTER a-good-password", .password: "PASSWORD a-good-password",
        .names: "NAMES", .lang: "LANG en", .set: "SET lang en", .settings: "SETTINGS", .seek: "SEEK", .new: "NEW bot=easy",
        .join: "JOIN ABCDEFGH", .leave: "LEAVE", .restart: "RESTART", .accept: "ACCEPT", .decline: "DECLINE",
        .resume: "RESUME abcdefabcdefabcdefabcdef", .claim: "CLAIM", .rematch: "REMATCH", .games: "GAMES", .watch: "WATCH 1",
        .unwatch: "UNWATCH", .moves: "MOVES 1", .review: "REVIEW 1", .view: "VIEW 1", .scores: "SCORES", .top: "TOP", .profile: "PROFILE bob",
        .history: "HISTORY bob", .hint: "HINT", .stats: "STATS", .help: "HELP", .ping: "PING", .quit: "QUIT",
        .follow: "FOLLOW bob", .unfollow: "UNFOLLOW bob", .following: "FOLLOWING", .invite: "INVITE bob", .say: "SAY hello",
        .block: "BLOCK bob", .unblock: "UNBLOCK bob", .blocks: "BLOCKS", .report: "REPORT bob rude",
    ]

    /// `needsName`: before NAME, a command of a row that needs a name is
    /// answered exactly `ERR no-name` and nothing is done; every other
    /// command is served (whatever its answer, it is not `no-name`).
    @Test func needsNameBeforeName() throws {
        #expect(Set(Self.beforeName.keys) == Set(Verb.allCases))
        for verb in Verb.allCases {
            let h = try Harness()
            h.connect(1)
            _ = h.drain()
            guard let line = Self.beforeName[verb] else { continue }
            h.send(1, line)
            let d = h.drain()
            let row = ServerCommands.row(verb)
            if row.flags.contains(.needsName) {
                #expect(d == [1: ["ERR no-name " + row.noNameText]], "\(line)")
                #expect(h.lobby.activeGames == 0 && !h.lobby.isIdentified(1))
            } else {
                #expect(d[1]?.isEmpty == false, "\(line)")
                #expect(d[1]?.contains { $0.hasPrefix("ERR no-name") } == false, "\(line): \(d[1] ?? [])")
            }
        }
    }

    /// PING, HELP, STATS and QUIT read nothing of the session, so `perform`
    /// does not copy it out of the table for them; such a row can have no
    /// check that needs the session (a name, not watching, its arguments).
    @Test func sessionlessRows() throws {
        let plain = Verb.allCases.filter { ServerCommands.row($0).sessionless != nil }
        #expect(Set(plain) == [.ping, .help, .stats, .quit])
        for verb in plain {
            let row = ServerCommands.row(verb)
            #expect(!row.flags.contains(.needsName) && row.watcherAllowed && row.checkArguments == nil, "\(verb)")
        }
        // Without a name, and from a connection that has gone: as before.
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        h.send(1, "PING")
        #expect(h.drain() == [1: ["OK PING"]])
        h.disconnect(1)
        h.lobby.perform(.ping, ServerCommands.row(.ping), from: 1)
        #expect(h.drain().isEmpty)
    }

    /// The arguments come before the name (Protocol.md §6): a SEEK or NEW
    /// whose options the server refuses is answered for them, not `no-name`.
    @Test func argumentsBeforeTheName() throws {
        let h = try Harness()
        h.connect(1)
        _ = h.drain()
        for line in ["SEEK clock=7", "NEW clock=1", "NEW game=ghost misses=3", "SEEK range=1200-1500 rated=no", "NEW rated=yes"] {
            h.send(1, line)
            let d = h.drain()
            #expect(d[1]?.count == 1 && d[1]?.first?.hasPrefix("ERR ") == true && d[1]?.first?.hasPrefix("ERR no-name") == false,
                    "\(line): \(d[1] ?? [])")
        }
    }
}

/// A game kind's own move verbs have one row, with a move's flags.
@Suite(.ownThread) struct LobbyKindVerbRowTests {
    @Test func theKindMoveRowIsAMove() {
        let row = ServerCommands.row(.kindMove)
        #expect(row.verb == .kindMove)
        #expect(row.flags == [.hotPath, .actsInGame])
        #expect(!ServerCommands.commandRows.contains { $0.verb == .kindMove })
    }
}
