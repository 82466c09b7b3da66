import Foundation
import Testing
import TestSupport

/// Dependencies one way (a check of the built binary, as
/// the end-to-end tests use it): the client reads Ghost's fields
/// through GhostWire (the kind's part of the wire) and links no game core:
/// not Ghost's solver and trie, not Hangman's tables, not the word lists.
@Suite struct ClientLinksNoCoreTests {
    /// Swift symbols name their module as `<length><name>` (`9GhostCore`).
    private static func mangled(_ module: String) -> Data { Data("\(module.utf8.count)\(module)".utf8) }

    @Test("ghost-client's binary holds no symbol of GhostCore, HangmanCore or WordLists, and does of GhostWire and HangmanWire")
    func noGameCore() throws {
        let binary = try Data(contentsOf: URL(fileURLWithPath: try ClientBinary.path()))
        for module in ["GhostCore", "HangmanCore", "WordLists"] {
            #expect(binary.range(of: Self.mangled(module)) == nil, "ghost-client links \(module)")
        }
        #expect(binary.range(of: Self.mangled("GhostWire")) != nil)
        #expect(binary.range(of: Self.mangled("HangmanWire")) != nil)
    }
}
