import Testing
@testable import GhostServer

/// Resume tokens (GamePlay.newToken), written straight into the string's storage.
@Suite struct TokenTests {
    @Test("A token is 32 lowercase hex digits, a different one each time, every digit in use")
    func tokenShape() {
        var seen: Set<String> = [], digits: Set<Character> = []
        for _ in 0..<300 {
            let token = GamePlay.newToken()
            #expect(token.utf8.count == 32 && token.count == 32, "\(token)")
            #expect(token.allSatisfy { "0123456789abcdef".contains($0) }, "\(token)")
            seen.insert(token)
            digits.formUnion(token)
        }
        #expect(seen.count == 300 && digits.count == 16)
    }
}
