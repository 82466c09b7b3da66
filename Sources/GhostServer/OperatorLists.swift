#if canImport(Glibc)
import Glibc
#endif
import GhostStore

/// The operator's lists (`ghostd accounts list`, `ghostd reports`), read
/// page by page from the store under the folder's lock when no daemon
/// runs, or from a read-only reader beside a running one (`StoreReader`).
///
/// Why a reader and not a request to the daemon, as mute and ban are: a
/// list may be thousands of lines, and paging through it in the daemon's
/// loop would hold up every player while it runs; in WAL mode a reader
/// sees the last commit without the lock, costs the daemon nothing, and
/// can write nothing.
struct OperatorLists {
    var accounts: (_ after: String?, _ limit: Int) throws -> [Store.Account]
    var sanctions: (_ now: Int, _ after: String?, _ limit: Int) throws -> [SocialStore.Sanction]
    var reports: (_ limit: Int, _ before: Int?) throws -> [SocialStore.Report]

    init(store: Store) {
        accounts = { try store.accounts(after: $0, limit: $1) }
        sanctions = { try store.socialStore.sanctions(now: $0, after: $1, limit: $2) }
        reports = { try store.socialStore.reports(limit: $0, before: $1) }
    }

    init(reader: StoreReader) {
        accounts = { try reader.accounts(after: $0, limit: $1) }
        sanctions = { try reader.sanctions(now: $0, after: $1, limit: $2) }
        reports = { try reader.reports(limit: $0, before: $1) }
    }

    /// Rows read at a time.
    static let page = 500

    /// Every registration, alphabetically (`NAME created=… changed=…`),
    /// then every sanction in force at `now` by target (`NAME mute|ban
    /// until=…|forever`, `network:KEY ban until=…`).
    func listAccounts(now: Int, out: (String) -> Void) throws {
        var after: String?
        while true {
            let page = try accounts(after, Self.page)
            for a in page {
                out("\(a.name) created=\(AccountsCommand.iso8601(a.created)) changed=\(AccountsCommand.iso8601(a.changed))")
            }
            guard page.count == Self.page, let last = page.last else { break }
            after = last.name
        }
        after = nil
        while true {
            var page = try sanctions(now, after, Self.page)
            let full = page.count == Self.page
            // Pages go by target, and a name may have a mute and a ban: a
            // full page's last target may go on in the next one, so it is
            // left for that one (a target has at most three rows).
            if full, let last = page.last?.target.lowercased() {
                page.removeAll { $0.target.lowercased() == last }
            }
            for s in page { out(Self.line(s)) }
            guard full, let last = page.last else { break }
            after = last.target
        }
    }

    /// `ann mute until=2027-01-05T14:00:00Z`, `network:203.0.113.7 ban until=forever`.
    static func line(_ s: SocialStore.Sanction) -> String {
        let until = "until=" + (s.until.map(AccountsCommand.iso8601) ?? "forever")
        switch s.kind {
        case .banNetwork: return "network:\(s.target) ban \(until)"
        case .mute, .ban: return "\(s.target) \(s.kind.rawValue) \(until)"
        }
    }

    /// The newest `limit` reports, newest first, one block each, a blank line between.
    func listReports(limit: Int, out: (String) -> Void) throws {
        var before: Int?
        var left = limit
        var first = true
        while left > 0 {
            let page = try reports(min(left, 100), before)
            for r in page {
                if !first { out("") }
                first = false
                for line in Self.block(r) { out(line) }
            }
            left -= page.count
            guard page.count == 100, let last = page.last else { break }
            before = last.id
        }
    }

    /// `report 3 at=… reporter=ann reported=bob game=12`, `  reason: …`,
    /// then the reported name's last lines to the reporter, indented.
    static func block(_ r: SocialStore.Report) -> [String] {
        ["report \(r.id) at=\(AccountsCommand.iso8601(r.at)) reporter=\(printable(r.reporter)) reported=\(printable(r.reported)) game=\(r.game.map(String.init) ?? "none")",
         "  reason: \(printable(r.reason))"]
            + r.chat.map { "  \(printable(r.reported)): \(printable($0))" }
    }

    /// Text a player wrote, made safe for the operator's terminal: every
    /// control character (an escape sequence's start) shown as U+FFFD.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "\u{FFFD}" : $0 }))
    }

    /// Runs `body` with the lists of the data folder `folder`: the store
    /// under the folder's lock if no daemon holds it, else a reader beside
    /// the daemon, in one snapshot.
    static func withLists(folder: String, store url: String? = nil, _ body: (OperatorLists) throws -> Void) throws {
        let lock: DataFolderLock
        do {
            lock = try DataFolderLock(directory: folder)
        } catch DataFolderLock.Failure.inUse {
            let reader = try url.map { try StoreReader(postgres: $0) } ?? StoreReader(directory: folder)
            defer { reader.close() }
            return try reader.snapshot { try body(OperatorLists(reader: $0)) }
        }
        defer { lock.unlock() }
        let store = try openStore(folder: folder, store: url)
        defer { store.close() }
        try body(OperatorLists(store: store))
    }

    /// The state of the ghostd on data folder `folder`, with its `--store`
    /// if it has one: the daemon's checks either way (DatabaseFile.swift,
    /// PostgresSchema.swift). The caller holds the folder's lock.
    static func openStore(folder: String, store url: String?) throws -> Store {
        if let url { return try Store(postgres: url, directory: folder) }
        return try Store(directory: folder)
    }
}
