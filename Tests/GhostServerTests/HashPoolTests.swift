import Glibc
import Testing
import TestSupport
import GhostProtocol
@testable import GhostServer

/// The hashing threads (Net/HashPool.swift): jobs run off the caller's
/// thread, their outcomes wait until taken, the eventfd says when, and the
/// queue is bounded.
@Suite(.ownThread) struct HashPoolTests {
    /// Waits (poll) until the pool's eventfd is readable; false after 10 s.
    func awaitWake(_ pool: HashPool) -> Bool {
        var fds = [pollfd(fd: pool.eventFD, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, 10_000) == 1
    }

    /// Takes outcomes until `count` have come (each wake may bring some).
    func outcomes(_ pool: HashPool, _ count: Int) -> [PasswordOutcome] {
        var out: [PasswordOutcome] = []
        while out.count < count, awaitWake(pool) { out += pool.takeFinished() }
        return out
    }

    @Test("A hash is made and checked on the pool's threads; the eventfd wakes the caller; outcomes come by ticket")
    func makesAndChecks() throws {
        let pool = try #require(HashPool(threads: 2, capacity: 4))
        defer { pool.stop() }
        #expect(pool.submit(PasswordJob(ticket: 7, work: .make(Password("a pool's password")))))
        let made = outcomes(pool, 1)
        #expect(made.map(\.ticket) == [7])
        let hash = try #require(made.first?.hash)
        #expect(hash.hasPrefix("$y$"))
        #expect(pool.submit(PasswordJob(ticket: 8, work: .verify(Password("a pool's password"), hash: hash))))
        #expect(pool.submit(PasswordJob(ticket: 9, work: .verify(Password("another password"), hash: hash))))
        let checked = outcomes(pool, 2).sorted { $0.ticket < $1.ticket }
        #expect(checked.map(\.ticket) == [8, 9])
        #expect(checked.map(\.matches) == [true, false])
        #expect(pool.takeFinished().isEmpty)
    }

    @Test("At most `capacity` jobs wait: one more is refused; a stopped pool takes none")
    func bounded() throws {
        let pool = try #require(HashPool(threads: 1, capacity: 2))
        var accepted = 0
        // The thread takes one job at a time: of 20 submitted at once, at
        // most the one running plus 2 waiting are accepted (more only if it
        // finishes a hash, tens of milliseconds, while this loop runs).
        for ticket in 0..<20 where pool.submit(PasswordJob(ticket: ticket, work: .make(Password("password \(ticket)")))) { accepted += 1 }
        #expect(accepted >= 2 && accepted < 20)
        #expect(pool.waiting <= 2)
        pool.stop()
        #expect(!pool.submit(PasswordJob(ticket: 99, work: .make(Password("too late now")))))
    }

    @Test("Jobs print as their ticket, never the password or the hash")
    func jobsPrintNothingSecret() {
        let job = PasswordJob(ticket: 3, work: .verify(Password("hunter2 hunter2"), hash: "$y$j9T$salt$hash"))
        var dumped = ""
        dump(job, to: &dumped)
        for text in ["\(job)", String(reflecting: job), "\(PasswordOutcome(ticket: 3, hash: "$y$x", matches: true))"] {
            #expect(!text.contains("hunter2") && !text.contains("$y$"), "\(text)")
        }
        dump(PasswordOutcome(ticket: 3, hash: "$y$x", matches: true), to: &dumped)
        #expect(!dumped.contains("hunter2") && !dumped.contains("$y$"), "\(dumped)")
    }
}
