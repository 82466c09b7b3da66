import Testing
import GameKit
@testable import GhostServer

/// How a finished game's fields are stored (`ScoresDesk.stored`): written
/// straight into one string from the final and end fields, it
/// says exactly what the joined `key=value` words said, and reads back.
@Suite struct StoredFieldsTests {
    @Test("final then end fields, none, one or several in each, any text in them")
    func storedAsJoinedWords() {
        let samples: [[Field]] = [[], [Field("fragment", "pear")], [Field("word", "peach"), Field("fragment", "peach")],
                                  [Field("word", "caf\u{E9}"), Field("", ""), Field("note", "x=y")]]
        for first in samples {
            for then in samples {
                let old = (first + then).map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                #expect(ScoresDesk.stored(first, then) == old)
                #expect(ScoresDesk.stored(first + then) == old)
            }
        }
        #expect(ScoresDesk.fields(stored: ScoresDesk.stored([Field("word", "peach")], [Field("misses", "2")]))
                == [Field("word", "peach"), Field("misses", "2")])
    }
}
