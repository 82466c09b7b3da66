import Foundation
import Testing
import GhostStore
import TestSupport

/// A data folder written by ghostd 0.3.0 (schema 2, committed as a fixture)
/// opens in this release: migration 3 makes it kind-agnostic, and its games
/// in progress come back by replaying their moves, to be resumed and played on.
@Suite("EndToEnd: a schema-2 data folder from the previous release", .ownThread, .hangLimit)
struct EndToEndSchema2Tests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("GhostStoreTests/Fixtures/schema2.sqlite3").path

    @Test("Every adjourned game resumes where it was: a match with an offer, a game in progress, one against the computer", sqliteFilesOnly)
    func resumesEveryGame() throws {
        let data = try DataDirectory()
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: data.path + "/ghostd.sqlite3")
        let daemon = try DaemonProcess.start(extraArguments: ["--data", data.path, "--bot-delay", "0"])
        defer { daemon.kill() }
        #expect(daemon.waitForStderrLine { $0.hasSuffix("restored 0 adjourned game(s) on a clock; the others load on RESUME") } != nil, "\(daemon.stderrText)")
        #expect(daemon.stderrLines.contains { $0.contains("data: \(data.path)/ghostd.sqlite3 (schema \(Store.schemaVersion),") }, "\(daemon.stderrText)")

        // Game 2: carol and dave's G-H-O-S-T match, round 2 (dave started it), dave
        // lost round 1, dave offered a restart after "qu".
        let (carolToken, daveToken) = ("91bb7d330debff3fa22337613620a8a1", "8504df5925ccc9bbfe5e866cd294483c")
        let carol = try LineClient(port: daemon.port, label: "carol")
        try carol.send("RESUME \(carolToken)")
        try carol.expect(lines: ["OK RESUME id=2",
                                 "GAME id=2 game=ghost lang=en players=carol,dave token=\(carolToken) round=2 rounds=ghost ghost=,G",
                                 "OFFER id=2 player=dave kind=restart"])
        // The grace clock runs from the restart (dave is to move and away).
        _ = try carol.expectPrefix("ADJOURNED id=2 player=dave grace=")
        try carol.expect("TURN id=2 player=dave fragment=qu ghost=,G last=carol")
        let dave = try LineClient(port: daemon.port, label: "dave")
        try dave.send("RESUME \(daveToken)")
        try dave.expect(lines: ["OK RESUME id=2",
                                "GAME id=2 game=ghost lang=en players=carol,dave token=\(daveToken) round=2 rounds=ghost ghost=,G",
                                "OFFER id=2 player=dave kind=restart",
                                "TURN id=2 player=dave fragment=qu ghost=,G last=carol"])
        try carol.expect("RETURNED id=2 player=dave")
        // The offer is still live: carol accepts, and round 3 starts with dave again.
        try carol.send("ACCEPT")
        try carol.expect(lines: ["OK ACCEPT", "ACCEPTED id=2 player=carol kind=restart",
                                 "GAME id=2 game=ghost lang=en players=carol,dave token=\(carolToken) round=3 rounds=ghost ghost=,G",
                                 "TURN id=2 player=dave fragment= ghost=,G"])
        try dave.expect(lines: ["ACCEPTED id=2 player=carol kind=restart",
                                "GAME id=2 game=ghost lang=en players=carol,dave token=\(daveToken) round=3 rounds=ghost ghost=,G",
                                "TURN id=2 player=dave fragment= ghost=,G"])
        // dave plays q, carol x: "qx" starts no word, carol earns a G.
        try dave.send("q")
        try dave.expect("OK LETTER letter=q fragment=q")
        try carol.send("x")
        try carol.expect(lines: ["MOVE id=2 player=dave letter=q fragment=q", "TURN id=2 player=carol fragment=q ghost=,G",
                                 "OK LETTER letter=x fragment=qx", "MOVE id=2 player=carol letter=x fragment=qx",
                                 "OVER id=2 winner=dave loser=carol reason=dead fragment=qx ghost=G,G word=quad"])

        // Game 3: alice and Bob, "ca", alice to move.
        let alice = try LineClient(port: daemon.port, label: "alice")
        try alice.send("RESUME a8883f4e902e0284ae958a08a8bfa92f")
        try alice.expect(lines: ["OK RESUME id=3",
                                 "GAME id=3 game=ghost lang=en players=alice,Bob token=a8883f4e902e0284ae958a08a8bfa92f round=1 record=1-0",
                                 "ADJOURNED id=3 player=Bob grace=60",
                                 "TURN id=3 player=alice fragment=ca last=Bob"])  // alice is to move: Bob's clock is not running

        // Game 4: eve against the Hard computer in Dutch; it played "j".
        let eve = try LineClient(port: daemon.port, label: "eve")
        try eve.send("RESUME d4215a7e1149c07a5399084d0d7e2e50")
        try eve.expect(lines: ["OK RESUME id=4",
                               "GAME id=4 game=ghost lang=nl players=bot-hard,eve token=d4215a7e1149c07a5399084d0d7e2e50 round=1 bot=hard",
                               "TURN id=4 player=eve fragment=j last=bot-hard"])
        try eve.send("a")
        try eve.expect(lines: ["OK LETTER letter=a fragment=ja", "MOVE id=4 player=eve letter=a fragment=ja",
                               "TURN id=4 player=bot-hard fragment=ja"])
        _ = try eve.expectPrefix("MOVE id=4 player=bot-hard letter=")

        // The old high scores are there.
        try alice.send("SCORES")
        try alice.expect(lines: ["SCORE rank=1 name=alice wins=1 played=1", "SCORE rank=2 name=Bob wins=0 played=1",
                                 "OK SCORES count=2 board=game"])
        try alice.send("SCORES mode=match bot=easy")
        try alice.expect(lines: ["SCORE rank=1 name=frank wins=0 played=1", "OK SCORES count=1 board=easy-match"])
        #expect(daemon.terminate() == .exited(0), "\(daemon.stderrText)")
    }
}
