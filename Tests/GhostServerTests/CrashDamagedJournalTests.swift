import Foundation
import GhostStore
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The crash test with the move journal damaged between rounds,
/// each of the ways of JournalDamageTests once, in a seeded
/// order: a flipped byte in a line that intact lines follow, a junk line in
/// the middle, a torn last append (half a line at the end), the file emptied,
/// removed, or replaced by another data folder's journal. After each SIGKILL
/// the journal is damaged and ghostd started on the folder:
///
/// - either it starts, and every acknowledged step is there (the damage was
///   in lines folded into the database already, or a torn tail);
/// - or it refuses with an exit status that is not 0 and one line naming the
///   journal's file (and the damaged line), the file left byte for byte as it
///   was; then `ghostd journal salvage --data DIR` and a start bring back
///   every acknowledged step but those of the lines the damage destroyed: a
///   game resumes with exactly its letters up to the first lost one (the
///   letters after it cannot be played without it), every other game whole.
@Suite("Crash: a damaged move journal between crash rounds", .ownThread, .serialized, .hangLimit)
struct CrashDamagedJournalTests {
    enum Damage: String, CaseIterable { case flip, junk, tornTail, emptied, removed, replaced }

    /// One line of the journal's file: its number (the header is line 1) and bytes.
    struct Line {
        var number: Int
        var bytes: [UInt8]
        /// A move's game, round and ply (nil: the header or a game's start).
        var move: (game: Int, round: Int, ply: Int)? {
            let words = String(decoding: bytes, as: UTF8.self).split(separator: " ")
            guard words.count == 7, let g = Int(words[0]), let r = Int(words[1]), let p = Int(words[2]) else { return nil }
            return (g, r, p)
        }
    }

    static func lines(_ bytes: [UInt8]) -> [Line] {
        var out: [Line] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            out.append(Line(number: out.count + 1, bytes: Array(bytes[start..<i])))
            start = i + 1
        }
        return out
    }

    @Test("3 pairs play; after each of 6 SIGKILLs the journal is damaged another way: ghostd starts with every acknowledged step, or refuses with one line naming the file and line and leaves it as it was; then salvage and a start bring back every acknowledged step the damage did not destroy", sqliteFilesOnly)
    func damagedBetweenRounds() throws {
        let seed = ProcessInfo.processInfo.environment["GHOSTD_CRASH_SEED"].flatMap { UInt64($0) } ?? 43
        let run = CrashRun(seed: seed)
        var daemon = try DaemonProcess.start(extraArguments: ["--max-commands-per-second", "0"])
        defer { daemon.kill() }
        try run.addGames(pairs: 3, on: daemon, prefix: "dmg")
        // A new name is a transaction: it folds the games' starts into the
        // database, so that no damage below can lose a whole game.
        try LineClient(port: daemon.port, label: "fold").login("dmg-fold")

        // Another data folder's journal, left by a crash: games 1 to 4 of its
        // own (this folder has 1 to 3), their starts and two letters each.
        let foreign: [UInt8]
        do {
            let other = try DaemonProcess.start()
            defer { other.kill() }
            let players = try (0..<8).map { try E2E.player(other, "dmg-x\($0)") }
            for i in 0..<4 {
                var game = try Game.privateGame(host: players[2 * i], guest: players[2 * i + 1])
                try game.play("zo")
            }
            #expect(other.kill() == .signaled(SIGKILL))
            foreign = Array(try Data(contentsOf: URL(fileURLWithPath: other.dataPath + "/" + Store.fileName + "-moves")))
        }

        let path = daemon.dataPath + "/" + Store.fileName + "-moves"
        var order = Damage.allCases
        order.shuffle(using: &run.rng)
        var outcomes: [String] = []
        for (i, damage) in order.enumerated() {
            let cycle = i + 1
            // Play a few steps (so that the file holds lines to damage), then SIGKILL 0–300 ms later.
            let acksBefore = run.acks
            run.phase = .racing
            for g in run.games { run.act(g) }
            try run.drive(until: { run.acks > acksBefore + 6 }, timeout: 20, what: "cycle \(cycle): a few acknowledgements")
            let killer = Killer(daemon: daemon, afterMS: Int(run.rng.next() % 301))
            try run.drive(until: { killer.done && run.allClosed }, timeout: 20, what: "cycle \(cycle): the kill and every EOF")
            #expect(killer.wait() == .signaled(SIGKILL), "cycle \(cycle) [seed \(seed)]")
            run.cycleAcks.append(run.acks - acksBefore)

            // The damage, and what it may destroy: the moves of its lines (if not folded yet).
            let before = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let lines = Self.lines(before)
            #expect(lines.count >= 3, "cycle \(cycle): the journal holds \(lines.count) line(s) [seed \(seed)]")
            guard lines.count >= 3 else { continue }
            var after: [UInt8]? = before
            var named: Int?
            var destroyed: [Line] = []
            switch damage {
            case .flip:
                // A move's line that intact lines follow: a byte of its letter.
                // One of the last few (those before the last transaction are
                // folded already: that damage loses nothing), best one that a
                // later move of its game's round follows (lost with it).
                let moves = lines.filter { $0.number >= 2 && $0.number < lines.count && $0.move != nil }
                let followed = moves.filter { line in
                    lines.dropFirst(line.number).contains { $0.move?.game == line.move?.game && $0.move?.round == line.move?.round }
                }
                let candidates = (followed.isEmpty ? moves : followed).suffix(3)
                let line = Array(candidates)[Int(run.rng.next() % UInt64(candidates.count))]
                let end = lines.prefix(line.number).reduce(0) { $0 + $1.bytes.count + 1 } - 1
                after?[end - 1] ^= 0x01
                named = line.number
                destroyed = [line]
            case .junk:
                let at = lines.count - 1 - Int(run.rng.next() % 2)   // after line `at`, before line at + 1 (of the last few)
                let offset = lines.prefix(at).reduce(0) { $0 + $1.bytes.count + 1 }
                after?.insert(contentsOf: Array("junk\n".utf8), at: offset)
                named = at + 1
            case .tornTail:
                // The last append cut by the crash: half of a line like the last one, never acknowledged.
                let last = lines.last?.bytes ?? []
                after?.append(contentsOf: last.prefix(max(1, last.count / 2)))
            case .emptied:
                after = []
                destroyed = Array(lines.dropFirst())
            case .removed:
                after = nil
                destroyed = Array(lines.dropFirst())
            case .replaced:
                after = foreign
                destroyed = Array(lines.dropFirst())
            }
            if let after {
                try Data(after).write(to: URL(fileURLWithPath: path))
            } else {
                try FileManager.default.removeItem(atPath: path)
            }

            var refusal: String?
            do {
                daemon = try daemon.relaunch()
            } catch let error as DaemonError {
                refusal = error.description
            }
            var cuts: [Int: ClosedRange<Int>] = [:]
            if let refusal {
                // Not 0, one line, naming the file (and the line); the file as it was.
                #expect(refusal.contains("ghostd exited (exit status ") && !refusal.contains("(exit status 0)"), "cycle \(cycle) \(damage): \(refusal)")
                let said = refusal.components(separatedBy: "stderr:\n").last?.split(separator: "\n") ?? []
                #expect(said.count == 1 && said.first?.contains("ghostd: the move journal \(path) cannot be trusted: ") == true,
                        "cycle \(cycle) \(damage): \(refusal) [seed \(seed)]")
                if let named {
                    #expect(said.first?.contains("line \(named) is damaged") == true, "cycle \(cycle) \(damage): line \(named)? \(refusal) [seed \(seed)]")
                }
                #expect(Self.contents(path) == after, "cycle \(cycle) \(damage): the refused journal was changed [seed \(seed)]")
                let salvage = try EndToEndJournalTests.ghostd(["journal", "salvage", "--data", daemon.dataPath])
                #expect(salvage.status == 0, "cycle \(cycle) \(damage): \(salvage) [seed \(seed)]")
                if damage == .replaced {
                    // Nothing of another database's journal is taken in.
                    #expect(salvage.out.contains("took in 0 game start(s) and 0 move(s)"), "cycle \(cycle): \(salvage.out) [seed \(seed)]")
                }
                daemon = try daemon.relaunch()
                // What the destroyed lines held may be gone, if it was not
                // folded yet: each game from its first destroyed letter of
                // the round in play on (as few as none of them).
                for g in run.games {
                    let plies = destroyed.compactMap(\.move).filter { $0.game == g.id && $0.round == g.state.round }.map(\.ply)
                    if let first = plies.min() { cuts[g.id] = (first - 1)...(g.state.fragment.utf8.count + 1) }
                }
                let took = salvage.out.split(separator: "\n").first { $0.hasPrefix("took in ") }.map(String.init) ?? "?"
                outcomes.append("\(damage): refused; salvage \(took)")
            } else {
                #expect(damage != .emptied && damage != .removed && damage != .replaced,
                        "cycle \(cycle): ghostd started on a journal \(damage) after a crash [seed \(seed)]\n\(daemon.stderrText)")
                outcomes.append("\(damage): started")
            }
            for g in run.games { try run.resume(g, on: daemon, cycle: cycle, cut: cuts[g.id]) }
        }
        try run.finishAndCheckScores(on: daemon, extraNames: 1)
        print("CrashDamagedJournalTests: seed \(seed); \(outcomes); acks \(run.cycleAcks)")
        #expect(daemon.terminate() == .exited(0), "\(daemon.stderrText)")
    }

    static func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}
