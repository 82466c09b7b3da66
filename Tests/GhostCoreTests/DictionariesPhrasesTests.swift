import Testing
import GhostCore
import WordLists

/// Phrase lists: the `phrases` subfolder is read with the word lists, every
/// line of the committed lists is a phrase, and it is not a language.
struct DictionariesPhrasesTests {
    static let folder = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/")).prefixedWithSlash + "/Dictionaries"

    @Test func theCommittedListsLoadWhole() throws {
        let d = try Dictionaries.load(folder: Self.folder)
        #expect(d.languages == ["en", "nl"])
        #expect(d.phrases["en"]?.count == 4156)
        #expect(d.phrases["nl"]?.count == 939)
        #expect(d.phrases["en"]?.contains("piece of cake") == true)
        #expect(Dictionaries.loadPhrases(folder: Self.folder + "/missing").isEmpty)
    }

    @Test func whatAPhraseIs() {
        for good in ["piece of cake", "rock 'n' roll", "tilt-top table", "o jee", "ad rem"] {
            #expect(Dictionaries.isPhrase(good), "\(good)")
        }
        for bad in ["cake", "piece  of cake", " piece of cake", "piece of cake ", "piece of 2 cakes", "Piece of cake",
                    "-a b", "a- b", "a -b", "a b'", "caf\u{e9} au lait", ""] {
            #expect(!Dictionaries.isPhrase(bad), "\(bad)")
        }
    }
}

private extension String {
    var prefixedWithSlash: String { hasPrefix("/") ? self : "/" + self }
}
