import Foundation

/// The word lists a server offers, keyed by language code. A language is a
/// file: `xx.txt` (two or three lowercase letters) in the dictionaries folder
/// offers language `xx`.
public struct Dictionaries: Sendable {
    public let lists: [String: WordList]

    public init(lists: [String: WordList]) { self.lists = lists }

    /// Language codes in sorted order.
    public var languages: [String] { lists.keys.sorted() }

    public subscript(language: String) -> WordList? { lists[language] }

    public enum LoadError: Error, CustomStringConvertible {
        case unreadableFolder(String)
        case noLanguages(String)
        case unreadableFile(String)

        public var description: String {
            switch self {
            case .unreadableFolder(let p): return "cannot read the dictionaries folder \(p)"
            case .noLanguages(let p): return "no word lists (files named like en.txt) in \(p)"
            case .unreadableFile(let p): return "cannot read the word list \(p)"
            }
        }
    }

    /// Whether a file name names a word list, and for which language.
    public static func language(ofFileName name: String) -> String? {
        guard name.hasSuffix(".txt") else { return nil }
        let code = name.dropLast(4)
        guard (2...3).contains(code.count),
              code.utf8.allSatisfy({ (0x61...0x7A).contains($0) }) else { return nil }
        return String(code)
    }

    /// Loads every `xx.txt` in `folder`.
    public static func load(folder: String) throws -> Dictionaries {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw LoadError.unreadableFolder(folder)
        }
        var lists: [String: WordList] = [:]
        for name in names.sorted() {
            guard let code = language(ofFileName: name) else { continue }
            let path = (folder as NSString).appendingPathComponent(name)
            lists[code] = try WordList(contentsOfFile: path)
        }
        guard !lists.isEmpty else { throw LoadError.noLanguages(folder) }
        return Dictionaries(lists: lists)
    }
}

extension WordList {
    /// Reads a word file: one word per line; see `init(text:)`.
    public init(contentsOfFile path: String) throws {
        guard var bytes = readWholeFile(path) else {
            throw Dictionaries.LoadError.unreadableFile(path)
        }
        self.init(folding: &bytes)
    }
}

/// Reads a file into one array, without an intermediate Data copy.
private func readWholeFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_size >= 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return nil }
        offset += n
    }
    return bytes
}
