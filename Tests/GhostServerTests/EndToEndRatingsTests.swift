import Foundation
import Testing
import TestSupport

/// Ratings over real sockets: a rated game between registered
/// names with its exact rating fields, an unrated guests' game, a
/// rating-range seek that pairs within its range and not outside, TOP,
/// PROFILE and HISTORY, and the ratings kept across a restart. One daemon
/// of its own (SEEK), on a thread of its own.
@Suite("End to end: ratings", .ownThread, .hangLimit)
struct EndToEndRatingsTests {
    static let password = "rated long password"

    @Test("Rated and unrated games, range= seeks, TOP, PROFILE and HISTORY, and ratings that survive a restart")
    func ratings() async throws {
        try await TestSupport.onOwnThread { try Self.ratedSession() }
    }

    /// A connection logged in to `name`, registered now.
    static func registered(_ daemon: DaemonProcess, _ name: String) throws -> LineClient {
        let c = try LineClient(port: daemon.port, label: name)
        try c.login(name)
        try c.send("REGISTER \(password)")
        try c.expect("OK REGISTER name=\(name)")
        return c
    }

    /// `GAME …` with its token replaced by `<token>`; `ended=<n>` by `ended=<t>`.
    static func masked(_ line: String) -> String {
        line.split(separator: " ").map { w in
            w.hasPrefix("token=") ? "token=<token>" : w.hasPrefix("ended=") ? "ended=<t>" : String(w)
        }.joined(separator: " ")
    }

    /// `first` (seat 0, waiting) and `second` paired by SEEK; checks both GAME lines as `game`.
    static func pair(_ first: LineClient, _ second: LineClient, seek: String = "SEEK", game: String) throws {
        try first.send(seek)
        try first.expect(lines: ["OK SEEK lang=en", "INFO Waiting for another player who seeks a game in en."])
        try second.send("SEEK")
        try second.expect("OK SEEK lang=en")
        #expect(masked(try second.readLine()) == game)
        #expect(masked(try first.readLine()) == game)
    }

    /// Seat 0 plays p, e, a and seat 1 loses with r ("pear"); returns seat 0's OVER.
    static func pear(_ a: LineClient, _ b: LineClient) throws -> String {
        for (mover, letter) in [(a, "p"), (b, "e"), (a, "a"), (b, "r")] {
            try mover.send(letter)
            _ = try mover.readUntil(prefix: "OK LETTER ")
        }
        let over = try a.readUntil(prefix: "OVER ").line
        #expect(try b.readUntil(prefix: "OVER ").line == over)
        // Then the INFO and both people's RANK on the board of wins.
        for c in [a, b] {
            #expect(try c.readLine().hasPrefix("INFO "))
            #expect(try c.readLine().hasPrefix("RANK "))
            #expect(try c.readLine().hasPrefix("RANK "))
        }
        return over
    }

    static func ratedSession() throws {
        let daemon = try DaemonProcess.start(extraArguments: ["--top-min-games", "1", "--top-max-rd", "350", "--bot-delay", "0"])
        defer { daemon.kill() }
        let alice = try registered(daemon, "alice"), bob = try registered(daemon, "bob")
        // A rated game: ratings= on GAME, ratings= and changes= on OVER.
        try pair(alice, bob, game: "GAME id=1 game=ghost lang=en players=alice,bob token=<token> round=1 ratings=1500?,1500?")
        _ = try alice.readUntil(prefix: "TURN ")
        _ = try bob.readUntil(prefix: "TURN ")
        #expect(try pear(alice, bob) == "OVER id=1 winner=alice loser=bob reason=word fragment=pear ratings=1662?,1338? changes=+162,-162")

        // An unrated game between guests: no rating field at all; rated=yes from a guest is refused.
        let carol = try LineClient(port: daemon.port, label: "carol"), dave = try LineClient(port: daemon.port, label: "dave")
        try carol.login("carol")
        try dave.login("dave")
        try carol.send("SEEK rated=yes")
        try carol.expect("ERR cannot-rate only registered names play rated games: REGISTER your name, or log in with NAME <name> <password>")
        try pair(carol, dave, game: "GAME id=2 game=ghost lang=en players=carol,dave token=<token> round=1")
        _ = try carol.readUntil(prefix: "TURN ")
        _ = try dave.readUntil(prefix: "TURN ")
        #expect(try pear(carol, dave) == "OVER id=2 winner=carol loser=dave reason=word fragment=pear")

        // range=: alice (1662) seeks 1300-1400; erin (1500) does not fit and waits too; bob (1338) fits.
        let erin = try registered(daemon, "erin")
        try alice.send("SEEK range=1300-1400")
        try alice.expect(lines: ["OK SEEK lang=en", "INFO Waiting for another player who seeks a game in en."])
        try erin.send("SEEK")
        try erin.expect(lines: ["OK SEEK lang=en", "INFO Waiting for another player who seeks a game in en."])
        try alice.expectNothing(within: 0.2)
        try bob.send("SEEK")
        try bob.expect("OK SEEK lang=en")
        let game3 = "GAME id=3 game=ghost lang=en players=alice,bob token=<token> round=1 record=0-1 ratings=1662?,1338?"
        #expect(masked(try bob.readLine()) == game3)
        #expect(masked(try alice.readUntil(prefix: "GAME ").line) == game3.replacingOccurrences(of: "record=0-1", with: "record=1-0"))
        try erin.expectNothing(within: 0.2)
        try erin.send("LEAVE")
        try erin.expect("OK LEAVE")
        // Game 3 is left after a letter: bob loses it, rated.
        _ = try alice.readUntil(prefix: "TURN ")
        _ = try bob.readUntil(prefix: "TURN ")
        try alice.send("q")
        _ = try alice.readUntil(prefix: "OK LETTER ")
        _ = try bob.readUntil(prefix: "TURN id=3 player=bob")
        try bob.send("LEAVE")
        try bob.expect("OK LEAVE")
        let over3 = try alice.readUntil(prefix: "OVER ").line
        #expect(over3.hasPrefix("OVER id=3 winner=alice loser=bob reason=left fragment=q ratings="), "\(over3)")

        // TOP, PROFILE, HISTORY.
        func check(_ c: LineClient, asker: String) throws {
            try c.send("TOP 2")
            let top = try c.readUntil(prefix: "OK TOP ")
            #expect(top.line == "OK TOP count=2 board=ghost min_games=1")
            #expect(top.skipped.count == 2 && top.skipped[0].hasPrefix("LEADER rank=1 name=alice rating=")
                    && top.skipped[1].hasPrefix("LEADER rank=2 name=bob rating="), "\(top.skipped)")
            try c.send("PROFILE alice")
            let profile = try c.readUntil(prefix: "OK PROFILE ")
            #expect(profile.line == "OK PROFILE name=alice registered=yes ratings=1")
            #expect(profile.skipped.first?.hasPrefix("RATING board=ghost rating=") == true
                    && profile.skipped.first?.hasSuffix(" games=2 wins=2 losses=0 best=1 best_opponent=bob best_rating=1500") == true,
                    "\(profile.skipped)")
            try c.send("HISTORY alice")
            let history = try c.readUntil(prefix: "OK HISTORY ")
            #expect(history.line == "OK HISTORY name=alice count=2")
            #expect(history.skipped.count == 2 && history.skipped[0].hasPrefix("RESULT id=3 game=ghost opponent=bob result=win reason=left change=+")
                    && masked(history.skipped[1]) == "RESULT id=1 game=ghost opponent=bob result=win reason=word change=+162 ended=<t> lang=en",
                    "\(history.skipped)")
        }
        try check(carol, asker: "carol")
        let before = try { () throws -> [String] in
            try carol.send("TOP")
            return try carol.readUntil(prefix: "OK TOP ").skipped
        }()

        // A restart keeps them: the same TOP, PROFILE and HISTORY, and a new game shows the ratings.
        #expect(daemon.terminate() == .exited(0), "\(daemon.stderrText)")
        let again = try daemon.relaunch()
        defer { again.kill() }
        let anon = try LineClient(port: again.port, label: "anon")
        try anon.login("frank")
        try check(anon, asker: "frank")
        try anon.send("TOP")
        #expect(try anon.readUntil(prefix: "OK TOP ").skipped == before)
    }
}
