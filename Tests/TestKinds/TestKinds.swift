import GameKit
import HiddenWordsKind
import WordChainKind

/// The game kinds only the tests play, beside ghostd's own: the test
/// daemon's catalog (`ghostd-testkinds`), and what DocsTests lets the docs
/// name as a kind's own verbs and error codes. A kind used only by tests is
/// its module and one entry here.
public enum TestKinds {
    public static let all: [any GameDefinition] = [WordChainKind(), HiddenWordsKind()]
}
