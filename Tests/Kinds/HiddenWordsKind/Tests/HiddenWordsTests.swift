import Foundation
import GameKit
import HiddenWordsKind
import Testing
import TestSupport

/// Hidden words' rules as a pure value: both hide at once and in secret,
/// guesses alternate, a game ends won or drawn.
@Suite struct HiddenWordsGameTests {
    private func game(guesses: Int = 2) throws -> any Game {
        try #require(HiddenWordsKind().newGame(language: "en", variant: "", settings: "guesses=\(guesses)", seed: 7, starter: 0))
    }
    private func hide(_ w: String) -> Move { .own(verb: "HIDE", word: w) }
    private func guess(_ w: String) -> Move { .own(verb: "GUESS", word: w) }

    @Test("both seats hide at once, in any order, and only the owner sees the word; a guess waits for both")
    func hiding() throws {
        var g = try game()
        #expect(g.bothToMove && g.toMove == 0)
        #expect(throws: MoveError.refused(code: "wrong-phase", message: "hide your word first: HIDE <word>")) { try g.play(guess("wolf"), by: 1) }
        #expect(try g.play(hide("wolf"), by: 1) == nil)
        #expect(!g.bothToMove && g.toMove == 0)
        #expect(g.privateFields(for: 1) == [Field("mine", "wolf")] && g.privateFields(for: 0).isEmpty)
        #expect(g.moveFields(hide("wolf")) == [Field("hid", "yes")])
        #expect(throws: MoveError.refused(code: "hidden-already", message: "your word is hidden: wait for the other player's")) { try g.play(hide("bear"), by: 1) }
        #expect(throws: MoveError.notYourTurn) { try g.play(guess("bear"), by: 1) }
        #expect(throws: MoveError.refused(code: "not-in-list", message: "zebra is not in the list")) { try g.play(hide("zebra"), by: 0) }
        #expect(try g.play(hide("bear"), by: 0) == nil)
        #expect(g.publicFields == [Field("phase", "guessing"), Field("guessed", "0,0")] && g.moveCount == 2)
        #expect(HiddenWordsKind().hidesMove(hide("bear"), by: 0) && !HiddenWordsKind().hidesMove(guess("bear"), by: 0))
        #expect(Move(encoded: hide("bear").encoded) == hide("bear") && hide("bear").encoded == "move:HIDE:bear")
    }

    @Test("both find the other's word in the same turn: a draw; one finds it: a win; neither: a draw")
    func ends() throws {
        var g = try game()
        _ = try g.play(hide("wolf"), by: 0)
        _ = try g.play(hide("bear"), by: 1)
        #expect(try g.play(guess("bear"), by: 0) == nil)   // found, but the other has one guess more
        #expect(g.moveFields(guess("bear")) == [Field("guess", "bear"), Field("common", "4"), Field("hit", "yes")])
        #expect(try g.play(guess("wolf"), by: 1) == .draw(HiddenWordsKind.both))
        #expect(g.drawExplanation(names: ["a", "b"]) == "Both found the other's word: a draw.")

        var h = try game()
        _ = try h.play(hide("wolf"), by: 0)
        _ = try h.play(hide("bear"), by: 1)
        _ = try h.play(guess("boar"), by: 0)
        #expect(h.moveFields(guess("boar")) == [Field("guess", "boar"), Field("common", "3"), Field("hit", "no")])
        #expect(try h.play(guess("wolf"), by: 1) == Outcome(loser: 0, reason: HiddenWordsKind.found))

        var n = try game()
        _ = try n.play(hide("wolf"), by: 0)
        _ = try n.play(hide("bear"), by: 1)
        _ = try n.play(guess("seal"), by: 0)
        #expect(try n.play(guess("seal"), by: 1) == nil)   // each seat's own guesses
        #expect(throws: MoveError.refused(code: "guessed-already", message: "you guessed seal already")) { try n.play(guess("seal"), by: 0) }
        _ = try n.play(guess("goat"), by: 0)
        #expect(try n.play(guess("goat"), by: 1) == .draw(HiddenWordsKind.even))
        #expect(n.finalFields.last == Field("words", "wolf,bear"))
    }

    @Test("the computer hides at once while both may move, then the hard one guesses only words that agree with its clues")
    func computer() throws {
        let kind = HiddenWordsKind()
        var g = try game(guesses: 6)
        guard case .move(let hidden) = kind.computerPlay(in: g, seat: 1, level: .hard) else { return #expect(Bool(false)) }
        _ = try g.play(hidden, by: 1)
        _ = try g.play(hide("goat"), by: 0)
        _ = try g.play(guess("wolf"), by: 0)
        var played: [String] = []
        while !g.isOver, g.toMove == 1 {
            guard case .move(let m) = kind.computerPlay(in: g, seat: 1, level: .hard), case .own(_, let w) = m else { break }
            played.append(w)
            _ = try g.play(m, by: 1)
            if !g.isOver { _ = try g.play(guess(["lamb", "lion", "mole", "mule", "newt"][played.count - 1]), by: 0) }
        }
        // goat's clues narrow the list: the hard computer finds it within its guesses.
        #expect(played.last == "goat")
    }
}

/// The kind is this folder and its line in the tests' catalog: no other
/// file of the package, source, test or document, names it.
@Suite struct HiddenWordsNamedInOnePlaceTests {
    @Test("Only Tests/Kinds/HiddenWordsKind and Tests/TestKinds/TestKinds.swift name Hidden words")
    func namedInOnePlace() throws {
        let root = URL(fileURLWithPath: DaemonProcess.packageRoot)
        var naming: [String] = []
        for top in ["Sources", "Tests", "docs", "scripts", ".ci", "Package.swift", "README.md", "Protocol.md", "BENCHMARKS.md"] {
            let url = root.appendingPathComponent(top)
            let files = top.contains(".") && !top.hasPrefix(".") ? [url]
                : (FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            for file in files where ["swift", "md", "sh", "py", "html", "js", ""].contains(file.pathExtension) {
                guard let text = try? String(contentsOf: file, encoding: .utf8),
                      text.range(of: "hiddenwords", options: .caseInsensitive) != nil
                        || text.range(of: "Hidden words", options: .caseInsensitive) != nil else { continue }
                naming.append(String(file.path.dropFirst(root.path.count + 1)))
            }
        }
        #expect(naming.allSatisfy { $0.hasPrefix("Tests/Kinds/HiddenWordsKind/") || $0 == "Tests/TestKinds/TestKinds.swift" }, "\(naming)")
        #expect(naming.contains("Tests/TestKinds/TestKinds.swift"))
    }
}
