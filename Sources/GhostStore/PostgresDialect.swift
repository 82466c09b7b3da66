/// The store's statements, written in SQLite's dialect, in PostgreSQL's
/// (issue #48): one translation, so that each part of the store keeps one
/// text per statement, and what it cannot translate is said, not guessed.
///
/// What it changes, outside string literals and quoted names:
/// - `?` parameters are numbered: `$1`, `$2`, …;
/// - `INSERT OR IGNORE INTO …` is `INSERT INTO … ON CONFLICT DO NOTHING`;
/// - `INDEXED BY <index>` is dropped (PostgreSQL's planner picks the index;
///   `PostgresQueryPlanTests` checks that it can);
/// - `COLLATE NOCASE` is dropped: the names' columns are `citext`
///   (PostgresSchema.swift);
/// - `max(a, b, …)` and `min(a, b, …)` with two or more arguments, SQLite's
///   scalar forms, are `greatest(…)` and `least(…)`; with one argument they
///   stay the aggregates they are in both dialects;
/// - a parameter that is a CASE's operand (`CASE ? WHEN 0 …`) is cast to
///   the type of the first WHEN's literal: PostgreSQL would take it as text.
///
/// `INSERT OR REPLACE` needs the conflict's target, which the text does not
/// say: it is refused (`Unsupported`), and a statement that uses it says
/// its PostgreSQL form itself.
public enum PostgresDialect {
    public struct Unsupported: Error, CustomStringConvertible {
        public let construct: String
        public let sql: String
        public var description: String { "no PostgreSQL form for \(construct) in: \(sql)" }
    }

    /// `sql` in PostgreSQL's dialect, with its parameters numbered.
    public static func translate(_ sql: String) throws -> String {
        let tokens = tokenize(sql)
        var out: [Token] = []
        var parameter = 0
        var ignoreConflicts = false
        var i = 0
        func word(_ k: Int) -> String? {
            guard k < tokens.count, case .word(let w) = tokens[k] else { return nil }
            return w.uppercased()
        }
        /// The next token after `k` that is not space.
        func next(_ k: Int) -> Int {
            var j = k + 1
            while j < tokens.count, case .space = tokens[j] { j += 1 }
            return j
        }
        while i < tokens.count {
            let token = tokens[i]
            switch token {
            case .parameter:
                parameter += 1
                out.append(.other("$\(parameter)" + caseOperandCast(out: out, tokens: tokens, after: i, next: next)))
                i += 1
            case .word(let w):
                let upper = w.uppercased()
                if upper == "INSERT", word(next(i)) == "OR" {
                    let what = next(next(i))
                    switch word(what) {
                    case "IGNORE":
                        ignoreConflicts = true
                        out.append(.word("INSERT"))
                        i = what + 1
                    case let other:
                        throw Unsupported(construct: "INSERT OR \(other ?? "?")", sql: sql)
                    }
                } else if upper == "INDEXED", word(next(i)) == "BY" {
                    dropTrailingSpace(&out)
                    i = next(next(i)) + 1   // INDEXED BY <name>: all three go; the space after stays
                } else if upper == "COLLATE", word(next(i)) == "NOCASE" {
                    dropTrailingSpace(&out)
                    i = next(i) + 1
                } else if upper == "MAX" || upper == "MIN", next(i) < tokens.count, case .open = tokens[next(i)],
                          topLevelCommas(tokens, from: next(i)) > 0 {
                    out.append(.word(upper == "MAX" ? "greatest" : "least"))
                    i += 1
                } else {
                    out.append(token)
                    i += 1
                }
            default:
                out.append(token)
                i += 1
            }
        }
        var text = out.map(\.text).joined()
        if ignoreConflicts {
            while text.last == ";" || text.last?.isWhitespace == true { text.removeLast() }
            text += " ON CONFLICT DO NOTHING"
        }
        return text
    }

    /// `CASE ? WHEN 0 …`: PostgreSQL resolves a parameter that is a CASE's
    /// operand as text (its WHEN values are compared with it before either
    /// has a type), and then finds no `text = integer`; SQLite compares
    /// whatever comes. The parameter takes the type of the first WHEN's
    /// literal: `::bigint` for an integer, `::text` for a string.
    private static func caseOperandCast(out: [Token], tokens: [Token], after i: Int, next: (Int) -> Int) -> String {
        guard let previous = out.last(where: { if case .space = $0 { return false } else { return true } }),
              case .word(let keyword) = previous, keyword.uppercased() == "CASE" else { return "" }
        let when = next(i)
        guard when < tokens.count, case .word(let w) = tokens[when], w.uppercased() == "WHEN" else { return "" }
        let value = next(when)
        guard value < tokens.count else { return "" }
        switch tokens[value] {
        case .word(let literal) where !literal.isEmpty && literal.allSatisfy(\.isASCII) && literal.allSatisfy(\.isNumber): return "::bigint"
        case .string: return "::text"
        default: return ""
        }
    }

    private static func dropTrailingSpace(_ out: inout [Token]) {
        while let last = out.last, case .space = last { out.removeLast() }
    }

    /// The commas at the top level of the parenthesis that opens at `open`.
    private static func topLevelCommas(_ tokens: [Token], from open: Int) -> Int {
        var depth = 0
        var commas = 0
        for k in open..<tokens.count {
            switch tokens[k] {
            case .open: depth += 1
            case .close:
                depth -= 1
                if depth == 0 { return commas }
            case .comma: if depth == 1 { commas += 1 }
            default: break
            }
        }
        return commas
    }

    enum Token {
        case word(String)       // a name or keyword (letters, digits, _)
        case space(String)
        case string(String)     // '…' with its quotes, '' inside kept
        case quoted(String)     // "…" with its quotes
        case parameter          // ?
        case open, close, comma
        case other(String)      // anything else, one character at a time (or a rewritten piece)

        var text: String {
            switch self {
            case .word(let s), .space(let s), .string(let s), .quoted(let s), .other(let s): return s
            case .parameter: return "?"
            case .open: return "("
            case .close: return ")"
            case .comma: return ","
            }
        }
    }

    static func tokenize(_ sql: String) -> [Token] {
        var tokens: [Token] = []
        let chars = Array(sql)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" || c == "\"" {
                var j = i + 1
                while j < chars.count {
                    if chars[j] == c {
                        if j + 1 < chars.count, chars[j + 1] == c { j += 2; continue }   // a doubled quote
                        break
                    }
                    j += 1
                }
                let end = min(j + 1, chars.count)
                let piece = String(chars[i..<end])
                tokens.append(c == "'" ? .string(piece) : .quoted(piece))
                i = end
            } else if c == "-", i + 1 < chars.count, chars[i + 1] == "-" {
                var j = i
                while j < chars.count, chars[j] != "\n" { j += 1 }
                tokens.append(.space(String(chars[i..<j])))
                i = j
            } else if c.isWhitespace {
                var j = i
                while j < chars.count, chars[j].isWhitespace { j += 1 }
                tokens.append(.space(String(chars[i..<j])))
                i = j
            } else if c.isLetter || c.isNumber || c == "_" {
                var j = i
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
                tokens.append(.word(String(chars[i..<j])))
                i = j
            } else {
                switch c {
                case "?": tokens.append(.parameter)
                case "(": tokens.append(.open)
                case ")": tokens.append(.close)
                case ",": tokens.append(.comma)
                default: tokens.append(.other(String(c)))
                }
                i += 1
            }
        }
        return tokens
    }
}
