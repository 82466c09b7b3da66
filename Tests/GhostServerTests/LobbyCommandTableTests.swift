import Testing
import GhostProtocol
@testable import GhostServer

/// The server's command table (Lobby+Commands.swift): one row per verb,
/// from which the dispatch, the unit each command runs in and what a
/// watcher may not send are read.
@Suite struct LobbyCommandTableTests {
    @Test func everyVerbHelpListsHasExactlyOneRow() {
        let helpVerbs = Command.helpLines.map { String($0.usage.split(separator: " ")[0]) }
        #expect(helpVerbs.count == Lobby.commandRows.count)
        for verb in helpVerbs {
            #expect(Lobby.commandRows.filter { $0.verb.rawValue == verb }.count == 1, "\(verb)")
        }
        for (i, verb) in Verb.allCases.enumerated() {
            #expect(Lobby.ordinal(verb) == i, "\(verb)")
            #expect(Lobby.row(verb).verb == verb)
        }
    }

    /// The flags, verb by verb: what the four switches they replace said.
    @Test func flagsAreTheOnesTheSwitchesHad() {
        func verbs(_ flag: Lobby.CommandFlags) -> Set<String> {
            Set(Lobby.commandRows.filter { $0.flags.contains(flag) }.map(\.verb.rawValue))
        }
        #expect(verbs(.readOnly) == ["PING", "HELP", "NAMES", "SCORES", "SETTINGS", "HINT", "STATS", "GAMES", "WATCH",
                                     "UNWATCH", "TOP", "PROFILE", "HISTORY", "MOVES", "REVIEW"])
        #expect(verbs(.hotPath) == ["LETTER"])
        #expect(verbs(.identity) == ["NAME", "LANG", "SET"])
        #expect(verbs(.actsInGame) == ["LETTER", "SOLVE", "WORD", "LEAVE", "RESTART", "ACCEPT", "DECLINE", "CLAIM",
                                       "HINT", "CHALLENGE", "CONCEDE"])
    }

    /// Each row's cost is the protocol's (the loop meters a line by it before parsing).
    @Test func costsAreTheProtocols() {
        for row in Lobby.commandRows { #expect(row.cost == CommandTable.spec(row.verb).cost) }
        #expect(Lobby.row(.ping).cost == 1)
        #expect(Lobby.row(.letter).cost == 1)
    }
}

/// A game kind's own move verbs have one row, with a move's flags (issue #25).
@Suite struct LobbyKindVerbRowTests {
    @Test func theKindMoveRowIsAMove() {
        let row = Lobby.row(.kindMove)
        #expect(row.verb == .kindMove)
        #expect(row.flags == [.hotPath, .actsInGame])
        #expect(!Lobby.commandRows.contains { $0.verb == .kindMove })
    }
}
