/// Why a command line was refused: one line naming the option (or argument)
/// and what it allows. Programs print it and exit with status 2.
public struct OptionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with a value that was given.
    public enum Problem: Error, Equatable, Sendable {
        case empty
        case notANumber
        case notAWholeNumber
        case outOfRange
        case notAChoice
        /// Refused by a value's own check (for example a malformed address).
        case invalid
    }

    public enum Kind: Equatable, Sendable {
        /// `--bogus`: no option of that name.
        case unknownOption
        /// A word where no (more) positional arguments are taken.
        case unexpectedArgument
        /// `--port` as the last word, or followed by another `--option`.
        case missingValue
        /// A required positional argument is absent.
        case missingArgument
        /// `--help=yes`: a flag given a value.
        case valueForFlag
        case badValue(Problem)
    }

    public let kind: Kind
    /// The option's name (`--port`), the argument's name (`host[:port]`), or
    /// for unknown options and unexpected arguments the word itself.
    public let subject: String
    /// The value given, for `badValue`.
    public let value: String?
    /// What would have been accepted: `a whole number from 0 to 65535`,
    /// `full or normal`, a short list of options; empty if too long to say.
    public let allowed: String
    /// For an unknown option: the known one it is nearest to.
    public let suggestion: String?

    public init(_ kind: Kind, subject: String, value: String? = nil, allowed: String = "", suggestion: String? = nil) {
        self.kind = kind
        self.subject = subject
        self.value = value
        self.allowed = allowed
        self.suggestion = suggestion
    }

    public var description: String {
        let what: String
        switch kind {
        case .unknownOption: what = "unknown option \(Self.quoted(subject))"
        case .unexpectedArgument: what = "unexpected argument \(Self.quoted(subject))"
        case .missingValue: what = "\(subject) needs a value"
        case .missingArgument: what = "missing \(subject)"
        case .valueForFlag: what = "\(subject) takes no value"
        case .badValue(let problem):
            let v = Self.quoted(value ?? "")
            switch problem {
            case .empty: what = "\(subject): the value is empty"
            case .notANumber: what = "\(subject): \(v) is not a number"
            case .notAWholeNumber: what = "\(subject): \(v) is not a whole number"
            case .outOfRange: what = "\(subject): \(v) is out of range"
            case .notAChoice: what = "\(subject): \(v) is not one of the choices"
            case .invalid: what = "\(subject): \(v) is not valid"
            }
        }
        if let suggestion { return "\(what); did you mean \(suggestion)?" }
        return allowed.isEmpty ? what : "\(what); allowed: \(allowed)"
    }

    /// A word from the command line as it may be shown on one line: quoted
    /// (with escapes) when empty or holding spaces, quotes or control
    /// characters, and cut short when very long.
    static func quoted(_ word: String) -> String {
        let limit = 60
        let short = word.count > limit ? String(word.prefix(limit)) + "…" : word
        let plain = !short.isEmpty && !short.unicodeScalars.contains {
            $0.properties.generalCategory == .control || $0.properties.isWhitespace || $0 == "\"" || $0 == "\\"
        }
        return plain ? short : short.debugDescription
    }
}
