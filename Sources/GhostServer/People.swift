import GhostStore

/// The names online and what is theirs between people: whom each follows
/// and blocks, and its settings for presence, chat and invitations. An
/// entry lives while a connection holds the name (SocialDesk loads it when
/// the name is taken and drops it when it is given up), so every check
/// between two people online is a look-up in memory, never the store's.
/// A reference in the lobby's context: matchmaking reads the blocks too.
final class People {
    /// Who may invite a name (`SET invites`).
    enum InvitePolicy: String, CaseIterable {
        case anyone, friends, nobody
    }

    struct Person {
        /// As the connection holds it.
        var name: String
        /// Logged in to a registered name: its follows and blocks are stored.
        var registered: Bool
        /// Lowercased names it follows (registered names only: ≤ `maxFollows`).
        var follows: Set<String> = []
        /// Lowercased names it blocks (≤ `maxBlocks`).
        var blocks: Set<String> = []
        /// `SET presence`: off shows it offline to everyone.
        var presence = true
        /// `SET chat`: off, no SAID reaches it.
        var chat = true
        var invites: InvitePolicy = .anyone
    }

    /// By lowercased name.
    var byKey: [String: Person] = [:]
    /// A followed name (lowercased) → the names online that follow it: who
    /// hears of its coming and going, found without the store.
    var followersOnline: [String: Set<String>] = [:]

    subscript(key: String) -> Person? { byKey[key] }

    /// Whether `a` blocks `b` (lowercased names; a name offline blocks nobody here).
    func blocks(_ a: String, _ b: String) -> Bool {
        byKey[a]?.blocks.contains(b) ?? false
    }

    /// Whether either of two names blocks the other (seek pairing).
    func eitherBlocks(_ a: String?, _ b: String?) -> Bool {
        guard let a = a?.lowercased(), let b = b?.lowercased() else { return false }
        return blocks(a, b) || blocks(b, a)
    }

    /// Whether `viewer` sees `key` online (it is, shows its presence, and does not block the viewer).
    func showsOnline(_ key: String, to viewer: String) -> Bool {
        guard let p = byKey[key] else { return false }
        return p.presence && !p.blocks.contains(viewer)
    }

    func add(_ key: String, _ person: Person) {
        byKey[key] = person
        for f in person.follows { followersOnline[f, default: []].insert(key) }
    }

    func remove(_ key: String) {
        guard let p = byKey.removeValue(forKey: key) else { return }
        for f in p.follows { unlink(follower: key, followee: f) }
    }

    func link(follower: String, followee: String) {
        byKey[follower]?.follows.insert(followee)
        followersOnline[followee, default: []].insert(follower)
    }

    func unlink(follower: String, followee: String) {
        byKey[follower]?.follows.remove(followee)
        followersOnline[followee]?.remove(follower)
        if followersOnline[followee]?.isEmpty == true { followersOnline[followee] = nil }
    }
}
