import Foundation

/// Just enough of Markdown to check the documentation: headings and their
/// GitHub anchors, links, code spans and fenced code, each with its line.
struct MarkdownDocument {
    struct Link: Equatable {
        var line: Int
        var target: String
    }

    /// A piece of text where a command line may appear: an inline code span,
    /// a line of fenced or indented code, or a line of prose (code removed).
    struct Snippet: Equatable {
        enum Kind: Equatable { case codeSpan, codeLine, prose }
        var line: Int
        var kind: Kind
        var text: String
    }

    var headings: [(line: Int, text: String)] = []
    var links: [Link] = []
    var snippets: [Snippet] = []

    /// The anchors GitHub gives the headings, in order, duplicates numbered
    /// (`x`, `x-1`, `x-2`).
    var anchors: Set<String> {
        var seen: [String: Int] = [:]
        var result = Set<String>()
        for heading in headings {
            let slug = Self.slug(heading.text)
            if let n = seen[slug] {
                seen[slug] = n + 1
                result.insert("\(slug)-\(n + 1)")
            } else {
                seen[slug] = 0
                result.insert(slug)
            }
        }
        return result
    }

    init(_ text: String) {
        var fence: String? = nil
        var previousBlank = true
        var inIndented = false
        // Consecutive lines of text, read together: a code span or a link
        // may run over a line break.
        var paragraph: [(number: Int, line: String)] = []
        func endParagraph() {
            guard let first = paragraph.first?.number else { return }
            let joined = paragraph.map(\.line).joined(separator: "\n")
            let (prose, spans) = Self.splitCode(joined)
            for span in spans {
                snippets.append(.init(line: first + span.lineOffset, kind: .codeSpan,
                                      text: span.text.replacingOccurrences(of: "\n", with: " ")))
            }
            for (offset, line) in prose.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                snippets.append(.init(line: first + offset, kind: .prose, text: String(line)))
                for target in Self.linkTargets(String(line)) { links.append(.init(line: first + offset, target: target)) }
            }
            paragraph = []
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = String(raw)
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if let open = fence {
                if indent <= 3, trimmed.hasPrefix(open), trimmed.drop(while: { $0 == open.first }).allSatisfy({ $0 == " " }) {
                    fence = nil
                } else {
                    snippets.append(.init(line: number, kind: .codeLine, text: Self.withoutComment(line)))
                }
                previousBlank = false
                continue
            }
            if indent <= 3, trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                endParagraph()
                fence = String(trimmed.prefix { $0 == trimmed.first })
                previousBlank = false
                continue
            }
            let blank = trimmed.isEmpty
            if !blank, indent >= 4, previousBlank || inIndented {
                inIndented = true
                snippets.append(.init(line: number, kind: .codeLine, text: Self.withoutComment(line)))
                continue
            }
            inIndented = inIndented && blank
            previousBlank = blank
            if blank { endParagraph(); continue }
            if indent <= 3, let heading = Self.heading(String(trimmed)) {
                endParagraph()
                headings.append((number, heading))
            }
            paragraph.append((number, line))
        }
        endParagraph()
    }

    /// A line of shell without its `# comment`.
    static func withoutComment(_ line: String) -> String {
        guard let hash = line.range(of: " #") else { return line }
        return String(line[..<hash.lowerBound])
    }

    /// `## Text ##` → `Text`; nil when the line is not an ATX heading.
    static func heading(_ line: String) -> String? {
        let hashes = line.prefix { $0 == "#" }
        guard (1...6).contains(hashes.count) else { return nil }
        let rest = line.dropFirst(hashes.count)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var text = rest.trimmingCharacters(in: .whitespaces)
        // A closing run of #s preceded by a space is not part of the heading.
        if let range = text.range(of: #"\s+#+$"#, options: .regularExpression) { text.removeSubrange(range) }
        return text
    }

    /// GitHub's anchor for a heading: the rendered text (code without its
    /// backticks, a link's text, no emphasis marks) in lower case, every
    /// character but letters, digits, `_`, `-` and spaces removed, spaces
    /// made hyphens.
    static func slug(_ heading: String) -> String {
        var text = heading.replacingOccurrences(of: #"!?\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
        text = text.replacingOccurrences(of: "`", with: "")
        text = text.replacingOccurrences(of: #"(\*+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}]))"#, with: "", options: .regularExpression)
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar == " " {
                slug += "-"
            } else if scalar == "-" || scalar == "_" || CharacterSet.letters.contains(scalar)
                        || CharacterSet.decimalDigits.contains(scalar) || CharacterSet.nonBaseCharacters.contains(scalar) {
                slug.unicodeScalars.append(scalar)
            }
        }
        return slug
    }

    /// The text without its code spans (each replaced by a space), and the
    /// spans' contents with the line (from 0) each starts on.
    static func splitCode(_ text: String) -> (prose: String, spans: [(lineOffset: Int, text: String)]) {
        var prose = ""
        var spans: [(lineOffset: Int, text: String)] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "`") {
            prose += rest[..<open]
            let ticks = rest[open...].prefix { $0 == "`" }
            let after = rest[ticks.endIndex...]
            guard let close = after.range(of: String(ticks)) else {
                prose += rest[open...]
                rest = ""
                break
            }
            let content = after[..<close.lowerBound]
            spans.append((prose.filter { $0 == "\n" }.count, content.trimmingCharacters(in: .whitespaces)))
            // Keep the span's line breaks, so prose lines keep their numbers.
            prose += " " + String(content.filter { $0 == "\n" })
            rest = after[close.upperBound...]
        }
        prose += rest
        return (prose, spans)
    }

    /// The targets of inline links and images, `[text](target "title")`, and
    /// of reference definitions, `[label]: target`.
    static func linkTargets(_ prose: String) -> [String] {
        var targets: [String] = []
        let inline = try! NSRegularExpression(pattern: #"\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)"#)
        let reference = try! NSRegularExpression(pattern: #"^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?"#)
        let range = NSRange(prose.startIndex..., in: prose)
        for regex in [inline, reference] {
            for match in regex.matches(in: prose, range: range) {
                if let r = Range(match.range(at: 1), in: prose) { targets.append(String(prose[r])) }
            }
        }
        return targets
    }
}
