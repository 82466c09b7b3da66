import GameKit
import GhostProtocol
import GhostStore

/// Settings (a part of the lobby of its own): SET and SETTINGS,
/// each game kind's settings saved per name, and the options they give a
/// NEW. The settings are the store's; this part keeps no state.
final class SettingsDesk: LobbyPart {
    let context: LobbyContext
    /// The part it uses, below it: `SET lang` is LANG's (NameDesk.swift).
    let names: NameDesk

    init(context: LobbyContext, names: NameDesk) {
        self.context = context
        self.names = names
    }

    /// Every setting the game kinds offer, each key once (`lang` is the
    /// lobby's own), in the order SETTINGS lists them.
    var settingSpecs: [SettingSpec] {
        var seen: Set<String> = [Preference.language.rawValue]
        return (kindNames.compactMap { kind(named: $0) }.flatMap(\.settingKeys) + SocialDesk.settingSpecs).filter { seen.insert($0.key).inserted }
    }

    /// A setting was saved for a name (the settings between people take effect at once: SocialDesk.swift).
    var settingSaved: (_ name: String, _ key: String, _ value: String) -> Void = { _, _, _ in }

    /// SET <key> <value>: checked by the kind that offers the key, for the
    /// connection's language, then saved at once for the name. It applies to
    /// the next NEW, never to a game in progress. `lang` is LANG outside a
    /// game (and, like LANG, may come before NAME); the other keys need a name.
    func setSetting(_ key: String, _ value: String, _ id: ConnectionID, _ session: Session) {
        if key == Preference.language.rawValue { return names.setLanguage(value, id, session, asSetting: true) }
        guard let spec = settingSpecs.first(where: { $0.key == key }) else {
            let keys = settingSpecs.map(\.key) + [Preference.language.rawValue]
            return reply(id, .error(.badArguments, "no setting \(key); settings: \(keys.joined(separator: ","))"))
        }
        let checked: String
        switch spec.validate(value, session.lang) {
        case .success(let v): checked = v
        case .failure(let e): return reply(id, .error(ErrorCode(e.code), e.message))
        }
        guard let name = session.name else {
            return reply(id, .error(.noName, "send NAME <name> first: settings are saved per name"))
        }
        guard persist({ try store.setPreference(key, checked, for: name, now: clock.wall) }) != nil else { return failed(id) }
        reply(id, .ok(.set(key: key, value: checked)))
        settingSaved(name, key, checked)
    }

    /// SETTINGS: each kind's settings with the name's values (the defaults
    /// before NAME), then `lang`.
    func listSettings(_ id: ConnectionID, _ session: Session) {
        var saved: [String: String] = [:]
        if let name = session.name {
            guard let prefs = persist({ try store.preferences(for: name) }) else { return failed(id) }
            saved = prefs
        }
        for spec in settingSpecs {
            reply(id, .setting(key: spec.key, value: saved[spec.key] ?? spec.defaultValue, defaultValue: spec.defaultValue))
        }
        reply(id, .setting(key: Preference.language.rawValue, value: session.lang, defaultValue: defaultLanguage))
        reply(id, .ok(.settings))
    }

    /// The options a name's saved settings give a kind's NEW (`mode` →
    /// `fair`), a default for each one not saved.
    func savedOptions(of name: String, for kind: any GameDefinition) throws -> [String: String] {
        let specs = kind.settingKeys
        guard !specs.isEmpty else { return [:] }
        let prefs = try store.preferences(for: name)
        var options: [String: String] = [:]
        for spec in specs where options[spec.option] == nil { options[spec.option] = prefs[spec.key] ?? spec.defaultValue }
        return options
    }
}
