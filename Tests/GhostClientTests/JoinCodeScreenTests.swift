import Testing
@testable import GhostClient

/// Join codes have 8 characters (ghostd, Protocol.md §3): the waiting screen
/// draws them in block letters in the smallest window the client supports,
/// and the join screen takes all 8.
@Suite struct JoinCodeScreenTests {
    @Test("An 8-character code: in block letters and spaced at 60×20; typed in full and sent as JOIN")
    func eightCharacters() {
        let code = "7K3QZ9MX"
        let hosting = Fx.run(Fx.named(), .key(.char("3")), Fx.line("OK NEW code=\(code) lang=en")).0
        let lines = ScreenTests.plainLines(hosting, 60, 20)
        #expect(lines.count == 20 && lines.allSatisfy { $0.count <= 60 })
        // The five rows of the block letters, then the code spaced out.
        let block = lines.filter { $0.contains("█") }
        #expect(block.count == BlockFont.height, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.trimmingCharacters() == "7 K 3 Q Z 9 M X" })
        #expect(BlockFont.draw(code, maxWidth: 56).count == BlockFont.height)

        let (typed, fx) = Fx.run(Fx.named("bob"), Fx.keys("4") + Fx.keys(code.lowercased()) + [.key(.enter)])
        #expect(typed.codeField == code)
        #expect(Fx.sent(fx) == ["JOIN \(code)"])
        let join = ScreenTests.plainLines(Fx.run(Fx.named("bob"), Fx.keys("4") + Fx.keys(code)).0, 60, 20)
        #expect(join.filter { $0.contains("█") }.count == BlockFont.height)
        // Enter with nothing typed: the notice says how long a code is.
        #expect(Screens.noticeText(.typeACode, .en) == "Type the 8-character code first.")
        #expect(Screens.noticeText(.typeACode, .nl) == "Typ eerst de code van 8 tekens.")
    }
}
