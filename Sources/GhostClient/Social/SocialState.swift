import GhostWire
import GhostProtocol
import GameKit

/// The screens between people (issue #47): the names you follow, the
/// names you block, and who may see you, write to you and invite you.
public enum SocialScreen: Equatable, Sendable {
    /// FOLLOWING: the names you follow, with presence.
    case friends
    /// BLOCKS: the names you block.
    case blocks
    /// SET presence|chat|invites.
    case settings
}

/// A name you follow: one `FRIEND` line, kept live by ONLINE and OFFLINE.
public struct Friend: Equatable, Sendable {
    public var name: String
    public var online: Bool
    /// The game they play, when it may be watched.
    public var playing: Int?
    /// When last seen (unix seconds), offline and showing presence.
    public var seen: Int?
}

/// An invitation sent to you (`INVITE from= code=`): JOIN or DECLINE its code.
public struct Invitation: Equatable, Sendable {
    public var from: String
    public var code: String
    /// The game as it will be: `game=`, `lang=`, the kind's setup fields, `clock=`, `rated=`.
    public var fields: [Field]
}

/// A line of chat received (`SAID`), for the game it was said in.
public struct SaidLine: Equatable, Sendable {
    public var game: Int
    public var player: String
    public var text: String
}

/// One of the settings others see you by (`SET <key> <value>`).
public enum SocialSettingRow: Int, CaseIterable, Equatable, Sendable {
    case presence, chat, invites

    public var key: String {
        switch self {
        case .presence: "presence"
        case .chat: "chat"
        case .invites: "invites"
        }
    }

    /// Its values in the order Enter steps through them; the first is the server's default.
    public var values: [String] {
        switch self {
        case .presence, .chat: ["on", "off"]
        case .invites: ["anyone", "friends", "nobody"]
        }
    }

    static func row(_ key: String) -> SocialSettingRow? { allCases.first { $0.key == key } }
}

/// What the status line says about people.
public enum SocialNotice: Equatable, Sendable {
    case cameOnline(String)
    case wentOffline(String)
    case followed(String)
    case unfollowed(String)
    case blocked(String)
    case unblocked(String)
    /// The invitee said no (`DECLINED name= code=`).
    case declinedInvitation(String)
    /// An invitation to you no longer stands (`WITHDRAWN`).
    case withdrawn(String)
    /// An invitation came during a game of yours: shown once it is over.
    case invitationWaits(String)
    /// An invitation declined here.
    case youDeclined(String)
    /// `ERR unavailable`, by its reason.
    case unavailable(name: String, reason: UnavailableReason)
    case saved
    case typeAName
    /// A social command refused: the client's words for its code, else the general ones.
    case refused(code: ErrorCode, text: String)
}

/// Why a name cannot be invited now (the server's `ERR unavailable` text, read).
public enum UnavailableReason: Equatable, Sendable {
    case offline, inGame, friendsOnly, nobody

    /// Read from the server's text: "<name> is in a game", "… takes
    /// invitations from friends only", "… takes no invitations", else offline.
    static func read(_ text: String) -> UnavailableReason {
        if text.contains("in a game") { return .inGame }
        if text.contains("friends only") { return .friendsOnly }
        if text.contains("no invitations") { return .nobody }
        return .offline
    }
}

/// Everything the client keeps about other people.
public struct SocialClient: Equatable, Sendable {
    /// The last FOLLOWING answer (nil while it is on its way), and its lines being received.
    public var friends: [Friend]?
    var incomingFriends: [Friend] = []
    public var friendsCursor = 0
    /// The name being typed to follow (`a` on the friends screen); nil: closed.
    public var addField: String?
    /// A block asked, waiting for yes or no.
    public var confirmBlock: String?
    /// Where the block question was asked (Esc and the answer come back there).
    var blockReturn: Screen?

    /// The last BLOCKS answer, and its lines being received.
    public var blocks: [String]?
    var incomingBlocks: [String] = []
    public var blocksCursor = 0

    /// SETTINGS' presence, chat and invites, as saved (absent: the default).
    public var settings: [String: String] = [:]
    public var settingsRow = 0

    /// Invitations to you, oldest first; the first is shown.
    public var invitations: [Invitation] = []
    /// Your invitation waiting for its answer: whom, and its code.
    public var invited: (name: String, code: String)? {
        get { invitedName.flatMap { n in invitedCode.map { (n, $0) } } }
        set { invitedName = newValue?.name; invitedCode = newValue?.code }
    }
    var invitedName: String?
    var invitedCode: String?
    /// The name an INVITE on its way is for, until its answer.
    var inviting: String?
    /// Where the friends screen goes back to, and where a declined invitation returns.
    var friendsReturn: Screen = .main

    /// The chat line being typed in a game; nil: closed.
    public var chat: String?
    /// The last lines said to you, newest last (at most `keptLines`).
    public var said: [SaidLine] = []

    static let keptLines = 2
    static let maxInvitations = 5
    static let maxList = 1_000

    public init() {}

    public func setting(_ row: SocialSettingRow) -> String {
        settings[row.key] ?? row.values[0]
    }

    /// The friend under the cursor.
    public var chosenFriend: Friend? {
        guard let friends, friends.indices.contains(friendsCursor) else { return nil }
        return friends[friendsCursor]
    }

    public var chosenBlock: String? {
        guard let blocks, blocks.indices.contains(blocksCursor) else { return nil }
        return blocks[blocksCursor]
    }
}
