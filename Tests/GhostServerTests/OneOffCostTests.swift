import GameKit
import GhostCore
import GhostProtocol
import Testing
import WordLists
@testable import GhostServer

/// The Superghost stall: the first Superghost game of a language
/// waits on the loop for its infix index, and the budget charged that time
/// to the line's sender (seconds of loop time at 1 ms a unit), whose next
/// lines then waited for the budget, past a test's 5 s. A line during which
/// the loop waited for a kind's one-off work pays its fixed cost only. The
/// clock is the test's: the build "takes" 5 s.
@Suite("Budgets: one-off work is not charged to a line's sender")
struct OneOffCostTests {
    final class FakeClock: @unchecked Sendable { var now = 10.0 }

    static let budgets = Budgets(connection: BudgetRule(perSecond: 50, burst: 200),
                                 network: BudgetRule(perSecond: 250, burst: 1000), unitSeconds: 0.001)

    @Test("the SEEK that starts a language's first Superghost game pays SEEK's fixed 2 units, not the index's 5 s; a slow line after it pays its time")
    func firstSuperghostGame() throws {
        let kind = GhostKind(dictionaries: Dictionaries(lists: ["en": WordList(words: ["pear", "peach", "cats", "dogs"])]))
        let fake = FakeClock()
        let meter = LineMeter(clock: { fake.now })
        let seek = LineFramer.Frame.line(Array("SEEK variant=super".utf8))
        var game: (any GameKit.Game)?
        let first = meter.run(seek, budgets: Self.budgets) {
            fake.now += 5
            game = kind.newGame(language: "en", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 0)
        }
        #expect(game != nil)
        #expect(first == 2 && first == Double(LineMeter.fixedCost(seek)))
        // Budget: 2 units leave the next line free to go; 5,000 would hold it about 96 s.
        var clock = PenaltyClock()
        var budgets = Self.budgets
        budgets.charge(first, own: &clock, network: "n", now: fake.now)
        #expect(budgets.verdict(own: clock, network: "n", now: fake.now) == .serve)
        // Built: a slow line pays its time as before.
        let second = meter.run(seek, budgets: Self.budgets) {
            fake.now += 5
            game = kind.newGame(language: "en", variant: GhostKind.superVariant, settings: "", seed: 0, starter: 1)
        }
        #expect(second == 5_000)
    }

    @Test("any wait a kind notes during a line makes it pay its fixed cost")
    func notedWait() {
        let fake = FakeClock()
        let meter = LineMeter(clock: { fake.now })
        let letter = LineFramer.Frame.line(Array("LETTER q".utf8))
        #expect(meter.run(letter, budgets: Self.budgets) { fake.now += 2.5; OneOffWork.noteWait() } == 1)
        #expect(meter.run(letter, budgets: Self.budgets) { fake.now += 2.5 } == 2_500)
    }
}
