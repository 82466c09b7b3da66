import Foundation
import Testing
import GameKit
import GhostAuth
import GhostCore
import GhostProtocol
@testable import GhostServer
import GhostStore
import HangmanCore
import WordLists

// The lobby fuzzer's steps, its randomness and its outbox (LobbyFuzzTests.swift).

// MARK: Randomness

/// SplitMix64 again, so that a seed means the same steps on every machine.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}

// MARK: Steps

/// One step of an episode. Tokens and join codes are named by the order in
/// which they were first seen, so a trail replays (and shrinks) although the
/// lobby draws them at random.
enum FuzzStep: CustomStringConvertible {
    case connect(slot: Int)
    case disconnect(slot: Int)
    /// The event loop's idle time-out: `BYE idle-timeout`, then the connection goes.
    case idle(slot: Int)
    case line(slot: Int, String)
    /// `<prefix><the nth token seen>` (a RESUME).
    case token(slot: Int, prefix: String, n: Int)
    /// `JOIN <the nth code seen>`.
    case code(slot: Int, n: Int)
    /// `<prefix><the nth code seen>` (`DECLINE `: an invitation's, or another game's).
    case coded(slot: Int, prefix: String, n: Int)
    case tooLong(slot: Int)
    /// The clock moves on, then the lobby's tick.
    case advance(Double)
    /// From now on the store fails (a full disk): the nth kind of write
    /// (`FuzzRun.faults`), either its statement or the commit of its turn.
    case fault(Int)
    /// From now on the disk is full (LobbyFuzzFullDiskTests): every append
    /// to the move journal fails (half written, then cut back), and with the
    /// nth of `FuzzRun.diskFaults` a kind of write or commit fails too.
    case diskFull(Int)
    /// The store works again.
    case heal

    var description: String {
        switch self {
        case .connect(let s): "connect #\(s)"
        case .disconnect(let s): "disconnect #\(s)"
        case .idle(let s): "idle-timeout #\(s)"
        case .line(let s, let l): "#\(s) \(l.debugDescription)"
        case .token(let s, let p, let n): "#\(s) \(p)<token \(n)>"
        case .code(let s, let n): "#\(s) JOIN <code \(n)>"
        case .coded(let s, let p, let n): "#\(s) \(p)<code \(n)>"
        case .tooLong(let s): "#\(s) <line too long>"
        case .advance(let t): "advance \(t) s + tick"
        case .fault(let n): "store fails: \(FuzzRun.faults[n % FuzzRun.faults.count])"
        case .diskFull(let n): "disk full: the journal's appends fail" + (FuzzRun.diskFaults[n % FuzzRun.diskFaults.count].map { ", and \($0)" } ?? "")
        case .heal: "store works again"
        }
    }
}

/// What the lobby sends, typed, for the step in progress; the checks that
/// must look at the lobby at the moment of sending run in `onSend`.
final class FuzzOutbox: Outbox {
    private(set) var lines: [(conn: ConnectionID, line: ServerLine)] = []
    private(set) var closedNow: [ConnectionID] = []
    private var closed: Set<ConnectionID> = []
    private var mark = (lines: 0, closed: 0)
    var onSend: ((ServerLine, ConnectionID) -> Void)?

    func send(_ line: ServerLine, to id: ConnectionID) {
        guard !closed.contains(id) else { return }
        onSend?(line, id)
        lines.append((id, line))
    }
    func close(_ id: ConnectionID, _ code: ByeCode, _ text: String) {
        guard !closed.contains(id) else { return }
        lines.append((id, .bye(code, text)))
        closed.insert(id)
        closedNow.append(id)
    }
    func beginCommand() { mark = (lines.count, closedNow.count) }
    func discardCommand() {
        lines.removeLast(max(0, lines.count - mark.lines))
        for id in closedNow.dropFirst(mark.closed) { closed.remove(id) }
        closedNow.removeLast(max(0, closedNow.count - mark.closed))
    }
    /// A lost turn, as the event loop handles it: every line of the turn is
    /// withdrawn, its command is answered `ERR store-failed`, and a close
    /// stays (its BYE goes out). Returns the connections whose lines went.
    func withdrawTurn(command: ConnectionID?) -> Set<ConnectionID> {
        var withdrawn = Set(lines.map(\.conn))
        let byes = lines.filter { if case .bye = $0.line { return true } else { return false } }
        lines.removeAll()
        if let command {
            withdrawn.insert(command)
            lines.append((command, .error(.storeFailed, Lobby.storeFailedText)))
        }
        lines += byes
        mark = (0, 0)
        return withdrawn
    }

    /// The lines and closes of the step, and a fresh start for the next one.
    func takeStep() -> (lines: [(conn: ConnectionID, line: ServerLine)], closed: [ConnectionID]) {
        defer { lines.removeAll(); closedNow.removeAll(); mark = (0, 0) }
        return (lines, closedNow)
    }
}

/// Small lists (as the other lobby tests use) and a few phrases, so that
/// every mode of every kind can be played.
let fuzzDictionaries = Dictionaries(lists: lobbyLists,
                                    phrases: ["en": ["the cat", "hot dog", "peach pie"], "nl": ["de kat"]])
