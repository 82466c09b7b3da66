import GhostProtocol
import GameKit

/// The kinds every screen names: the built-in ones and those the server
/// announced (HELP, `GenericFeature`). They stay the state's own because
/// the main, waiting, watch, record and score screens all read them.
extension ClientState {
    /// The kind chosen on the main screen: an announced one, else the saved built-in one.
    public var chosenKind: GameKind { genericChoice ?? config.game }

    /// The games the main screen offers, in the order ←/→ visit them: the
    /// built-in ones, then those the server announced.
    var offeredKinds: [GameKind] { ClientGames.kinds + serverKinds.map(\.kind) }

    /// What the server announced about `kind`, if it did.
    func announced(_ kind: GameKind) -> AnnouncedKind? { serverKinds.first { $0.kind == kind } }

    /// A kind's name for people: a built-in kind's own, an announced one's
    /// from its HELP line, else the kind's name as the server spells it.
    func kindName(_ kind: GameKind, _ t: Strings) -> String {
        if ClientGames.plays(kind.rawValue) { return ClientGames.texts(kind, t).name }
        return announced(kind)?.name ?? kind.rawValue
    }

    /// A finished game's kind and variant as the history, the replay and
    /// the profile name it: a built-in kind's words, an announced kind's
    /// name from its HELP line, else the kind as the server spells it.
    func gameKindName(_ game: String, _ variant: String?, _ t: Strings) -> String {
        if ClientGames.plays(game) { return t.gameKindName(game, variant) }
        return announced(GameKind(rawValue: game))?.name ?? game
    }

    /// A kind's texts for the screens all games share (the main screen, the
    /// quick-match screen, the list of games to watch).
    func texts(for kind: GameKind, _ t: Strings, match: Bool = false) -> GameTexts {
        if ClientGames.plays(kind.rawValue) { return ClientGames.texts(kind, t, match: match) }
        return t.genericTexts(kindName(kind, t))
    }
}
