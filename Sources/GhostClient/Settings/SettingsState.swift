/// The state of the screens that set the client up: the tutorial's page,
/// and the screens the tutorial and the language screen go back to.
public struct SettingsState: Equatable, Sendable {
    public var tutorialPage = 0
    public var tutorialReturn: Screen = .name
    public var languageReturn: Screen = .name
}
