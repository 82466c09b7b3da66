import GhostWire
/// The texts of Superghost (`variant=super`), in both languages: the main
/// screen's choice of game, and where the next letter goes.
public struct SuperghostTexts: Sendable {
    /// The language (`Strings.code`).
    public let code: String

    /// The main screen's line for the Ghost variant of new games.
    public func variantSetting(_ superghost: Bool) -> String {
        if code == "nl" {
            return "Spel: " + (superghost ? "Superghost" : "Ghost") + " (v verandert dit)"
        }
        return "Game: " + (superghost ? "Superghost" : "Ghost") + " (v changes it)"
    }

    /// A match to GHOST (`rounds=ghost`) of a variant, as its title, its
    /// game-over title and its history row name it:
    /// "Ghost match", "Superghost-partij", "Partij bluffen en uitdagen".
    public func matchName(_ variant: String) -> String {
        guard code == "nl" else { return variant + " match" }
        return variant.contains(" ") ? "Partij " + variant.lowercased() : variant + "-partij"
    }

    /// A Superghost round lost on a dead fragment: no word contains it.
    public func reasonDeadSuper(_ loser: String, _ fragment: String) -> String {
        code == "nl" ? "\(atStart(loser)) maakte \(fragment): geen woord bevat dat."
            : "\(atStart(loser)) made \(fragment): no word contains it."
    }

    /// After "bob played E" in Superghost: where the letter went.
    public func playedWhere(front: Bool) -> String {
        code == "nl" ? (front ? " vooraan" : " achteraan") : (front ? " at the front" : " at the end")
    }

    /// Where the next letter goes in Superghost, and the keys that choose.
    public func nextLetterEnd(front: Bool) -> String {
        if code == "nl" {
            return "Je letter komt " + (front ? "vooraan" : "achteraan") + " (← vooraan, → achteraan)"
        }
        return "Your letter goes at the " + (front ? "front" : "end") + " (← front, → end)"
    }
}

extension Strings {
    /// Superghost's texts in this language.
    public var superghost: SuperghostTexts { SuperghostTexts(code: code) }

    /// The variant of a Ghost game, by its flags: Ghost, Superghost or bluff
    /// and challenge (one name everywhere, the tutorial's).
    public func variantName(superghost: Bool, challenge: Bool) -> String {
        variantName(superghost ? GhostWire.Variant.superghost.rawValue : challenge ? GhostWire.Variant.challenge.rawValue : nil)
    }

    /// A Ghost variant's name for people (Ghost's own for nil; an unknown one by its word).
    public func variantName(_ variant: String?) -> String {
        switch variant {
        case nil: ghostName
        case GhostWire.Variant.superghost.rawValue?: "Superghost"
        case GhostWire.Variant.challenge.rawValue?: code == "nl" ? "Bluffen en uitdagen" : "Bluff and challenge"
        case let other?: other
        }
    }

    /// After a line about other seekers: their variant, if not Ghost's
    /// (" They play Superghost."); an unknown one by its name.
    public func seekersVariant(_ variant: String?) -> String {
        guard let variant else { return "" }
        let name = variantName(variant)
        return code == "nl" ? " Ze spelen \(name)." : " They play \(name)."
    }
}
