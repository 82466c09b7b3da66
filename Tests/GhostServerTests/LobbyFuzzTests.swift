import Foundation
import Testing
import GameKit
import GhostAuth
import GhostCore
import GhostProtocol
@testable import GhostServer
import GhostStore
import HangmanCore
import TestSupport

// The lobby fuzzer: a seeded random driver that plays 4
// simulated connections against the real lobby, with a manual clock, an
// in-memory outbox and a real store (SQLite in a temporary folder, or under
// GHOSTD_TEST_STORE=postgresql a PostgreSQL database of its own). Each step
// is a command line (mostly valid: real names, codes, tokens and plausible
// letters and words, some garbage), a connect, a disconnect, an idle
// time-out, a clock jump (bot delay, grace period, idle time), or, in a
// third of the episodes, a store that starts or stops failing. After each
// step it checks its invariants (LobbyFuzzRun.swift); at the end of each episode it
// rebuilds a second lobby from the same database (a restart) and compares.
//
// Between people (issue #47) it also sends FOLLOW, UNFOLLOW, FOLLOWING,
// INVITE with options, DECLINE with real and bogus codes, SAY (format and C1
// characters, 200 and more characters, nothing but format characters),
// BLOCK, UNBLOCK, BLOCKS, REPORT and the presence/chat/invites settings,
// mostly at names online, and watchers gather and talk; it checks as each
// line is sent that nothing from a blocked name reaches its blocker (SAID
// player=, INVITE from=), that SEEK never pairs a blocker with the blocked,
// that no line holds a control character (C0, DEL, C1) and no SAID a format
// character, and that a player's SAID reaches only the other player and a
// watcher's only the other watchers (LobbyFuzzRun.checkBetweenPeople).
//
// A failure prints the seed and the shortest trail of steps it could shrink
// the episode to. Runs:
//   swift test --filter LobbyFuzz                              (bounded: CI)
//   LOBBY_FUZZ_SECONDS=600 swift test --filter LobbyFuzz
//   LOBBY_FUZZ_SEED=1234 LOBBY_FUZZ_STEPS=400 swift test --filter LobbyFuzz
// The parts: LobbyFuzzSteps.swift, LobbyFuzzRun.swift, LobbyFuzzGenerator.swift.

// MARK: Episodes, shrinking, the test

enum LobbyFuzz {
    struct Failure: Error, CustomStringConvertible {
        let seed: UInt64
        let trail: [FuzzStep]
        let problems: [String]
        var description: String {
            "lobby fuzzer: seed \(seed) failed after \(trail.count) step(s) (shrunk):\n"
                + trail.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
                + "\nproblems:\n" + problems.prefix(5).map { "  " + $0 }.joined(separator: "\n")
        }
    }

    /// Runs one episode of `steps` steps from `seed`, with the restart check at
    /// its end. Returns the steps run and the problems found (it stops at the first).
    static func episode(seed: UInt64, steps: Int, fullDisk: Bool = false) throws -> (trail: [FuzzStep], problems: [String], commands: Int, reached: [String: Int]) {
        let run = try FuzzRun(seed: seed)
        var generator = FuzzGenerator(seed: seed, fullDisk: fullDisk)
        var trail: [FuzzStep] = []
        for _ in 0..<steps {
            let step = generator.next(run)
            trail.append(step)
            run.run(step)
            if !run.problems.isEmpty { return (trail, run.problems, run.commands, run.reached) }
        }
        try run.checkRestart()
        return (trail, run.problems, run.commands, run.reached)
    }

    /// Replays a trail; its problems (none: it no longer fails).
    static func replay(_ trail: [FuzzStep], seed: UInt64) throws -> [String] {
        let run = try FuzzRun(seed: seed)
        for step in trail {
            run.run(step)
            if !run.problems.isEmpty { return run.problems }
        }
        try run.checkRestart()
        return run.problems
    }

    /// Drops steps while the trail still fails (the lobby's own randomness
    /// can make a failure come and go: each candidate is tried a few times).
    static func shrink(_ trail: [FuzzStep], seed: UInt64) throws -> (trail: [FuzzStep], problems: [String]) {
        var best = trail
        var problems = try replay(trail, seed: seed)
        func fails(_ t: [FuzzStep]) throws -> [String]? {
            for _ in 0..<3 {
                let p = try replay(t, seed: seed)
                if !p.isEmpty { return p }
            }
            return nil
        }
        var chunk = max(1, best.count / 2)
        while chunk >= 1 {
            var i = 0
            var removed = false
            while i < best.count {
                var candidate = best
                candidate.removeSubrange(i..<min(best.count, i + chunk))
                if let p = try fails(candidate) {
                    best = candidate
                    problems = p
                    removed = true
                } else {
                    i += chunk
                }
            }
            if !removed { chunk /= 2 }
        }
        return (best, problems)
    }

    /// Episodes from `seed` on until `steps` steps or `seconds` have run.
    static func run(seed: UInt64, episodeSteps: Int, totalSteps: Int, seconds: Double, fullDisk: Bool = false) throws
        -> (episodes: Int, steps: Int, commands: Int, elapsed: Double, reached: [String: Int]) {
        let start = Date()
        var episodes = 0, steps = 0, commands = 0
        var reached: [String: Int] = [:]
        var s = seed
        while steps < totalSteps && Date().timeIntervalSince(start) < seconds {
            let result = try episode(seed: s, steps: episodeSteps, fullDisk: fullDisk)
            episodes += 1
            steps += result.trail.count
            commands += result.commands
            reached.merge(result.reached, uniquingKeysWith: +)
            if !result.problems.isEmpty {
                let shrunk = try shrink(result.trail, seed: s)
                throw Failure(seed: s, trail: shrunk.trail, problems: shrunk.problems.isEmpty ? result.problems : shrunk.problems)
            }
            s &+= 1
        }
        return (episodes, steps, commands, Date().timeIntervalSince(start), reached)
    }
}

@Suite struct LobbyFuzzTests {
    /// Bounded, for every `swift test` (and so CI); LOBBY_FUZZ_SECONDS,
    /// LOBBY_FUZZ_SEED, LOBBY_FUZZ_STEPS (steps per episode) run it long.
    @Test func lobbyFuzz() throws {
        let env = ProcessInfo.processInfo.environment
        let seconds = env["LOBBY_FUZZ_SECONDS"].flatMap(Double.init)
        let seed = env["LOBBY_FUZZ_SEED"].flatMap { UInt64($0) } ?? (seconds == nil ? 1 : UInt64.random(in: 0...UInt64(UInt32.max)))
        let episodeSteps = env["LOBBY_FUZZ_STEPS"].flatMap { Int($0) } ?? 300
        // On PostgreSQL (GHOSTD_TEST_STORE=postgresql) every turn's commit is
        // a round trip and every episode a database of its own: fewer steps,
        // so that CI's PostgreSQL pass stays short (about 20 s of it here).
        let bounded = DaemonProcess.onPostgres ? 3_000 : 6_000
        do {
            let r = try LobbyFuzz.run(seed: seed, episodeSteps: episodeSteps,
                                      totalSteps: seconds == nil ? bounded : Int.max, seconds: seconds ?? 60)
            // It plays rated games too (registered names).
            #expect((r.reached["OVER rated"] ?? 0) > 0, "no rated game ended: \(r.reached)")
            print("lobby fuzzer: seeds \(seed)..<\(seed + UInt64(r.episodes)): \(r.episodes) episodes, \(r.steps) steps, "
                  + "\(r.commands) commands in \(String(format: "%.1f", r.elapsed)) s")
            if env["LOBBY_FUZZ_VERBOSE"] != nil {
                print(r.reached.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }.joined(separator: "\n"))
            }
        } catch let failure as LobbyFuzz.Failure {
            print(failure)
            Issue.record("\(failure)")
        }
    }
}
