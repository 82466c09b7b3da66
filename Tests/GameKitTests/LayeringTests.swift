import Foundation
import Testing

/// Dependencies one way: GameKit, the abstraction every
/// kind implements, and GhostProtocol, the wire, name no game kind's module;
/// the word lists sit below the game cores and know no game either.
@Suite struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func sources(_ module: String) throws -> [(String, String)] {
        let dir = root.appendingPathComponent("Sources/\(module)")
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8))
        }
    }

    @Test("GameKit, WordLists and GhostProtocol import no game core; HangmanCore does not import GhostCore")
    func imports() throws {
        let cores = ["GhostCore", "HangmanCore", "GhostWire"]
        for module in ["GameKit", "WordLists", "GhostProtocol"] {
            for (file, text) in try Self.sources(module) {
                for core in cores {
                    #expect(!text.contains("import \(core)\n"), "\(module)/\(file) imports \(core)")
                }
            }
        }
        for (file, text) in try Self.sources("HangmanCore") {
            #expect(!text.contains("import GhostCore\n"), "HangmanCore/\(file) imports GhostCore")
        }
    }

    @Test("GameKit's code spells no kind's name (the first kind's short board names are Ghost's to declare)")
    func gameKitNamesNoKind() throws {
        for (file, text) in try Self.sources("GameKit") {
            for name in ["\"ghost\"", "\"hangman\""] {
                #expect(!text.contains(name), "GameKit/\(file) spells \(name)")
            }
        }
    }

    @Test("The server makes no protocol error code from a kind's text: kinds declare typed codes (KindErrorCode)")
    func serverMakesNoCodeFromText() throws {
        for (file, text) in try Self.sources("GhostServer") {
            #expect(!text.contains("ErrorCode(rawValue:"), "GhostServer/\(file) makes an ErrorCode from a raw string")
        }
    }

    /// Lines of `text` that name a kind: `"ghost"`, `"hangman"`, `.ghost`, `.hangman` (comments aside).
    static func namingKinds(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                && line.range(of: #"\.(ghost|hangman)\b|"(ghost|hangman)""#, options: .regularExpression) != nil
        }
    }

    @Test("The server names no kind outside its catalog (GameCatalog.swift): no ghostVariantHolds, no default of .ghost")
    func serverNamesNoKind() throws {
        for (file, text) in try Self.sources("GhostServer") where file != "GameCatalog.swift" {
            #expect(Self.namingKinds(text).isEmpty, "GhostServer/\(file): \(Self.namingKinds(text))")
        }
    }

    /// What GhostProtocol still says of Ghost and Hangman, each for a reason
    /// (a line of code that contains the text; the list can only shrink):
    static let protocolKindNamesLeft: [(file: String, text: String, why: String)] = [
        // `rounds=ghost`, a G-H-O-S-T match, is Ghost's, but the protocol
        // still parses and writes `rounds=` (GameOptions.rounds; GhostWire.matchRounds spells it too).
        ("Command.swift", "case ghost", "Rounds.ghost"),
        ("Command.swift", "match ? .ghost : .one", "Rounds.ghost"),
        ("Command.swift", "get { rounds == .ghost }", "Rounds.ghost"),
        ("Command.swift", "set { rounds = newValue ? .ghost : .one }", "Rounds.ghost"),
    ]

    @Test("GhostProtocol knows no game: no GameKind.ghost or .hangman, no default kind; game=<default> is the catalog's (issue #25)")
    func protocolNamesNoKind() throws {
        var left = Set(Self.protocolKindNamesLeft.map { "\($0.file)|\($0.text)" })
        for (file, text) in try Self.sources("GhostProtocol") {
            for line in text.split(separator: "\n").map(String.init) where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                // Lowercase, as a word: the kinds' names (not `ghostd`, `Superghost`, or prose's "Ghost's").
                guard line.range(of: #"\b(ghost|hangman)\b"#, options: .regularExpression) != nil else { continue }
                let exempt = Self.protocolKindNamesLeft.first { $0.file == file && line.contains($0.text) }
                #expect(exempt != nil, "GhostProtocol/\(file) names a kind: \(line)")
                if let exempt { left.remove("\(exempt.file)|\(exempt.text)") }
            }
        }
        // An exemption whose line is gone goes from the list too.
        #expect(left.isEmpty, "no longer in GhostProtocol, take off protocolKindNamesLeft: \(left.sorted())")
    }

    @Test("The client's record feature names no kind: it asks the client's table of games (ClientGames)")
    func clientRecordNamesNoKind() throws {
        for (file, text) in try Self.sources("GhostClient/Record") {
            #expect(Self.namingKinds(text).isEmpty, "GhostClient/Record/\(file): \(Self.namingKinds(text))")
        }
    }

    @Test("Hangman's wire fields are spelt once, in HangmanWire: HangmanCore writes no field key, the client's HangmanLines reads none of its own")
    func hangmanFieldsSpeltOnce() throws {
        for (file, text) in try Self.sources("HangmanCore") {
            #expect(!text.contains("Field(\""), "HangmanCore/\(file) spells a field key")
        }
        for (file, text) in try Self.sources("GhostClient/Games/Hangman") where file == "HangmanLines.swift" {
            #expect(!text.contains("fields[\""), "GhostClient/Games/Hangman/\(file) spells a field key")
        }
        for (file, text) in try Self.sources("HangmanWire") {
            #expect(!text.contains("import HangmanCore") && !text.contains("import WordLists"), "HangmanWire/\(file)")
        }
    }

    /// The lobby's parts as the lobby names them, by type (Lobby.swift).
    static let partNames = ["Waiting": "waiting", "RatingDesk": "ratings", "WatchDesk": "watching", "RecoveryDesk": "recovery",
                            "Finishing": "finishing", "GamePlay": "play", "Lifecycle": "lifecycle", "Offers": "offers",
                            "NameDesk": "names", "SettingsDesk": "preferences", "Matchmaking": "matchmaking", "Away": "away",
                            "AccountDesk": "accountDesk", "ScoresDesk": "scores", "ReviewDesk": "review", "ViewDesk": "views",
                            "Deadlines<Room>": "deadlines"]

    /// Each part of the lobby and the parts it holds (`let name: Part`), read from GhostServer's sources.
    static func partGraph() throws -> [String: Set<String>] {
        var graph: [String: Set<String>] = [:]
        for (_, text) in try sources("GhostServer") {
            for line in text.split(separator: "\n") where line.hasPrefix("final class ") {
                let type = line.dropFirst("final class ".count).prefix { $0 != ":" && $0 != " " }
                guard let part = partNames[String(type)] else { continue }
                var uses: Set<String> = []
                for held in text.split(separator: "\n") where held.hasPrefix("    let ") {
                    let parts = held.dropFirst("    let ".count).split(separator: ":", maxSplits: 1)
                    if parts.count == 2, let used = partNames[parts[1].trimmingCharacters(in: .whitespaces)] { uses.insert(used) }
                }
                graph[part] = uses
            }
        }
        return graph
    }

    @Test("Issue 45: no lobby part holds the lobby or uses unowned(unsafe); the parts' graph has no cycle and is the one docs/architecture.md draws")
    func lobbyPartsOneWay() throws {
        for (file, text) in try Self.sources("GhostServer") {
            #expect(!text.contains("unowned(unsafe)"), "GhostServer/\(file) has unowned(unsafe)")
            if file != "Lobby.swift" && !file.hasPrefix("Lobby+") && file != "ServerCommands.swift" {
                #expect(!text.contains(": Lobby\n") && !text.contains(": Lobby!") && !text.contains(": Lobby?"),
                        "GhostServer/\(file) holds the lobby")
            }
        }
        let graph = try Self.partGraph()
        #expect(graph.count == Self.partNames.count - 1, "parts found: \(graph.keys.sorted())")
        // No cycle: every part can be placed after all the parts it uses.
        var placed: Set<String> = ["deadlines"]
        while placed.count < graph.count + 1 {
            let next = graph.filter { !placed.contains($0.key) && $0.value.isSubset(of: placed) }.keys
            #expect(!next.isEmpty, "a cycle among \(Set(graph.keys).subtracting(placed).sorted())")
            if next.isEmpty { break }
            placed.formUnion(next)
        }
        // The table in docs/architecture.md ("part  uses"): the same edges.
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let table = try #require(doc.components(separatedBy: "part            uses\n").dropFirst().first?.components(separatedBy: "```").first)
        var drawn: [String: Set<String>] = [:]
        for row in table.split(separator: "\n").dropFirst() {
            let cells = row.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard cells.count == 2 else { continue }
            let uses = cells[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "-" }
            // "scores, review  -": each of the names before the uses.
            if cells[0].hasSuffix(",") {
                let names = row.split(separator: " ").filter { $0 != "-" }.map { $0.trimmingCharacters(in: .punctuationCharacters) }
                for name in names { drawn[name] = [] }
            } else {
                drawn[String(cells[0])] = Set(uses)
            }
        }
        #expect(drawn == graph)
    }
}
