/// What a command line asks for.
public enum Parsed<Target> {
    /// Run with these settings.
    case run(Target)
    /// `--help` came before any error.
    case help
    /// `--version` came before any error.
    case version
}

extension Parsed: Equatable where Target: Equatable {}

/// A program's options and positional arguments: one table, from which both
/// parsing and `--help` come.
///
/// Parsing rules: options take `--name value` or `--name=value`; a value
/// that starts with `--` must use the `=` form (so `--data --port 1` is a
/// missing value, not a folder named `--port`). Flags take no value.
/// Positional arguments are the words that do not start with `-`, in order.
/// A repeated option is allowed and the last one wins, so a script can add
/// an override to a fixed command line. `--help` and `--version` stop
/// parsing wherever they come before an error. Nothing here prints or exits.
public struct OptionTable<Target> {
    public var options: [Option<Target>]
    public var positionals: [Positional<Target>]

    public init(_ options: [Option<Target>], positionals: [Positional<Target>] = []) {
        self.options = options
        self.positionals = positionals
    }

    /// The options named in `names` (in the table's order), and `--help` and
    /// `--version`; for a subcommand that takes only some of them.
    public func only(_ names: [String]) -> OptionTable {
        OptionTable(options.filter { o in
            if case .action = o.kind { return true }
            return names.contains(o.name)
        }, positionals: positionals)
    }

    // MARK: Parsing

    /// Parses `arguments` (without the program name) into `initial`.
    public func parse(_ arguments: [String], into initial: Target) -> Result<Parsed<Target>, OptionError> {
        var target = initial
        var words = arguments[...]
        var nextPositional = positionals.startIndex
        while let word = words.popFirst() {
            guard word.hasPrefix("-") else {
                guard nextPositional < positionals.endIndex else {
                    return .failure(OptionError(.unexpectedArgument, subject: word, allowed: positionalsAllowed))
                }
                let p = positionals[nextPositional]
                nextPositional += 1
                if let problem = p.set(&target, word) {
                    return .failure(OptionError(.badValue(problem), subject: p.name, value: word, allowed: p.allowed))
                }
                continue
            }
            var name = word
            var inline: String?
            if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            guard let option = options.first(where: { $0.matches(name) }) else {
                return .failure(unknownOption(word, name: name))
            }
            switch option.kind {
            case .action(let action):
                guard inline == nil else { return .failure(OptionError(.valueForFlag, subject: option.name)) }
                switch action {
                case .help: return .success(.help)
                case .version: return .success(.version)
                }
            case .flag(let set):
                guard inline == nil else { return .failure(OptionError(.valueForFlag, subject: option.name)) }
                set(&target)
            case .value(let apply):
                let value: String
                if let inline {
                    value = inline
                } else if let next = words.first, !next.hasPrefix("--") {
                    value = next
                    words.removeFirst()
                } else {
                    return .failure(OptionError(.missingValue, subject: option.name, allowed: option.allowed))
                }
                if let problem = apply(&target, value) {
                    return .failure(OptionError(.badValue(problem), subject: option.name, value: value, allowed: option.allowed))
                }
            }
        }
        if let missing = positionals[nextPositional...].first(where: \.required) {
            return .failure(OptionError(.missingArgument, subject: missing.name, allowed: missing.allowed))
        }
        return .success(.run(target))
    }

    var positionalsAllowed: String {
        switch positionals.count {
        case 0: return "options only"
        case 1: return "options and one \(positionals.first?.name ?? "")"
        default: return "options and \(listed(positionals.map(\.name), or: "and")), once each"
        }
    }

    /// An unknown option, with the nearest known name if one is close, else
    /// the list of options when it is short.
    func unknownOption(_ word: String, name: String) -> OptionError {
        let names = options.map(\.name)
        if let near = Self.nearest(name, in: names) {
            return OptionError(.unknownOption, subject: word, suggestion: near)
        }
        return OptionError(.unknownOption, subject: word, allowed: names.count <= 8 ? listed(names) : "")
    }

    /// The name within a small edit distance of `word`, if any.
    static func nearest(_ word: String, in names: [String]) -> String? {
        guard word.count <= 64, word.count >= 3 else { return nil }
        let w = Array(word.lowercased())
        var best: (name: String, distance: Int)?
        for name in names {
            let d = editDistance(w, Array(name.lowercased()))
            if d <= min(2, name.count / 3), d < (best?.distance ?? Int.max) { best = (name, d) }
        }
        return best?.name
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for x in a {
            var current = [previous[0] + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    // MARK: Help

    /// `[host[:port]] [--config PATH] [--help]`.
    public var synopsis: String { synopsisItems.joined(separator: " ") }

    public var synopsisItems: [String] { positionals.map(\.synopsis) + options.map(\.synopsis) }

    /// Each option: `  --name VALUE`, then its help and the value `defaults`
    /// has for it in brackets, wrapped and indented below.
    public func optionLines(defaults: Target) -> [String] {
        options.flatMap { o in
            let shown = o.shown.map { " [\($0(defaults))]" } ?? ""
            return HelpText.entry("\(o.name)\(o.placeholder.map { " " + $0 } ?? "")", o.help + shown)
        }
    }

    /// Each positional argument, as `optionLines` does options.
    public func argumentLines() -> [String] {
        positionals.flatMap { p in HelpText.entry(p.name, p.help + (p.defaultText.map { " [\($0)]" } ?? "")) }
    }

    /// The whole help text:
    ///
    ///     Usage: <usage>
    ///
    ///     <about>
    ///
    ///     Arguments (default in brackets):   (when there are any)
    ///     <sections>                         (each: title, lines)
    ///     Options (default in brackets):
    ///
    ///     <footer>
    public func help(usage: String, about: [String], sections: [(title: String, lines: [String])] = [],
                     footer: [String] = [], defaults: Target) -> String {
        var lines = ["Usage: \(usage)"]
        if !about.isEmpty { lines += [""] + about }
        if !positionals.isEmpty { lines += ["", "Arguments (default in brackets):"] + argumentLines() }
        for section in sections { lines += ["", section.title] + section.lines }
        lines += ["", "Options (default in brackets):"] + optionLines(defaults: defaults)
        if !footer.isEmpty { lines += [""] + footer }
        return lines.joined(separator: "\n")
    }
}

/// Help text layout: 2-space heads, 6-space bodies wrapped at 72 columns.
public enum HelpText {
    public static let width = 72

    /// `  head` and the text wrapped below it, indented by 6.
    public static func entry(_ head: String, _ text: String) -> [String] {
        ["  " + head] + wrap(text, width: width).map { "      " + $0 }
    }

    /// Words of `text` in lines of at most `width` characters (longer words
    /// stand alone).
    public static func wrap(_ text: String, width: Int) -> [String] {
        pack(text.split(separator: " ").map(String.init), width: width, separator: " ")
    }

    /// Items (which are never split) in lines of at most `width` characters.
    public static func pack(_ items: [String], width: Int, separator: String = " ") -> [String] {
        var out: [String] = []
        var line = ""
        for item in items {
            if !line.isEmpty && line.count + separator.count + item.count > width {
                out.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : separator) + item
        }
        if !line.isEmpty { out.append(line) }
        return out
    }
}
