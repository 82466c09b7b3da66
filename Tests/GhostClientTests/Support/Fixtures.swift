import Testing
@testable import GhostClient
import GhostProtocol

/// Builders for core tests: states, server lines, runs of events.
enum Fx {
    static let token = "9ee1b5612f9418acd5c3de1c8ec61252"

    /// A server line as an event, decoded as the app decodes it. A line that
    /// does not decode is a mistake in the test (the app drops such lines).
    static func line(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ClientEvent {
        guard let line = ServerLine.decode(text) else {
            Issue.record("`\(text)` does not decode", sourceLocation: sourceLocation)
            return .server(.info(""))
        }
        return .server(line)
    }

    static func lines(_ texts: String..., sourceLocation: SourceLocation = #_sourceLocation) -> [ClientEvent] {
        texts.map { line($0, sourceLocation: sourceLocation) }
    }

    static func keys(_ text: String) -> [ClientEvent] { text.map { .key(.char($0)) } }

    /// Applies events in order; returns the final state and every effect.
    static func run(_ state: ClientState, _ events: [ClientEvent]) -> (ClientState, [ClientEffect]) {
        var s = state
        var all: [ClientEffect] = []
        // The layout test collects every state a test reaches (LayoutTests).
        StateLog.current?.states.append(s)
        for e in events {
            let (n, fx) = reduce(s, e)
            s = n
            all += fx
            StateLog.current?.states.append(s)
        }
        return (s, all)
    }

    static func run(_ state: ClientState, _ events: ClientEvent...) -> (ClientState, [ClientEffect]) {
        run(state, events)
    }

    /// The lines sent, from a list of effects, as the connection writes them.
    static func sent(_ effects: [ClientEffect]) -> [String] {
        effects.compactMap { if case .send(let c) = $0 { return c.rendered } else { return nil } }
    }

    static let hello = "HELLO ghostd/0.4.0 protocol=2 languages=en,nl"

    /// A returning player (language and tutorial done), connected and greeted:
    /// on the name screen, with NAMES sent.
    static func online(language: String = "en", lastName: String? = "alice", token: String? = nil,
                       colour: Bool = false) -> ClientState {
        let config = ClientConfig(language: language, tutorialSeen: true, lastName: lastName,
                                  server: "127.0.0.1:7777", token: token)
        let s = ClientState(config: config, serverAddress: "127.0.0.1:7777", colour: colour)
        return run(s, .tick(100), .connected, line(hello)).0
    }

    /// Named as `name` and on the main screen (the last name, preselected
    /// on the name screen, taken with Enter).
    static func named(_ name: String = "alice", language: String = "en", colour: Bool = false) -> ClientState {
        var s = online(language: language, lastName: name, colour: colour)
        s = run(s, line("OK LANG lang=\(language)"), line("OK NAMES count=0")).0
        s = run(s, [.key(.enter), line("OK NAME name=\(name) lang=\(language)"), line("OK SETTINGS")]).0
        return s
    }

    /// In game 7 against `opponent`; `first` moves first.
    static func inGame(me: String = "alice", opponent: String = "bob", meFirst: Bool = true,
                       fragment: String = "", language: String = "en", colour: Bool = false) -> ClientState {
        var s = named(me, language: language, colour: colour)
        let players = meFirst ? "\(me),\(opponent)" : "\(opponent),\(me)"
        s = run(s, Fx.keys("3") + [line("OK NEW code=4EG7R lang=en"),
                                   line("INFO Give the code 4EG7R to your opponent: they send JOIN 4EG7R."),
                                   line("GAME id=7 game=ghost lang=en players=\(players) token=\(token) round=1")]).0
        var mover = meFirst ? me : opponent
        var frag = ""
        s = run(s, line("TURN id=7 player=\(mover) fragment=")).0
        for c in fragment {
            frag.append(c)
            s = run(s, line("MOVE id=7 player=\(mover) letter=\(c) fragment=\(frag)")).0
            mover = mover == me ? opponent : me
            s = run(s, line("TURN id=7 player=\(mover) fragment=\(frag)")).0
        }
        return s
    }

    /// Game 7 just ended: alice beat bob with PEAR.
    static func over(me: String = "alice", language: String = "en", colour: Bool = false) -> ClientState {
        var s = inGame(me: me, opponent: me == "alice" ? "bob" : "alice", meFirst: me == "alice",
                       fragment: "pea", language: language, colour: colour)
        s = run(s, lines("MOVE id=7 player=bob letter=r fragment=pear",
                         "OVER id=7 winner=alice loser=bob reason=word fragment=pear",
                         "INFO \"pear\" is a word longer than 3 letters, so bob loses.",
                         "RANK name=alice rank=1 wins=3",
                         "RANK name=bob rank=2 wins=1")).0
        return s
    }
}
