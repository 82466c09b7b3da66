import GhostWire
import GhostProtocol

extension Strings {
    /// Ghost's texts on the shared screens (`GameTexts`); `match`: the saved
    /// game type is a match to GHOST.
    func ghostTexts(match: Bool) -> GameTexts {
        let t = self
        return GameTexts(name: t.ghostName, typeName: match ? t.modeMatch : t.modeSingle,
                         quickMatch: t.menuQuickMatch, newPrivate: t.menuNewPrivate, rules: t.menuRules, scores: t.menuScores,
                         seeking: { t.seeking($0) + (match ? t.matchSuffix : "") },
                         queue: { $0 == .ghost ? t.modeMatch : t.modeSingle },
                         setup: { fields in
                             let name = t.variantName(fields[GameOptions.variantKey])
                             return fields["rounds"] == Rounds.ghost.rawValue ? name + " (" + t.modeMatch + ")" : name
                         })
    }
}
