/// The keys every menu takes the same way (a letter, Up/Down, a digit,
/// Enter) and the quit question that any screen may ask: each screen's
/// feature calls in here rather than repeating them.
enum MenuKeys {
    /// A menu's key: the letter shown before an entry chooses it (one key
    /// style in every menu); else as `choice(_:_:count:)`.
    static func choice(_ st: inout ClientState, _ key: Key, letters: [String]) -> Int? {
        if case .char(let c) = key, let i = letters.firstIndex(of: c.lowercased()) {
            st.menuIndex = i
            return i
        }
        return choice(&st, key, count: letters.count)
    }

    /// Up/Down/digits move a menu cursor over `count` entries; returns the
    /// entry chosen with Enter or a digit (1-based digits, kept from the
    /// menus' first key style), if any.
    static func choice(_ st: inout ClientState, _ key: Key, count: Int) -> Int? {
        guard count > 0 else { return nil }
        switch key {
        case .up: st.menuIndex = (st.menuIndex + count - 1) % count
        case .down, .tab: st.menuIndex = (st.menuIndex + 1) % count
        case .home: st.menuIndex = 0
        case .end: st.menuIndex = count - 1
        case .enter: return min(max(0, st.menuIndex), count - 1)
        default:
            // 1–9 pick the first nine entries, 0 the tenth.
            if let d = key.digit, d == 0 ? count >= 10 : d <= count {
                st.menuIndex = d == 0 ? 9 : d - 1
                return st.menuIndex
            }
        }
        return nil
    }

    /// The quit question (Ctrl-C anywhere, q on the main screen): a second
    /// Ctrl-C, y/j or Enter quits; n or Esc goes back to the screen as it
    /// was; other keys do nothing while it is asked (a letter plays nothing).
    static func quitQuestionKey(_ st: inout ClientState, _ key: Key, _ fx: inout [ClientEffect]) {
        switch key {
        case .ctrlC, .enter, .char("y"), .char("Y"), .char("j"), .char("J"):
            st.confirmQuit = false
            st.quitting = true
            fx.append(.quit)
        case .escape, .backspace, .char("n"), .char("N"):
            st.confirmQuit = false
        default:
            break
        }
    }
}
