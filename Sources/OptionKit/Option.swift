/// One option of a table: its name, how it is written in help, and what it
/// does to the settings (`Target`) it is parsed into.
public struct Option<Target> {
    public enum Action: Equatable, Sendable {
        /// `--help`: parsing stops and asks for the help text.
        case help
        /// `--version`: parsing stops and asks for the version.
        case version
    }

    enum Kind {
        /// Reads a value into the target, or says what is wrong with it.
        case value((inout Target, String) -> OptionError.Problem?)
        case flag((inout Target) -> Void)
        case action(Action)
    }

    /// `--port`.
    public let name: String
    /// Other spellings that are accepted but not shown in help: `-h`.
    public let aliases: [String]
    /// The value's name in help (`N`, `DIR`, `en|nl`); nil for flags.
    public let placeholder: String?
    public let help: String
    /// What values are accepted (empty for flags), as error messages say it.
    public let allowed: String
    /// The current value, shown in help in brackets; nil: nothing shown.
    public let shown: ((Target) -> String)?
    /// What shell completion offers for the value: the value's own
    /// (`choice`s), else by placeholder: `DIR` folders, `FILE` and `PATH`
    /// files, anything else nothing (the user types it).
    public let completion: Completion
    let kind: Kind

    init(name: String, aliases: [String], placeholder: String?, help: String, allowed: String,
         shown: ((Target) -> String)?, completion: Completion = .none, kind: Kind) {
        self.name = name
        self.aliases = aliases
        self.placeholder = placeholder
        self.help = help
        self.allowed = allowed
        self.shown = shown
        self.completion = completion == .none ? Completion.forPlaceholder(placeholder) : completion
        self.kind = kind
    }

    /// An option with a value of type `T`, read by `value` and stored with
    /// `set`; `get` shows the current value in help (the default, when help
    /// is made from the defaults). `defaultText` shows a fixed text instead.
    public static func value<T>(_ name: String, _ placeholder: String, _ help: String, _ value: Value<T>,
                                aliases: [String] = [],
                                get: ((Target) -> T)?, defaultText: String? = nil,
                                set: @escaping (inout Target, T) -> Void) -> Option {
        let shown: ((Target) -> String)? = defaultText.map { text in { _ in text } }
            ?? get.map { get in { value.show(get($0)) } }
        return Option(name: name, aliases: aliases, placeholder: placeholder, help: help, allowed: value.allowed,
                      shown: shown, completion: value.completion, kind: .value { target, text in
                          switch value.read(text) {
                          case .success(let v):
                              set(&target, v)
                              return nil
                          case .failure(let problem):
                              return problem
                          }
                      })
    }

    /// An option whose value is stored at `key`; help shows the current value.
    public static func value<T>(_ name: String, _ placeholder: String, _ help: String, _ value: Value<T>,
                                _ key: WritableKeyPath<Target, T>, aliases: [String] = []) -> Option {
        Self.value(name, placeholder, help, value, aliases: aliases, get: { $0[keyPath: key] }) { $0[keyPath: key] = $1 }
    }

    /// An optional setting stored at `key`; help shows `defaultText`, if any.
    public static func value<T>(_ name: String, _ placeholder: String, _ help: String, _ value: Value<T>,
                                _ key: WritableKeyPath<Target, T?>, defaultText: String?,
                                aliases: [String] = []) -> Option {
        Self.value(name, placeholder, help, value, aliases: aliases, get: nil, defaultText: defaultText) {
            $0[keyPath: key] = $1
        }
    }

    /// A flag without a value that sets `key` to true.
    public static func flag(_ name: String, _ help: String, _ key: WritableKeyPath<Target, Bool>,
                            aliases: [String] = []) -> Option {
        Option(name: name, aliases: aliases, placeholder: nil, help: help, allowed: "", shown: nil,
               kind: .flag { $0[keyPath: key] = true })
    }

    /// `--help` or `--version`: stops parsing wherever it appears before an error.
    public static func action(_ name: String, _ help: String, _ action: Action, aliases: [String] = []) -> Option {
        Option(name: name, aliases: aliases, placeholder: nil, help: help, allowed: "", shown: nil, kind: .action(action))
    }

    /// The usual `--help` (also `-h`).
    public static var help: Option { .action("--help", "show this help and exit", .help, aliases: ["-h"]) }

    /// The usual `--version` (also `-V`).
    public static var version: Option { .action("--version", "show the version and exit", .version, aliases: ["-V"]) }

    /// Takes no value.
    public var isFlag: Bool { placeholder == nil }

    /// `--help` or `--version`.
    public var isAction: Bool {
        if case .action = kind { return true }
        return false
    }

    func matches(_ word: String) -> Bool { word == name || aliases.contains(word) }

    /// `[--port N]`, `[--help]`.
    public var synopsis: String { "[\(name)\(placeholder.map { " " + $0 } ?? "")]" }
}

/// A positional argument: `host[:port]`, in order after the ones before it.
public struct Positional<Target> {
    public let name: String
    public let help: String
    public let required: Bool
    public let allowed: String
    /// Shown in help in brackets; nil: nothing shown.
    public let defaultText: String?
    /// What shell completion offers here (see `Option.completion`).
    public var completion: Completion = .none
    let set: (inout Target, String) -> OptionError.Problem?

    public static func value<T>(_ name: String, _ help: String, _ value: Value<T>, required: Bool = false,
                                defaultText: String? = nil,
                                set: @escaping (inout Target, T) -> Void) -> Positional {
        Positional(name: name, help: help, required: required, allowed: value.allowed, defaultText: defaultText,
                   completion: value.completion == .none ? Completion.forPlaceholder(name) : value.completion) { target, text in
            switch value.read(text) {
            case .success(let v):
                set(&target, v)
                return nil
            case .failure(let problem):
                return problem
            }
        }
    }

    /// `host[:port]` or `[host[:port]]`.
    public var synopsis: String { required ? name : "[\(name)]" }
}
