/// One line the server sends, before its CRLF:
/// `KEYWORD [positional...] [key=value...] [free text]`.
///
/// Values and positional words never contain spaces or control characters;
/// free text (only on ERR and INFO lines) never contains control characters.
public struct Message: Sendable, Equatable, CustomStringConvertible {
    public var keyword: String
    public var words: [String]
    public var fields: [(key: String, value: String)]
    public var text: String?

    public init(_ keyword: String, _ words: [String] = [], fields: [(String, String)] = [], text: String? = nil) {
        self.keyword = keyword
        self.words = words
        self.fields = fields.map { (key: $0.0, value: $0.1) }
        self.text = text
    }

    public static func == (a: Message, b: Message) -> Bool {
        a.keyword == b.keyword && a.words == b.words && a.text == b.text
            && a.fields.map(\.key) == b.fields.map(\.key) && a.fields.map(\.value) == b.fields.map(\.value)
    }

    /// The value of a field, if present.
    public subscript(field: String) -> String? {
        fields.first(where: { $0.key == field })?.value
    }

    /// The line as sent, without CRLF.
    public var description: String { rendered }

    public var rendered: String {
        var bytes: [UInt8] = []
        appendLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line and its CRLF to `out`, sanitizing as it goes: no
    /// intermediate strings, since every reply of the server passes here.
    public func appendWire(to out: inout [UInt8]) {
        appendLine(to: &out)
        out.append(0x0D)
        out.append(0x0A)
    }

    private func appendLine(to out: inout [UInt8]) {
        Message.append(token: keyword, to: &out)
        for w in words {
            out.append(0x20)
            Message.append(token: w, to: &out)
        }
        for f in fields {
            out.append(0x20)
            Message.append(token: f.key, to: &out)
            out.append(0x3D)
            Message.append(token: f.value, to: &out)
        }
        if let text, !text.isEmpty {
            out.append(0x20)
            Message.append(text: text, to: &out)
        }
    }

    static func append(token s: String, to out: inout [UInt8]) { Sanitize.appendValue(s, to: &out) }
    static func append(text s: String, to out: inout [UInt8]) { Sanitize.appendText(s, to: &out) }

    /// Parses a server line (without its line end), as a client would.
    /// Positional words run until the first `key=value`; for ERR and INFO,
    /// everything after the code (ERR) or keyword (INFO) is free text.
    public static func parse(_ line: String) -> Message? {
        var parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard !parts.isEmpty else { return nil }
        let keyword = parts.removeFirst()
        switch keyword {
        case "INFO":
            return Message(keyword, text: parts.joined(separator: " "))
        case "ERR", "BYE":
            guard !parts.isEmpty else { return Message(keyword) }
            let code = parts.removeFirst()
            return Message(keyword, [code], text: parts.isEmpty ? nil : parts.joined(separator: " "))
        default:
            var words: [String] = []
            var fields: [(String, String)] = []
            for p in parts {
                if let eq = p.firstIndex(of: "="), eq != p.startIndex {
                    fields.append((String(p[..<eq]), String(p[p.index(after: eq)...])))
                } else if fields.isEmpty {
                    words.append(p)
                }
            }
            return Message(keyword, words, fields: fields)
        }
    }
}
