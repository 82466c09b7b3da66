#if canImport(Glibc)
import Glibc
#endif

/// The word lists a server offers, keyed by language code. A language is a
/// file: `xx.txt` (two or three lowercase letters) in the dictionaries folder
/// offers language `xx`.
public struct Dictionaries: Sendable {
    public let lists: [String: WordList]
    /// Phrase lists (Hangman's phrase mode) by language, from the `phrases`
    /// subfolder: one lowercase phrase per line. Not languages of their own.
    public let phrases: [String: [String]]
    /// Lists of common words by language, from the `common` subfolder: the
    /// words most people know, for a game that must pick a word a person can
    /// guess (Hangman's computer). Not languages of their own, and not
    /// checked here against `lists`: a game kind uses only the words that are
    /// in both. A language without one has none here. Kept as marks on the
    /// language's list (`CommonWords`), not as tries of their own.
    public let commonWords: [String: CommonWords]

    /// The lists of common words as `WordList`s: tries built on each use
    /// (one walk of the language's list each), for tests and tools; the
    /// daemon reads `commonWords`.
    public var common: [String: WordList] {
        commonWords.reduce(into: [:]) { out, entry in
            out[entry.key] = entry.value.wordList(on: lists[entry.key] ?? WordList(words: [String]()))
        }
    }

    public init(lists: [String: WordList], phrases: [String: [String]] = [:], common: [String: WordList] = [:]) {
        self.init(lists: lists, phrases: phrases, commonWords: common.reduce(into: [:]) { out, entry in
            out[entry.key] = CommonWords(entry.value, on: lists[entry.key] ?? WordList(words: [String]()))
        })
    }

    init(lists: [String: WordList], phrases: [String: [String]], commonWords: [String: CommonWords]) {
        self.lists = lists
        self.phrases = phrases
        self.commonWords = commonWords
    }

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
        guard let names = fileNames(in: folder) else { throw LoadError.unreadableFolder(folder) }
        var lists: [String: WordList] = [:]
        for name in names.sorted() {
            guard let code = language(ofFileName: name) else { continue }
            lists[code] = try WordList(contentsOfFile: joinPath(folder, name))
        }
        guard !lists.isEmpty else { throw LoadError.noLanguages(folder) }
        return Dictionaries(lists: lists, phrases: loadPhrases(folder: joinPath(folder, "phrases")),
                            commonWords: try loadCommon(folder: joinPath(folder, "common"), lists: lists))
    }

    /// Reads the `xx.txt` lists of common words in `folder`, for the languages
    /// of `lists` only (a missing folder: none), as marks on those lists. Same
    /// format as a word list; a file that cannot be read is an error, as for
    /// a word list.
    public static func loadCommon(folder: String, lists: [String: WordList]) throws -> [String: CommonWords] {
        guard let names = fileNames(in: folder) else { return [:] }
        var common: [String: CommonWords] = [:]
        for name in names.sorted() {
            guard let code = language(ofFileName: name), let list = lists[code] else { continue }
            let path = joinPath(folder, name)
            guard var bytes = readWholeFile(path) else { throw LoadError.unreadableFile(path) }
            common[code] = CommonWords(folding: &bytes, on: list)
        }
        return common
    }

    /// Reads `xx.txt` phrase lists from `folder` (missing: none). A line is
    /// kept only if it is letters a-z in words separated by one space, with
    /// apostrophes and hyphens inside words: anything else is skipped.
    public static func loadPhrases(folder: String) -> [String: [String]] {
        guard let names = fileNames(in: folder) else { return [:] }
        var phrases: [String: [String]] = [:]
        for name in names.sorted() {
            guard let code = language(ofFileName: name),
                  let bytes = readWholeFile(joinPath(folder, name)) else { continue }
            let lines = bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }.filter(isPhrase)
            if !lines.isEmpty { phrases[code] = lines }
        }
        return phrases
    }

    /// Words of a-z joined by single spaces, at least two words; `'` and `-`
    /// only between letters.
    public static func isPhrase(_ line: String) -> Bool {
        let b = Array(line.utf8)
        guard let first = b.first, let last = b.last, isLetter(first), isLetter(last), b.contains(0x20) else { return false }
        for (i, c) in b.enumerated() where !isLetter(c) {
            guard c == 0x20 || c == 0x27 || c == 0x2D else { return false }
            // A separator sits between two letters, except that an apostrophe may touch a space ("rock 'n' roll").
            let prev = b[i - 1], next = b[i + 1]
            switch c {
            case 0x2D: guard isLetter(prev), isLetter(next) else { return false }
            case 0x27: guard isLetter(prev) || isLetter(next), prev != 0x2D, next != 0x2D else { return false }
            default: guard prev != 0x20, next != 0x20 else { return false }
            }
        }
        return true
    }

    private static func isLetter(_ c: UInt8) -> Bool { (0x61...0x7A).contains(c) }
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

/// The names in a folder (not `.` and `..`), or nil when it cannot be read.
/// Glibc, not FileManager: ghostd does not load Foundation at all (about 9 MB
/// of resident libraries and part of its start-up time).
func fileNames(in folder: String) -> [String]? {
    guard let dir = opendir(folder) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafePointer(to: &entry.pointee.d_name) {
            String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// `folder/name`, without doubling a trailing slash.
func joinPath(_ folder: String, _ name: String) -> String {
    folder.isEmpty ? name : (folder.hasSuffix("/") ? folder + name : folder + "/" + name)
}
