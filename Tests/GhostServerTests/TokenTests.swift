import Testing
import GhostStore
@testable import GhostServer

/// Resume tokens (GamePlay.newToken), written straight into the string's storage.
@Suite struct TokenTests {
    @Test("A token is 32 lowercase hex digits: its game and seat, then a different secret each time, every digit in use")
    func tokenShape() {
        var seen: Set<String> = [], digits: Set<Character> = []
        for _ in 0..<300 {
            let token = GamePlay.newToken(game: 7, seat: 1)
            #expect(token.utf8.count == 32 && token.count == 32, "\(token)")
            #expect(token.allSatisfy { "0123456789abcdef".contains($0) }, "\(token)")
            #expect(token.hasPrefix("00000000000f"), "\(token)")
            seen.insert(token)
            digits.formUnion(token.dropFirst(12))
        }
        #expect(seen.count == 300 && digits.count == 16)
    }

    @Test("A game whose id does not fit 12 hex digits gets 128 random bits")
    func largeIdsGetRandomTokens() {
        let tokens = (0..<50).map { _ in GamePlay.newToken(game: ResumeTokens.maxGame + 1, seat: 0) }
        #expect(tokens.allSatisfy { $0.utf8.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        #expect(Set(tokens.map { $0.prefix(12) }).count > 1)
        #expect(GamePlay.newToken(game: ResumeTokens.maxGame, seat: 1).hasPrefix("ffffffffffff"))
    }
}
