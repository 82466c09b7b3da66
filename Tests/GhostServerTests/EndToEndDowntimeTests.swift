import Foundation
import Testing
import GhostStore
import TestSupport

/// Time the server was down does not count toward `--abandon-after`:
/// a data folder whose games were last touched 30 days ago, by a
/// daemon that stopped then, opens with every game resumable; left running
/// past a short `--abandon-after`, the same folder aborts them, never at
/// start. (The arithmetic, with a manual clock: LobbyLifecycleTests and
/// DowntimeStoreTests.)
@Suite("EndToEnd: an outage does not abort games", .ownThread, .hangLimit)
struct EndToEndDowntimeTests {
    static let month = 30 * 86_400

    /// A game left in progress: its id, a seat's token, and the first line
    /// of the GAME header `RESUME` sends for it (up to `token=`).
    struct Left {
        var id: String
        var token: String
        var header: String
    }

    /// Plays three games a little and leaves them (two people's Ghost game,
    /// Ghost against the computer, Hangman against the computer), stops the
    /// daemon cleanly, and moves every time stored in the folder to 30 days
    /// ago: the games, their moves and the daemon's last mark that it ran.
    private func monthOldFolder() throws -> (folder: DataDirectory, games: [Left]) {
        let folder = try DataDirectory()
        var games: [Left] = []
        do {
            let daemon = try DaemonProcess.start(extraArguments: ["--data", folder.path, "--bot-delay", "0"])
            defer { daemon.kill() }
            func header(_ line: String) -> Left {
                let f = lineFields(line)
                let token = f["token"] ?? ""
                return Left(id: f["id"] ?? "", token: token, header: String(line.prefix(upTo: line.range(of: "token=")?.lowerBound ?? line.endIndex)))
            }
            let ann = try E2E.player(daemon, "down-a"), ben = try E2E.player(daemon, "down-b")
            try ann.send("NEW")
            let code = lineFields(try ann.client.expectPrefix("OK NEW code="))["code"] ?? ""
            try ben.send("JOIN \(code)")
            _ = try ben.client.readUntil(prefix: "TURN ")
            games.append(header(try ann.client.readUntil(prefix: "GAME id=").line))
            _ = try ann.client.readUntil(prefix: "TURN ")
            try ann.send("p")
            try ann.client.expectPrefix("OK LETTER letter=p")
            _ = try ben.client.readUntil(prefix: "TURN id=")
            try ben.send("e")
            try ben.client.expectPrefix("OK LETTER letter=e")
            let cat = try E2E.player(daemon, "down-c")
            try cat.send("NEW bot=easy")
            games.append(header(try cat.client.readUntil(prefix: "GAME id=").line))
            try cat.send("c")
            _ = try cat.client.readUntil(prefix: "MOVE id=\(games[1].id) player=bot-easy")
            let dan = try E2E.player(daemon, "down-d")
            try dan.send("NEW game=hangman")
            // The first Hangman game waits for the word tables (built at start, seconds in a debug build).
            games.append(header(try dan.client.readUntil(prefix: "GAME id=", timeout: 30).line))
            _ = try dan.client.readUntil(prefix: "TURN id=")
            try dan.send("e")
            try dan.client.expectPrefix("OK LETTER letter=e hit=")
            #expect(daemon.terminate() == .exited(0), "\(daemon.stderrText)")
        }
        let then = Int(Date().timeIntervalSince1970) - Self.month
        let db = try SQLiteDatabase(path: folder.path + "/" + Store.fileName)
        defer { db.close() }
        try db.execute("""
            UPDATE games SET started_at = \(then), last_active = \(then) WHERE status = 'active';
            UPDATE moves SET at = \(then);
            UPDATE running SET alive_at = \(then);
            DELETE FROM outages;
            """)
        #expect(try db.query("SELECT count(*) FROM games WHERE status = 'active'") { $0.int(0) } == [3])
        return (folder, games)
    }

    /// A copy of the folder's database in a new folder (closed: one file).
    private func copy(_ folder: DataDirectory) throws -> DataDirectory {
        let other = try DataDirectory()
        try FileManager.default.copyItem(atPath: folder.path + "/" + Store.fileName, toPath: other.path + "/" + Store.fileName)
        return other
    }

    @Test("Games last touched 30 days ago, before the daemon stopped, all resume after the start; the outage is logged", sqliteFilesOnly)
    func aMonthDownKeepsEveryGame() throws {
        let (folder, games) = try monthOldFolder()
        let daemon = try DaemonProcess.start(extraArguments: ["--data", folder.path, "--bot-delay", "0"])
        defer { daemon.kill() }
        #expect(daemon.waitForStderrLine { $0.hasSuffix("down for 30 days before this start: not counted toward --abandon-after") } != nil,
                "\(daemon.stderrText)")
        for game in games {
            let back = try LineClient(port: daemon.port, label: "back-\(game.id)")
            try back.send("RESUME \(game.token)")
            try back.expect("OK RESUME id=\(game.id)")
            let header = try back.expectPrefix(game.header)
            #expect(header.hasPrefix(game.header + "token=\(game.token) "), "\(header)")
            // And it plays on: the two people's game takes ann's next letter.
            if game.id == games[0].id {
                _ = try back.readUntil(prefix: "TURN id=\(game.id)")
                try back.send("a")
                try back.expect("OK LETTER letter=a fragment=pea")
            }
        }
        #expect(!daemon.stderrText.contains("aborted: untouched"), "\(daemon.stderrText)")
    }

    @Test("The same folder left running past --abandon-after 3 aborts every game, after 3 s of running, not at start", sqliteFilesOnly)
    func runningTimeAbortsThem() throws {
        let (month, games) = try monthOldFolder()
        let folder = try copy(month)
        let launched = monotonicNow()
        let daemon = try DaemonProcess.start(extraArguments: ["--data", folder.path, "--abandon-after", "3"])
        defer { daemon.kill() }
        for game in games {
            #expect(daemon.waitForStderrLine(timeout: 60) { $0.contains("game \(game.id) aborted: untouched since ") } != nil,
                    "\(daemon.stderrText)")
        }
        // The daemon itself ran for 3 s first (a lower bound, whatever the machine's speed).
        #expect(monotonicNow() - launched >= 3)
        for game in games {
            let late = try LineClient(port: daemon.port, label: "late-\(game.id)")
            try late.send("RESUME \(game.token)")
            // A kind other than the default one is named (the Hangman game).
            try late.expect("OK RESUME id=\(game.id) status=over" + (game.header.contains(" game=hangman ") ? " game=hangman" : ""))
            _ = try late.expectPrefix("ABORTED id=\(game.id) reason=untouched ended=")
        }
    }
}
