import GhostProtocol

/// The settings the client keeps for itself: the language of its texts
/// (the language screen) and the tutorial, first shown once and then from
/// the main screen.
enum SettingsFeature {
    static func languageKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let langs = Strings.uiLanguages
        if key == .escape, st.config.language != nil {
            st.go(st.settings.languageReturn)
            return
        }
        // Each language by its letter (e English, n Nederlands), as shown.
        guard let choice = MenuKeys.choice(&st, key, letters: Strings.languageLetters) else { return }
        let firstTime = st.config.language == nil
        chooseLanguage(&st, langs[choice], &fx)
        if firstTime || !st.config.tutorialSeen {
            goToTutorial(&st, returnTo: st.settings.languageReturn)
        } else if st.settings.languageReturn == .name {
            NamePickerFeature.goToNameScreen(&st, &fx)
        } else {
            st.go(st.settings.languageReturn)
        }
    }

    static func tutorialKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        let last = Strings.tutorialPageCount - 1
        switch key {
        case .right, .enter, .pageDown, .char(" "):
            if st.settings.tutorialPage < last { st.settings.tutorialPage += 1 } else { finishTutorial(&st, &fx) }
        case .left, .backspace, .pageUp:
            st.settings.tutorialPage = max(0, st.settings.tutorialPage - 1)
        case .escape, .char("q"):
            finishTutorial(&st, &fx)
        default:
            if let d = key.digit, (1...(last + 1)).contains(d) { st.settings.tutorialPage = d - 1 }
        }
    }

    static func finishTutorial(_ st: inout ClientState, _ fx: inout [ClientEffect]) {
        if !st.config.tutorialSeen {
            st.config.tutorialSeen = true
            fx.append(.saveConfig)
        }
        if st.config.token != nil && st.link != .online {
            st.go(.resuming)
        } else if st.settings.tutorialReturn == .name || !st.named {
            NamePickerFeature.goToNameScreen(&st, &fx)
        } else {
            st.go(st.settings.tutorialReturn)
        }
    }

    /// The tutorial, at `page` (by default the chosen game's first: Ghost's
    /// basics, or Hangman's page when Hangman is chosen, as `--game hangman` does).
    static func goToTutorial(_ st: inout ClientState, returnTo: Screen, page: TutorialPage? = nil) {
        st.settings.tutorialReturn = returnTo
        st.settings.tutorialPage = (page ?? st.firstTutorialPage).index
        st.go(.tutorial)
    }

    /// Chooses the language of the texts, saves it, and tells the server
    /// (the language of the next games; never used in a game).
    static func chooseLanguage(_ st: inout ClientState, _ code: String, _ fx: inout [ClientEffect]) {
        if Strings.uiLanguages.contains(code), st.config.language != code {
            st.config.language = code
            fx.append(.saveConfig)
        }
        if st.link == .online, st.serverLanguages.contains(code) {
            st.send(.lang(code), &fx)
        }
    }
}
