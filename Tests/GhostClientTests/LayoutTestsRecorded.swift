import Foundation
import GhostProtocol
import Testing
@testable import GhostClient

// (The file's name contains "LayoutTests", so scripts/layout-corpus.py and
// LayoutTests.corpusIsComplete leave it out of the reducer-test corpus: its
// states are the recordings', not the reducer tests'.)

/// The layout test on real sessions: the client sessions
/// recorded with `GHOST_CLIENT_RECORD` by scripts/record-client-sessions.sh
/// (Tests/GhostClientTests/Recorded/*.events), replayed through `reduce`
/// from the state the client starts in; every state they reach is drawn as
/// `LayoutTests` draws its corpus: 60×20, 80×24 and 120×40, English and
/// Dutch, and again at 60×20 with 16-character names.
@Suite("Layout: every state of real recorded sessions, both languages, three sizes", .serialized)
struct LayoutTestsRecorded {
    static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Recorded")
    }

    static func recordings() throws -> [(name: String, session: EventRecording.Session)] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".events") }.sorted()
        return try files.map { file in
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            do {
                return (file, try EventRecording.parse(text))
            } catch {
                throw RecordingError(description: "\(file): \(error)")
            }
        }
    }

    struct RecordingError: Error, CustomStringConvertible { let description: String }

    /// Every state one recording passes through, from the state the client starts in.
    static func replay(_ session: EventRecording.Session) -> [ClientState] {
        var s = session.initialState
        var out = [s]
        for e in session.events {
            s = reduce(s, e).0
            out.append(s)
        }
        return out
    }

    /// The states of every recording, each once (as `LayoutTests.corpus`
    /// counts them: two states that draw the same are one), with the file
    /// each was first reached in.
    static func corpus() throws -> [(file: String, state: ClientState)] {
        var seen = Set<String>()
        var unique: [(String, ClientState)] = []
        for (file, session) in try recordings() {
            var last: ClientState?
            for s in replay(session) {
                if s == last { continue }
                last = s
                let key = Screens.render(s, width: 60, height: 20, strings: .en).joined(separator: "\n")
                    + Screens.render(s, width: 120, height: 40, strings: .nl).joined(separator: "\n")
                    + Screens.render(s, width: 60, height: 20, strings: .nl).joined(separator: "\n")
                if seen.insert(key).inserted { unique.append((file, s)) }
            }
        }
        return unique
    }

    @Test("Every state of the recorded sessions fits 60×20, 80×24 and 120×40 in English and Dutch: nothing cut, every menu entry, cursor and key hint drawn")
    func everyRecordedStateFits() throws {
        let states = try Self.corpus()
        let screens = Set(states.map { "\($0.state.screen)" })
        let (failures, renders) = LayoutTests.audit(states.map { ("\($0.file): ", $0.state) })
        print("Layout test of recorded sessions: \(try Self.recordings().count) recordings, \(screens.count) screens, \(states.count) states × \(LayoutTests.sizes.count) sizes × \(LayoutTests.languages.count) languages = \(renders) renders")
        #expect(renders == states.count * 6)
        #expect(states.count > 200, "too few states replayed: \(states.count)")
        LayoutTests.record(failures)
        #expect(failures.isEmpty, "\(failures.count) layout problems")
    }

    @Test("Every state of the recorded sessions again at 60×20 with every player's name 16 characters long: nothing cut")
    func recordedLongNamesFit() throws {
        let (failures, _) = LayoutTests.audit(try Self.corpus().map { ("\($0.file): ", $0.state) }, sizes: [(60, 20)], longNames: true)
        LayoutTests.record(failures)
        #expect(failures.isEmpty, "\(failures.count) layout problems with long names")
    }

    /// So that a broken recording (a script that stopped early, a server
    /// line the client no longer decodes) cannot pass by reaching nothing.
    @Test("The recordings reach what they were made for: games, their ends, Hangman, watching, a clock, a replay")
    func recordingsReachTheirScreens() throws {
        let recordings = try Self.recordings()
        #expect(recordings.count >= 8, "recordings: \(recordings.map(\.name))")
        var all: [ClientState] = []
        for (name, session) in recordings {
            let states = Self.replay(session)
            #expect(states.count > 20, "\(name): \(states.count) states")
            // Each session played something: a game screen or Hangman's.
            #expect(states.contains { $0.screen == .game || $0.screen == .hangman(.play) }, "\(name) reaches no game")
            all += states
        }
        func reached(_ what: String, _ p: (ClientState) -> Bool) {
            let found = all.contains(where: p)
            #expect(found, "no recorded state reaches \(what)")
        }
        reached("a Ghost game") { $0.screen == .game && $0.game?.watching == false }
        reached("a G-H-O-S-T match's end") { $0.screen == .over && $0.config.matchMode }
        reached("a game over") { $0.screen == .over }
        reached("a game against the computer") { $0.screen == .game && $0.game?.bot != nil }
        reached("a replay") { $0.screen == .record(.replay) }
        reached("Hangman's play screen") { $0.screen == .hangman(.play) }
        reached("Hangman's rules from its game (?)") { $0.screen == .tutorial && $0.game?.hangman != nil }
        reached("Hangman's rules from the main screen") { $0.screen == .hangman(.rules) }
        reached("Hangman's settings") { $0.screen == .hangman(.settings) }
        reached("the list of games to watch") { $0.screen == .watchList }
        reached("a game watched") { $0.game?.watching == true && ($0.screen == .game || $0.screen == .hangman(.play)) }
        reached("a game on a clock") { $0.game?.clock != nil && $0.clockLeft != nil }
        reached("a 16-character name") { $0.game?.players.contains { $0.count == 16 } == true }
        reached("Dutch") { $0.config.language == "nl" && $0.screen == .game }
        reached("60×20") { $0.width == 60 && $0.height == 20 && $0.screen == .game }
        reached("a password screen") { $0.screen == .account(.register) }
    }

    @Test("The recordings hold no secret: every resume token is the dummy, every character typed on a password screen is x")
    func noSecrets() throws {
        for (name, session) in try Self.recordings() {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) where word.hasPrefix("token=") {
                #expect(word == "token=0123456789abcdef0123456789abcdef", "\(name): \(word)")
            }
            var s = session.initialState
            for e in session.events {
                if case .account = s.screen {
                    switch e {
                    case .key(.char(let c)): #expect(c == "x", "\(name): \(c) typed on \(s.screen)")
                    case .paste(let keys):
                        let masked = keys.allSatisfy { if case .char(let c) = $0 { c == "x" } else { true } }
                        #expect(masked, "\(name): a paste on \(s.screen)")
                    default: break
                    }
                }
                s = reduce(s, e).0
            }
        }
    }
}

/// The recording's format (EventRecorder.swift): every event kind written
/// and read back, and nothing secret written.
@Suite("Event recordings: the format round-trips, without secrets")
struct EventRecordingTests {
    static let gameLine = "GAME id=12 game=ghost lang=en players=alice,bob token=fbf6ca9451480886ad2aceab2e292f0e round=1 variant=super"

    @Test("Every event kind and every key is written as one line and read back as itself")
    func roundTrip() throws {
        var events: [ClientEvent] = [
            .resize(width: 80, height: 24), .tick(0), .connected, .disconnected, .refused("bad certificate"),
            .tick(12.345), .configSaveFailed("disk full"), .paste([.char("a"), .char(" "), .char("é"), .enter]),
        ]
        let lines = ["HELLO ghostd/0.4.0 protocol=2 languages=en,nl", "TURN id=12 player=bob", "INFO alice played P: “P”."]
        for l in lines { events.append(.server(try #require(ServerLine(decoding: l), "\(l)"))) }
        for (_, k) in EventRecording.names { events.append(.key(k)) }
        for c: Character in ["a", "Z", "7", "?", "'", "!", " ", "=", "é", "e\u{301}", "ß", "😀", "\u{7F}", "\t"] {
            events.append(.key(.char(c)))
        }
        var config = ClientConfig()
        config.language = "nl"
        config.matchMode = true
        config.clock = 15
        config.variant = "challenge"
        var text = EventRecording.start(config: config, playAtOnce: true)
        for e in events { text.append(EventRecording.line(e)) }
        let written = text.joined(separator: "\n") + "\n"
        #expect(written.split(separator: "\n").count == events.count + text.count - events.count)
        let back = try EventRecording.parse(written)
        #expect(back.events == events)
        #expect(back.config == config)
        #expect(back.playAtOnce)
        #expect(written.contains("\nK 'a\n") && written.contains("\nK U+20\n") && written.contains("\nK enter\n"))
        #expect(written.contains("\nT 12.345\n") && written.contains("\nZ 80 24\n"))
        // Times are written relative to the first tick.
        #expect(EventRecording.line(.tick(1000.5), origin: 990) == "T 10.500")
    }

    @Test("A server line is recorded as received, with its token replaced by a dummy of the same shape")
    func tokensMasked() throws {
        let decoded = try #require(ServerLine(decoding: Self.gameLine))
        let line = EventRecording.line(.server(decoded), raw: Self.gameLine)
        #expect(!line.contains("fbf6ca9451480886ad2aceab2e292f0e"))
        #expect(line == "S GAME id=12 game=ghost lang=en players=alice,bob token=0123456789abcdef0123456789abcdef round=1 variant=super")
        let back = try EventRecording.parse(line)
        #expect(back.events == [.server(try #require(ServerLine(decoding: String(line.dropFirst(2)))))])
        var config = ClientConfig()
        config.token = "fbf6ca9451480886ad2aceab2e292f0e"
        #expect(!EventRecording.start(config: config, playAtOnce: false).joined().contains("fbf6"))
    }

    @Test("Characters typed on a password screen are recorded as x; other keys as they are")
    func passwordsMasked() {
        #expect(EventRecording.line(.key(.char("s")), password: true) == "K 'x")
        #expect(EventRecording.line(.key(.enter), password: true) == "K enter")
        #expect(EventRecording.line(.paste([.char("p"), .char("w")]), password: true) == "P 'x 'x")
        #expect(EventRecording.line(.key(.char("s"))) == "K 's")
    }

    @Test("A line the format does not have is an error naming its line")
    func badLines() {
        for bad in ["X", "K nokey", "Z 80", "T soon", "S NOT-A-SERVER-LINE at all", "P 'a 'ab"] {
            #expect(throws: EventRecording.ParseError.self, "\(bad)") { try EventRecording.parse(EventRecording.header + "\n" + bad) }
        }
        #expect((try? EventRecording.parse("# comment\n\nC\n"))?.events == [.connected])
    }
}
