import GhostProtocol

/// The texts between people, in both languages: friends and presence,
/// invitations, chat, blocking, and who may see you, write to you and invite you.
public struct SocialTexts: Sendable {
    /// The language (`Strings.code`).
    public let code: String

    private var dutch: Bool { code == "nl" }

    public var menuFriends: String { dutch ? "Vrienden" : "Friends" }

    // MARK: The friends screen

    public var friendsTitle: String { dutch ? "Vrienden" : "Friends" }
    public var friendsIntro: String {
        dutch ? "De namen die je volgt: je ziet wie er online is en nodigt ze uit voor een spel."
            : "The names you follow: see who is online, and invite them to a game."
    }
    public var friendsLoading: String { dutch ? "Je vrienden worden opgevraagd…" : "Asking the server for your friends…" }
    public var friendsEmpty: String {
        dutch ? "Je volgt nog niemand: a voegt een naam toe (alleen geregistreerde namen)."
            : "You follow nobody yet: a adds a name (registered names only)."
    }
    public var friendsHelp: String {
        dutch ? "↑/↓ · i uitnodigen · w kijken · a toevoegen · u ontvolgen · x blokkeren · k geblokkeerd · p privacy · Esc terug"
            : "↑/↓ · i invite · w watch · a add · u unfollow · x block · k blocked · p privacy · Esc back"
    }
    public var addLabel: String { dutch ? "Naam om te volgen: " : "Name to follow: " }
    public var addHelp: String { dutch ? "Enter volgen · Esc annuleren" : "Enter follow · Esc cancel" }

    /// A friend's presence: "online", "playing game 12", "last seen …", "offline".
    public func presence(_ f: Friend) -> String {
        if f.online, let game = f.playing { return dutch ? "speelt spel \(game)" : "playing game \(game)" }
        if f.online { return "online" }
        if let seen = f.seen { return (dutch ? "laatst gezien " : "last seen ") + Screens.utcText(seen) }
        return "offline"
    }

    // MARK: Blocks and settings

    public var blocksTitle: String { dutch ? "Geblokkeerd" : "Blocked" }
    public var blocksIntro: String {
        dutch ? "Van deze namen krijg je geen uitnodigingen, chat of spellen. Ze weten het niet."
            : "These names never reach you: no invitations, chat or games. They are not told."
    }
    public var blocksLoading: String { dutch ? "De geblokkeerde namen worden opgevraagd…" : "Asking the server for the names you block…" }
    public var blocksEmpty: String { dutch ? "Je blokkeert niemand." : "You block nobody." }
    public var blocksHelp: String { dutch ? "↑/↓ · u deblokkeren · r vernieuwen · Esc terug" : "↑/↓ · u unblock · r refresh · Esc back" }

    public var settingsTitle: String { dutch ? "Privacy" : "Privacy" }
    public var settingsIntro: String {
        dutch ? "Wie je online ziet, je chat leest en je uitnodigt. Bewaard bij je naam."
            : "Who sees you online, chats with you and invites you. Saved with your name."
    }
    public var settingsHelp: String { dutch ? "↑/↓ kiezen · Enter/←/→ wijzigen · Esc terug" : "↑/↓ choose · Enter/←/→ change · Esc back" }

    public func settingLabel(_ row: SocialSettingRow) -> String {
        switch row {
        case .presence: dutch ? "Anderen zien of je online bent" : "Others see when you are online"
        case .chat: dutch ? "Chat van anderen in een spel" : "Chat from others in a game"
        case .invites: dutch ? "Uitnodigingen van" : "Invitations from"
        }
    }

    public func settingValue(_ value: String) -> String {
        switch value {
        case "on": dutch ? "aan" : "on"
        case "off": dutch ? "uit" : "off"
        case "anyone": dutch ? "iedereen" : "anyone"
        case "friends": dutch ? "vrienden" : "friends"
        case "nobody": dutch ? "niemand" : "nobody"
        default: value
        }
    }

    // MARK: Questions, invitations, chat

    public func confirmBlock(_ name: String) -> String {
        dutch ? "\(name) blokkeren? Die merkt het niet. j: ja · n: nee" : "Block \(name)? They are not told. y: yes · n: no"
    }

    /// The invitation shown on every screen but a game's: who, which game, and the two keys.
    public func invitation(_ from: String, _ game: String) -> String {
        dutch ? "\(from) nodigt je uit: \(game) · + ja · - nee" : "\(from) invites you: \(game) · + accept · - decline"
    }

    /// The inviter's waiting screen.
    public func waitingForAnswer(_ name: String) -> String {
        dutch ? "Je hebt \(name) uitgenodigd; je wacht op het antwoord. Esc trekt de uitnodiging in."
            : "You invited \(name); waiting for the answer. Esc withdraws the invitation."
    }

    /// A line of chat: "ann: good game"; yours "you: …".
    public func saidLine(_ player: String, _ text: String, mine: Bool) -> String {
        (mine ? (dutch ? "jij" : "you") : player) + ": " + text
    }
    public var chatPrompt: String { dutch ? "Zeg: " : "Say: " }
    public var chatHelp: String { dutch ? "Enter versturen · Esc sluiten" : "Enter send · Esc close" }
    /// The chat key, in a game's key help.
    public var chatHint: String { dutch ? ": chat" : ": chat" }
    /// The block key on another name's profile.
    public var profileBlockHint: String { dutch ? "x blokkeren" : "x block" }

    // MARK: Notices

    public func notice(_ n: SocialNotice, _ t: Strings) -> String {
        switch n {
        case .cameOnline(let name): dutch ? "\(name) is online." : "\(name) is online."
        case .wentOffline(let name): dutch ? "\(name) is offline." : "\(name) went offline."
        case .followed(let name): dutch ? "Je volgt \(name)." : "You follow \(name)."
        case .unfollowed(let name): dutch ? "Je volgt \(name) niet meer." : "You no longer follow \(name)."
        case .blocked(let name): dutch ? "Je blokkeert \(name)." : "You block \(name)."
        case .unblocked(let name): dutch ? "Je blokkeert \(name) niet meer." : "You no longer block \(name)."
        case .declinedInvitation(let name): dutch ? "\(name) heeft je uitnodiging afgeslagen." : "\(name) declined your invitation."
        case .withdrawn(let name): dutch ? "\(name) heeft de uitnodiging ingetrokken." : "\(name) withdrew the invitation."
        case .invitationWaits(let name):
            dutch ? "\(name) nodigt je uit: antwoorden kan na dit spel." : "\(name) invites you: answer once this game is over."
        case .youDeclined(let name): dutch ? "Je hebt de uitnodiging van \(name) afgeslagen." : "You declined \(name)'s invitation."
        case let .unavailable(name, reason): unavailable(name, reason)
        case .saved: dutch ? "Bewaard." : "Saved."
        case .typeAName: dutch ? "Typ een naam." : "Type a name."
        case let .refused(code, text): errorText(code) ?? Screens.noticeText(.serverError(code: code, text: text), t)
        }
    }

    func unavailable(_ name: String, _ reason: UnavailableReason) -> String {
        switch reason {
        case .offline: dutch ? "\(name) is niet online." : "\(name) is not online."
        case .inGame: dutch ? "\(name) speelt nu een spel." : "\(name) is in a game."
        case .friendsOnly: dutch ? "\(name) wil alleen uitnodigingen van vrienden." : "\(name) takes invitations from friends only."
        case .nobody: dutch ? "\(name) wil geen uitnodigingen." : "\(name) takes no invitations."
        }
    }

    /// The social refusals in the client's words; nil: the general text.
    public func errorText(_ code: ErrorCode) -> String? {
        switch code {
        case .notRegistered:
            dutch ? "Alleen geregistreerde namen volgen en worden gevolgd: registreer je naam (a in het hoofdmenu)."
                : "Only registered names follow and are followed: register your name (a on the main screen)."
        case .noSuchName: dutch ? "Die naam bestaat hier niet." : "No such name here."
        case .tooManyInvites: dutch ? "Te veel open uitnodigingen: wacht op een antwoord." : "Too many open invitations: wait for an answer."
        case .tooManyFollows: dutch ? "Je volgt al het maximum aantal namen." : "You follow as many names as you may."
        case .tooManyBlocks: dutch ? "Je blokkeert al het maximum aantal namen." : "You block as many names as you may."
        case .muted: dutch ? "Je mag voorlopig niet chatten." : "You may not chat for now."
        case .notInGame: dutch ? "Chatten kan alleen in een spel." : "You can chat only in a game."
        default: nil
        }
    }
}

extension Strings {
    /// The texts between people in this language.
    public var social: SocialTexts { SocialTexts(code: code) }
}
