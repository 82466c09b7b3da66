import Foundation
import Testing
import TestSupport
import GhostProtocol
import GhostServer

/// GAMES keeps its games in order as they start and end (`OpenGames`), not by
/// sorting every table at each call: these check that what it lists stays
/// exactly the open games in progress, newest first.
@Suite(.ownThread) struct LobbyGamesOrderTests {
    /// The ids a GAMES reply lists, and its OK line.
    private func listed(_ lines: [String]?) -> (ids: [Int], ok: String?) {
        let lines = lines ?? []
        let ids = lines.filter { $0.hasPrefix("LIVE ") }.compactMap { Message.parse($0)?["id"].flatMap { Int($0) } }
        return (ids, lines.last)
    }

    @Test("GAMES: games ending in the middle, private games skipped, more=, the order after a restart of the server")
    func orderAndContentsHold() throws {
        var settings = Lobby.Settings()
        settings.newNamesPerMinute = 0   // 25 names from one address
        let h = try Harness(settings: settings)
        // 24 games against the computer; every fourth private.
        // Game 2 (p2's) stays open throughout: its token, to resume it after the restart.
        var firstToken = ""
        for conn in 1...24 {
            h.named(conn, "p\(conn)")
            h.send(conn, conn % 4 == 0 ? "NEW bot=easy watch=no" : "NEW bot=easy")
            let created = h.drain()
            if conn == 2 {
                firstToken = try #require(created[2]?.first { $0.hasPrefix("GAME ") }.flatMap { Message.parse($0)?["token"] })
            }
        }
        var open = (1...24).filter { $0 % 4 != 0 }
        // Games end in the middle, at the ends, and a private one.
        for conn in [1, 7, 8, 13, 14, 23] {   // (p2's game 2 stays open)
            h.send(conn, "LEAVE")
            open.removeAll { $0 == conn }
        }
        _ = h.drain()
        h.connect(99)
        _ = h.drain()
        h.send(99, "GAMES 100")
        let all = listed(h.drain()[99])
        #expect(all.ids == open.reversed())
        #expect(all.ok == "OK GAMES count=\(open.count) more=no")
        h.send(99, "GAMES 3")
        let three = listed(h.drain()[99])
        #expect(three.ids == Array(open.reversed().prefix(3)))
        #expect(three.ok == "OK GAMES count=3 more=yes")
        h.send(99, "GAMES \(open.count)")
        #expect(listed(h.drain()[99]).ok == "OK GAMES count=\(open.count) more=no")
        // A new game comes first; a private one never shows.
        h.send(1, "NEW bot=easy")
        h.send(7, "NEW bot=easy watch=no")
        _ = h.drain()
        h.send(99, "GAMES 2")
        let newest = h.drain()[99] ?? []
        #expect(newest.first == "LIVE id=25 game=ghost players=p1,bot-easy lang=en moves=0 watchers=0")
        #expect(listed(newest).ids == [25, open.last ?? 0])
        open.append(25)
        // After a restart only games on a clock are loaded (the others come
        // back on RESUME, Lifecycle.swift): GAMES lists what is in
        // memory, so nothing here, and the first game resumed is listed.
        let again = try Harness(directory: h.directory, settings: settings)
        again.connect(99)
        _ = again.drain()
        again.send(99, "GAMES 100")
        let restored = listed(again.drain()[99])
        #expect(restored.ids == [])
        #expect(restored.ok == "OK GAMES count=0 more=no")
        again.connect(1)
        again.send(1, "RESUME \(firstToken)")
        _ = again.drain()
        again.send(99, "GAMES 100")
        #expect(listed(again.drain()[99]).ids == [open.first ?? 0])
    }
}
