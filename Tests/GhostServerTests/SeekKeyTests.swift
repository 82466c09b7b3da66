import Testing
import GhostProtocol
@testable import GhostServer

/// A seek queue's key is a value of its parts, not a
/// string they are pasted into; it orders as its words did (WAITING's order).
@Suite struct SeekKeyTests {
    @Test func partsMakeTheKeyAndItsOrder() {
        let plain = SeekKey(game: "ghost", lang: "en", rounds: .one, clock: nil, variant: nil)
        let clocked = SeekKey(game: "ghost", lang: "en", rounds: .one, clock: 60, variant: nil)
        let superghost = SeekKey(game: "ghost", lang: "en", rounds: .one, clock: nil, variant: "super")
        #expect(Set([plain, clocked, superghost, plain]).count == 3)
        #expect(plain.description == "ghost en one" && clocked.description == "ghost en one clock=60"
                && superghost.description == "ghost en one super")
        #expect([superghost, clocked, plain].sorted() == [plain, clocked, superghost])
        // Parts that would paste into the same words stay apart.
        #expect(SeekKey(game: "a b", lang: "c", rounds: .one, clock: nil, variant: nil)
                != SeekKey(game: "a", lang: "b c", rounds: .one, clock: nil, variant: nil))
    }
}
