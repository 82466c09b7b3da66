import Testing
@testable import GhostAuth

@Suite struct PasswordHashTests {
    @Test func aHashIsYescryptAndSalted() throws {
        let a = try #require(PasswordHash.make("correct horse battery"))
        let b = try #require(PasswordHash.make("correct horse battery"))
        #expect(a.hasPrefix("$y$"))
        #expect(a != b)  // a fresh salt each time
        #expect(!a.contains("correct"))
    }

    @Test func verifyAcceptsOnlyThePassword() throws {
        let h = try #require(PasswordHash.make("pass word with spaces"))
        #expect(PasswordHash.verify("pass word with spaces", against: h))
        #expect(!PasswordHash.verify("pass word with spaces ", against: h))
        #expect(!PasswordHash.verify("Pass word with spaces", against: h))
        #expect(!PasswordHash.verify("", against: h))
    }

    /// A hash made by another program (C: crypt_gensalt("$y$", 0) and
    /// crypt() of libxcrypt), as an operator's tool or an older ghostd
    /// would have stored it.
    @Test func aHashMadeElsewhereVerifies() {
        let h = "$y$j9T$M0wmEJdZfY3fH2CvOQaA11$byD3lu2f3gy1hMeh9bvBvnFi4Dk7WeUOxwmgc17na.6"
        #expect(PasswordHash.verify("hunter2hunter2", against: h))
        #expect(!PasswordHash.verify("hunter2hunter3", against: h))
    }

    @Test func garbageStoredValuesNeverMatch() {
        for stored in ["", "*", "*0", "$y$", "plain", "$1$", "x$y$j9T$abc"] {
            #expect(!PasswordHash.verify("anything at all", against: stored))
            #expect(!PasswordHash.verify("", against: stored))
        }
    }

    @Test func aNulByteIsRefused() {
        #expect(PasswordHash.make("abc\u{0}defgh") == nil)
        if let h = PasswordHash.make("abc") {
            #expect(!PasswordHash.verify("abc\u{0}def", against: h))
        }
    }
}
