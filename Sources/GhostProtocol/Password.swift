import GameKit

/// A password as a client sends it (`REGISTER`, `NAME <name> <password>`,
/// `PASSWORD`): the rest of the line after the single space that follows the
/// verb (or the name), spaces at either end included. It never prints:
/// `description`, `debugDescription` and its mirror say `<password>`, so a
/// `Command` that holds one can be logged, dumped or interpolated without
/// showing it. Only `text` (for the hash, and for `Command.rendered`, the
/// wire form a client sends) holds it.
public struct Password: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The password itself.
    public let text: String

    /// The shortest and longest password, in Unicode scalars.
    public static let minLength = 8
    public static let maxLength = 200

    public init(_ text: String) { self.text = text }

    public var description: String { "<password>" }
    public var debugDescription: String { "<password>" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// The error for a password of the wrong form, nil for a good one: 8 to
    /// 200 Unicode scalars, no control character (a tab is one; the framer and
    /// the parser refuse the others before this).
    public static func formError(_ text: some StringProtocol) -> CommandError? {
        let scalars = text.unicodeScalars
        var count = 0
        for s in scalars {
            if Sanitize.isControl(s.value) {
                return CommandError(.badPasswordForm, "password: 8 to 200 characters, no tabs or other control characters")
            }
            count += 1
            if count > maxLength { break }
        }
        guard (minLength...maxLength).contains(count) else {
            return CommandError(.badPasswordForm, "password: 8 to 200 characters")
        }
        return nil
    }
}

extension Reply {
    /// `OK NAME name=<name> lang=<code> registered=yes`: a registered name,
    /// logged in with its password. (Read back, it is `.name` with one more
    /// field, which a client that does not know it ignores.)
    public static func loggedIn(name: String, lang: String) -> Reply {
        .other(verb: Verb.name.rawValue, fields: [Field("name", name), Field("lang", lang), Field("registered", "yes")])
    }

    /// `OK REGISTER name=<name>`: the name is registered, and the connection logged in to it.
    public static func registered(name: String) -> Reply {
        .other(verb: Verb.register.rawValue, fields: [Field("name", name)])
    }

    /// `OK PASSWORD`: the new password is stored.
    public static let passwordChanged = Reply.other(verb: Verb.password.rawValue, fields: [])
}
