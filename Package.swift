// swift-tools-version:6.0
// ghostd: a Ghost word-game server and client. No third-party packages: the
// toolchain, Foundation, Glibc and system C libraries only.
import Foundation
import PackageDescription

// The game kinds used only by tests: each folder of Tests/Kinds is one, its
// module in Sources/ and its own tests, if any, in Tests/ (a test target
// named after it, which may start the test daemon and drive ghost-client).
// Found here, so that a new kind touches no file outside its folder but its
// line in the tests' catalog (Tests/TestKinds/TestKinds.swift).
let testKinds = ((try? FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory + "/Tests/Kinds")) ?? [])
    .filter { !$0.hasPrefix(".") }.sorted()
let testKindTests = testKinds.filter {
    FileManager.default.fileExists(atPath: Context.packageDirectory + "/Tests/Kinds/\($0)/Tests")
}

// Release builds leave out the run-time exclusivity checks: they were 7-9% of
// the instructions per move (callgrind, scripts/callgrind-letters.py). Debug
// builds, which the tests run, keep them, so a violation still fails a test.
let fast: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
// The pure game cores are optimized in debug builds too. Unoptimized, a debug
// ghostd spent about 6 s of CPU at each start (loading the word lists, then
// building Hangman's tables); the tests start dozens of daemons on 2 cores.
// So is the client (it has no assert to lose): its layout test draws 2,494
// states on every screen, 78 s of CPU unoptimized, 26 s with -O, in each of
// CI's passes, for 32 s more to build it once.
let optimizedCore: [SwiftSetting] = fast + [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "ghostd",
    products: [
        .executable(name: "ghostd", targets: ["ghostd"]),
        .executable(name: "ghost-client", targets: ["ghost-client"]),
        .executable(name: "ghost-bench", targets: ["ghost-bench"]),
        .library(name: "GameKit", targets: ["GameKit"]),
        .library(name: "WordLists", targets: ["WordLists"]),
        .library(name: "GhostCore", targets: ["GhostCore"]),
        .library(name: "GhostProtocol", targets: ["GhostProtocol"]),
        .library(name: "Ratings", targets: ["Ratings"]),
    ],
    targets: [
        // The game abstraction every game kind implements: games, moves,
        // seats, outcomes, matches, boards. Pure.
        .target(name: "GameKit", swiftSettings: optimizedCore),
        // Word lists: the trie, the dictionaries folder, common words, a
        // seeded random generator. Below every game core; knows no game. Pure.
        .target(name: "WordLists", swiftSettings: optimizedCore),
        // Ghost's part of the wire (kind name, variants, field keys, the
        // G-H-O-S-T letters), shared by the server's Ghost kind and the
        // client; no solver, no word lists. Pure.
        .target(name: "GhostWire", dependencies: ["GameKit"], swiftSettings: fast),
        // Hangman's part of the wire (kind name, modes, field keys, end
        // reasons, board names), shared by the server's Hangman kind and the
        // client; no word lists. Pure.
        .target(name: "HangmanWire", dependencies: ["GameKit"], swiftSettings: fast),
        // Ghost: rules, solver, computer player. Pure.
        .target(name: "GhostCore", dependencies: ["GameKit", "WordLists", "GhostWire"], swiftSettings: optimizedCore),
        // Glicko-2 ratings (Glickman's paper, lichess's one-game periods). Pure, depends on nothing.
        .target(name: "Ratings", swiftSettings: fast),
        // Line framing, command parsing, event rendering: no sockets.
        .target(name: "GhostProtocol", dependencies: ["GameKit"], swiftSettings: fast),
        // The web port's codecs (HTTP/1.1 request heads, WebSocket frames, the
        // accept key through libcrypto) and the web client's files, embedded
        // in the binary: no sockets, no file lookups.
        .target(name: "GhostWeb", dependencies: ["COpenSSL"], exclude: [],
                resources: ["index.html", "style.css", "app.js", "ui.js", "setup.js", "game.js", "lists.js", "settings.js",
                            "protocol.js", "board.js", "i18n.js", "social.js"].map { .embedInCode("site/" + $0) }, swiftSettings: fast),
        // epoll, signalfd and friends, which Glibc does not export.
        .target(name: "CGhostSys"),
        // The system libsqlite3 (Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // The system OpenSSL (Debian: libssl-dev): TLS, and CRYPTO_memcmp.
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // PostgreSQL's libpq (Debian: libpq-dev for its header), the store's
        // second backend: loaded at the first connection, not linked, so a
        // ghostd on SQLite never maps it.
        .target(name: "CLibPQ"),
        // The system libxcrypt (Debian: libcrypt-dev): yescrypt password hashes.
        .systemLibrary(name: "CXcrypt", providers: [.apt(["libcrypt-dev"])]),
        // Password hashes (yescrypt through libxcrypt), compared in constant
        // time (OpenSSL). Slow by design: its callers run it off the event loop.
        .target(name: "GhostAuth", dependencies: ["CXcrypt", "COpenSSL"], swiftSettings: fast),
        // Durable state: names, preferences, games, moves, scores.
        .target(name: "GhostStore", dependencies: ["CSQLite", "CLibPQ", "COpenSSL", "CGhostSys"], swiftSettings: fast),
        // The lobby (pure game-server logic) and the event loop that drives it.
        // Command-line options: one table per program gives parsing, checking
        // and --help. Pure: no printing, no exit.
        .target(name: "OptionKit", swiftSettings: fast),
        .target(name: "GhostServer", dependencies: ["GhostCore", "HangmanCore", "GhostProtocol", "GhostWeb", "GhostStore", "GhostAuth", "Ratings", "CGhostSys", "OptionKit", "COpenSSL"], swiftSettings: fast),
        .executableTarget(name: "ghostd", dependencies: ["GhostServer"], swiftSettings: fast),
        // Hangman: rules, evil and fair setters, phrases, computer guesser. Pure.
        .target(name: "HangmanCore", dependencies: ["GameKit", "WordLists", "HangmanWire"], swiftSettings: optimizedCore),
        // The terminal client: a pure state machine and screens, and thin
        // terminal and connection layers around them (TLS through the system OpenSSL).
        .target(name: "GhostClient", dependencies: ["GhostProtocol", "GhostWire", "HangmanWire", "CGhostSys", "OptionKit", "COpenSSL"], swiftSettings: optimizedCore),
        .executableTarget(name: "ghost-client", dependencies: ["GhostClient"], swiftSettings: fast),
        // Benchmarks (not tests): solving, bot strength, load generation, and the
        // large-server fixture (built through GhostStore's API) and attacks of #24.
        .target(name: "GhostBench", dependencies: ["GhostCore", "HangmanCore", "GhostStore", "GhostWeb", "CGhostSys", "OptionKit"], swiftSettings: fast),
        .executableTarget(name: "ghost-bench", dependencies: ["GhostBench"], swiftSettings: fast),
        // libFuzzer target over the framer and parser, and the web port's request reader and WebSocket decoder (scripts/fuzz.sh).
        .executableTarget(name: "ghost-fuzz", dependencies: ["GhostProtocol", "GhostWeb"], swiftSettings: fast),

        // Shared by the test targets: running a long blocking test on a thread
        // of its own, its expectations still the test's; a real ghostd on an
        // ephemeral port (DaemonProcess) and a line client (LineClient).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // The tests' catalog of the kinds above, and ghostd with them in its
        // catalog. None is shipped.
        .target(name: "TestKinds", dependencies: ["GameKit"] + testKinds.map { .target(name: $0) }, path: "Tests/TestKinds"),
        .executableTarget(name: "ghostd-testkinds", dependencies: ["GhostServer", "TestKinds"], path: "Tests/TestKindsDaemon"),
        .testTarget(name: "GameKitTests", dependencies: ["GameKit"]),
        .testTarget(name: "GhostCoreTests", dependencies: ["GhostCore", "GhostProtocol", "TestSupport"]),
        .testTarget(name: "HangmanCoreTests", dependencies: ["HangmanCore", "WordLists", "GameKit", "GhostProtocol"]),
        .testTarget(name: "RatingsTests", dependencies: ["Ratings"]),
        .testTarget(name: "GhostProtocolTests", dependencies: ["GhostProtocol", "GhostWire", "HangmanWire", "WordLists"]),
        .testTarget(name: "GhostAuthTests", dependencies: ["GhostAuth"]),
        .testTarget(name: "GhostWebTests", dependencies: ["GhostWeb", "TestSupport"]),
        .testTarget(name: "GhostStoreTests", dependencies: ["GhostStore", "TestSupport"], exclude: ["Fixtures"]),
        // EndToEndLargeServerTests builds its data folder and runs its attackers with GhostBench.
        .testTarget(name: "GhostServerTests", dependencies: ["TestSupport", "GhostServer", "GhostProtocol", "GhostBench", "ghostd", "ghost-bench", "ghostd-testkinds"]),
        // Unit tests of the client's core and screens; end-to-end tests that drive
        // real clients in tmux against a real ghostd (both binaries are built for them).
        // Recorded/: real client sessions the layout test replays (read by path, not bundled).
        .testTarget(name: "GhostClientTests", dependencies: ["TestSupport", "GhostClient", "GhostProtocol", "GhostWire", "WordLists", "ghostd", "ghost-client"],
                    exclude: ["Recorded"]),
        // Unit tests of the option parser and of ghost-bench's command line;
        // end-to-end checks that all three programs refuse bad options with
        // exit status 2 (the binaries are built for them).
        .testTarget(name: "OptionKitTests", dependencies: ["OptionKit", "GhostBench", "ghostd", "ghost-client", "ghost-bench"]),
        // The documentation (README.md, Protocol.md, BENCHMARKS.md, docs/): its links
        // resolve, and the options and commands it names are in the programs' tables.
        .testTarget(name: "DocsTests", dependencies: ["OptionKit", "GhostProtocol", "GhostServer", "GhostClient", "GhostBench", "TestKinds"]),
    ] + testKinds.map { .target(name: $0, dependencies: ["GameKit"], path: "Tests/Kinds/\($0)/Sources") }
      + testKindTests.map {
          .testTarget(name: $0 + "Tests", dependencies: [.target(name: $0), "TestSupport", "GameKit", "GhostClient", "ghostd-testkinds", "ghost-client"],
                      path: "Tests/Kinds/\($0)/Tests")
      },
    swiftLanguageModes: [.v6]
)
