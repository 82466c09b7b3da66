import Dispatch
import Foundation
import GameKit
import Testing
import TestSupport
@testable import GhostCore
import WordLists

/// Superghost's index is built once per language, off the server's thread
/// when `setup` starts it; a caller that has to wait for it says so
/// (`OneOffWork`, counted per thread), so the server does not charge the
/// wait to the line's sender (the Superghost stall).
// Five minutes, as the other suites that wait on threads: a full run on two
// cores can keep a test from starting its body for two minutes while long
// tests hold the pool, and Swift Testing counts that wait (seen with one
// minute: both tests over it, each done at once when it ran).
@Suite("Superghost's index: built once, waits noted", .hangLimit)
struct SuperBuildTests {
    private func kind() -> GhostKind {
        GhostKind(dictionaries: Dictionaries(lists: ["en": WordList(words: ["pear", "peach", "cats", "dogs"]),
                                                     "nl": WordList(words: ["peer", "kaas"])]))
    }

    @Test("a game that finds the index not built notes one wait on its own thread; once built, none")
    func firstUseIsNoted() throws {
        let k = kind()
        let before = OneOffWork.waits
        _ = try #require(k.newGame(language: "en", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 0))
        #expect(OneOffWork.waits == before + 1)
        _ = try #require(k.newGame(language: "en", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 1))
        #expect(k.superSolver(language: "en") != nil)
        #expect(OneOffWork.waits == before + 1)
        // Ghost and bluff and challenge need no index.
        _ = try #require(k.newGame(language: "nl", variant: "", settings: "", seed: 0, starter: 0))
        _ = try #require(k.newGame(language: "nl", variant: GhostKind.challengeVariant, settings: "", seed: 0, starter: 0))
        #expect(OneOffWork.waits == before + 1)
        // Another thread's count is its own.
        let other = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var seen = -1
        Thread.detachNewThread {
            seen = OneOffWork.waits
            OneOffWork.noteWait()
            other.signal()
        }
        other.wait()
        #expect(seen == 0)
        #expect(OneOffWork.waits == before + 1)
    }

    @Test("while another thread builds the index, REVIEW's look-up does not wait, and the game waits for that build")
    func buildUnderWay() throws {
        let k = kind()
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let builds = Counter()
        // The first build (en, the other thread's) waits for the test; later ones do not.
        k.buildInfixes { words in
            if builds.add() == 1 {
                started.signal()
                release.wait()
            }
            return Infixes(words: words)
        }
        // The build runs on a thread of its own, as setup's does on a queue of
        // the system's; not that queue itself, which a loaded full run keeps
        // busy (seen: both tests over their minute while the suite ran).
        Thread.detachNewThread { _ = k.superSolver(language: "en") }
        started.wait()
        // Held by the build: nil at once (it used to wait for the whole build).
        #expect(k.readySuperSolver(language: "en") == nil)
        // Another language is not held up by it.
        let before = OneOffWork.waits
        _ = try #require(k.newGame(language: "nl", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 0))
        #expect(OneOffWork.waits == before + 1)
        release.signal()
        _ = try #require(k.newGame(language: "en", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 0))
        #expect(builds.value == 2)   // en once (the other thread's), nl once
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    /// Adds one; returns the count with it.
    func add() -> Int { lock.lock(); defer { lock.unlock() }; n += 1; return n }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
