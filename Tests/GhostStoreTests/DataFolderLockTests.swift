import Foundation
import Testing
import TestSupport
@testable import GhostStore
#if canImport(Glibc)
import Glibc
#endif

@Suite(.ownThread) struct DataFolderLockTests {
    /// A child forked by another thread holds a copy of the lock's
    /// descriptor until it execs (or here, exits). Giving the folder up must
    /// not wait for it: unlock releases the flock itself, not only its fd.
    @Test("unlock frees the folder at once, even while a forked child still holds a copy of the descriptor")
    func unlockWhileAChildHoldsACopy() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let lock = try DataFolderLock(directory: dir.path)
        let child = fork()
        if child == 0 {
            usleep(2_000_000)   // holds the inherited descriptor; async-signal-safe calls only
            _exit(0)
        }
        #expect(child > 0)
        defer {
            var status: Int32 = 0
            _ = waitpid(child, &status, 0)
        }
        lock.unlock()
        let again = try DataFolderLock(directory: dir.path)
        again.unlock()
    }
}
