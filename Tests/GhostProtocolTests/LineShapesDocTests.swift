import Foundation
import Testing
import GhostProtocol

/// A client written from Protocol.md alone filed
/// `LEADER`, `RATING`, `VERSUS`, `RESULT`, `PLAYED` and `PLY` as events and
/// rejected `best_opponent=` (§2 allowed only lowercase letters in keys).
/// Now the document's own claims are checked against every line the server
/// sends (`ServerLineTests.cases`): its keyword is a final reply, `BYE`,
/// `HELLO`, or listed in §2 as a data line or an event; every key matches
/// §2's grammar.
@Suite struct LineShapesDocTests {
    /// Protocol.md's section 2, "Line shapes".
    static func section2() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Protocol.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## 2. Line shapes"))
        let end = try #require(text.range(of: "## 3. Commands", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// The backticked words made of capitals in `text` between `from` and `to`.
    static func keywords(_ text: String, from: String, to: String) throws -> Set<String> {
        let a = try #require(text.range(of: from), "no “\(from)” in §2")
        let b = try #require(text.range(of: to, range: a.upperBound..<text.endIndex), "no “\(to)” after “\(from)” in §2")
        let part = text[a.upperBound..<b.lowerBound]
        var out: Set<String> = []
        for piece in part.split(separator: "`").enumerated() where piece.offset % 2 == 1 {
            let word = piece.element.split(separator: " ").first.map(String.init) ?? ""
            if !word.isEmpty, word.allSatisfy({ $0.isASCII && $0.isUppercase }) { out.insert(word) }
        }
        return out
    }

    @Test("Every line keyword the server sends is a final reply, HELLO, BYE, or listed in §2 as a data line or an event, and §2's two lists agree with its reader's rule")
    func everyKeywordIsListed() throws {
        let s = try Self.section2()
        let ruled = try Self.keywords(s, from: "- **How a reader tells them apart:**", to: "are data lines of that command")
        let events = try Self.keywords(s, from: "- **Events** are every other line:", to: "(section 4)")
        let dataBullet = try Self.keywords(s, from: "- **Data lines** come only", to: "No other command has data lines")
        let dataLines = ruled.subtracting(["OK", "ERR"])
        #expect(dataLines.isSubset(of: dataBullet),
                "the reader's rule lists \(dataLines.sorted()), the data lines' bullet not \(dataLines.subtracting(dataBullet).sorted())")
        #expect(dataLines.isDisjoint(with: events), "both a data line and an event: \(dataLines.intersection(events).sorted())")
        let known = dataLines.union(events).union(["OK", "ERR", "HELLO", "BYE"])
        for (_, text) in ServerLineTests.cases {
            let keyword = String(text.split(separator: " ").first ?? "")
            #expect(known.contains(keyword), "`\(keyword)` (\(text)) is listed in §2 neither as a data line nor as an event")
        }
    }

    @Test("Every key=value the server sends matches §2's grammar: a lowercase letter, then lowercase letters, digits and _")
    func everyKeyMatchesTheGrammar() throws {
        let s = try Self.section2()
        #expect(s.contains(#"key       = %x61-7A *( %x61-7A / %x30-39 / "_" )"#), "§2's key rule changed: update this test")
        func isKey(_ k: Substring) -> Bool {
            guard let first = k.first, ("a"..."z").contains(first) else { return false }
            return k.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        }
        for (_, text) in ServerLineTests.cases {
            let words = text.split(separator: " ")
            guard let keyword = words.first else { continue }
            // Free text ends these lines; it may hold anything.
            if ["ERR", "BYE", "INFO", "HELP", "HELLO"].contains(keyword) { continue }
            for word in words.dropFirst() {
                guard let eq = word.firstIndex(of: "=") else { continue }
                #expect(isKey(word[..<eq]), "key `\(word[..<eq])` in `\(text)` does not match §2's grammar")
            }
        }
    }
}
