import Testing
import GameKit
import GhostWire
@testable import GhostCore

/// Ghost's setup is its variant, typed; the store keeps the word.
@Suite struct GhostTypedSetupTests {
    @Test func storedFormRoundTrips() {
        for variant in [nil] + GhostWire.Variant.allCases.map(Optional.some) {
            let setup = GhostKind.Setup(variant)
            #expect(GhostKind.Setup(variant: setup.variant, settings: setup.settings) == setup)
        }
        #expect(GhostKind.Setup(nil).variant == "" && GhostKind.Setup(.superghost).variant == "super")
        #expect(GhostKind.Setup(variant: "bluff", settings: "") == nil)
        #expect(GhostKind.Setup(variant: "", settings: "x") == nil)
    }
}
