import Testing
import GhostProtocol
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

    @Test("The limits' refusals (too-many-joins, too-many-games, too-many-names) read as sentences in both languages, whole at 60×20")
    func limitRefusals() {
        let cases: [(String, ErrorCode)] = [("ERR too-many-joins too many JOINs with a wrong code; try again in 6 s", .tooManyJoins),
                                            ("ERR too-many-games you have 10 games in progress", .tooManyGames),
                                            ("ERR too-many-names too many new names; the next in 6 s", .tooManyNames)]
        for (line, code) in cases {
            for strings in [Strings.en, Strings.nl] {
                let text = strings.errorText(code)
                #expect(text != nil, "\(code.rawValue) in \(strings.code)")
                var (s, _) = Fx.run(Fx.named("bob"), Fx.keys("4") + Fx.keys("7K3QZ9MX") + [.key(.enter)])
                s.config.language = strings.code
                (s, _) = Fx.run(s, Fx.line(line))
                let lines = ScreenTests.plainLines(s, 60, 20)
                #expect(lines.contains { $0.contains(text ?? "?") }, "\(lines.joined(separator: "\n"))")
            }
        }
    }
}
